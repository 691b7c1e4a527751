package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.cli.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph schema show}: the accepted schema. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "Inspect the graph's schema.",
    subcommands = {SchemaCommand.Show.class})
public final class SchemaCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw io.omnigraph.cli.CliFailure.usage("a subcommand is required: show (see 'omnigraph schema --help')");
  }

  /** {@code schema show [<uri>]} (alias {@code get}): prints the accepted .pg source. */
  @Command(name = "show", aliases = "get", mixinStandardHelpOptions = true,
      description = "Print the accepted .pg source (with --json: source, identity, tables, IR).")
  public static final class Show extends GraphCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        SchemaInfo info = graph.schema();
        if (output.json()) {
          ObjectNode o = Json.object();
          o.put("source", info.source());
          o.put("schema_identity", info.identity());
          info.tableKeys().forEach(o.putArray("tables")::add);
          o.set("ir", Json.parseObject(info.irJson()));
          terminal().out().println(Json.write(o));
        } else {
          terminal().out().print(info.source().endsWith("\n") ? info.source() : info.source() + "\n");
        }
      }
      return 0;
    }
  }
}
