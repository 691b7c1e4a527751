package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph init --schema s.pg <uri>}: creates a graph. */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    description = "Create a graph from a .pg schema (the root must not hold a graph yet).")
public final class InitCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--schema", required = true, paramLabel = "<file.pg>", description = "The schema source.")
  Path schema;

  @Override
  public Integer call() {
    String uri = uri(positional);
    String source = readLocalText(schema, "schema");
    try (Graph graph = Omnigraph.init(uri, source, openOptions(uri))) {
      SchemaInfo info = graph.schema();
      List<CommitInfo> commits = graph.commits();
      CommitInfo genesis = commits.get(commits.size() - 1);
      PrintWriter out = terminal().out();
      if (output.json()) {
        ObjectNode o = Json.object();
        o.put("uri", uri);
        o.put("schema_identity", info.identity());
        info.tableKeys().forEach(o.putArray("tables")::add);
        o.set("commit", CommitJson.of(genesis, TableOrder.of(info)));
        out.println(Json.write(o));
      } else {
        out.println("initialized " + uri + ": " + info.tableKeys().size() + " tables "
            + info.tableKeys() + ", schema " + info.identity());
        out.println("genesis commit " + genesis.id());
      }
    }
    return 0;
  }
}
