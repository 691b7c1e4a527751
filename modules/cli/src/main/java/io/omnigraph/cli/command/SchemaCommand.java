package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.cli.Json;
import io.omnigraph.api.SchemaApplyOptions;
import io.omnigraph.api.SchemaApplyResult;
import io.omnigraph.api.SchemaPlan;
import io.omnigraph.api.SchemaPlanStep;
import io.omnigraph.cli.ExitCode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph schema show}: the accepted schema. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "Inspect and change the graph's schema (docs/schema-migration.md).",
    subcommands = {SchemaCommand.Show.class, SchemaCommand.Plan.class, SchemaCommand.Apply.class})
public final class SchemaCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw io.omnigraph.cli.CliFailure.usage("a subcommand is required: show, plan or apply (see 'omnigraph schema --help')");
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

  /** {@code <uri> <file.pg>} or, with {@code --store}, {@code <file.pg>}. */
  abstract static class WithSchemaFile extends GraphCommand {
    @Parameters(arity = "1..2", paramLabel = "<uri> <file.pg>",
        description = "Graph root (or --store) and the desired .pg schema file.")
    List<String> args;

    String graphArg() {
      return args.size() == 2 ? args.get(0) : null;
    }

    String desiredSchema() {
      return readLocalText(Path.of(args.get(args.size() - 1)), "schema");
    }
  }

  static ObjectNode stepJson(SchemaPlanStep step) {
    ObjectNode n = Json.object();
    n.put("kind", step.kind());
    step.fields().forEach((k, v) -> {
      if (v instanceof List<?> l) {
        l.forEach(x -> n.withArray(k).add(x.toString()));
      } else {
        n.put(k, v.toString());
      }
    });
    return n;
  }

  /** {@code schema plan <uri> <file.pg>}: what applying the file would do; nothing is written. */
  @Command(name = "plan", mixinStandardHelpOptions = true,
      description = {"Plan the change from the accepted schema to <file.pg> without writing anything: one line per"
          + " step, and per change the graph cannot make an unsupported_change with its reason and code.",
          "Exit 0 when the plan is supported, 2 when it has an unsupported change."})
  public static final class Plan extends WithSchemaFile implements Callable<Integer> {
    @Override
    public Integer call() {
      String desired = desiredSchema();
      SchemaPlan plan;
      try (Graph graph = open(graphArg())) {
        plan = graph.planSchema(desired);
      }
      if (output.json()) {
        ObjectNode o = Json.object();
        o.put("uri", uri(graphArg()));
        o.put("supported", plan.supported());
        o.put("step_count", plan.steps().size());
        o.put("accepted_schema_identity", plan.acceptedIdentity());
        o.put("desired_schema_identity", plan.desiredIdentity());
        plan.steps().forEach(st -> o.withArray("steps").add(stepJson(st)));
        if (plan.steps().isEmpty()) {
          o.putArray("steps");
        }
        terminal().out().println(Json.write(o));
      } else {
        if (plan.steps().isEmpty()) {
          terminal().out().println("no changes: the schema is already accepted");
        }
        for (SchemaPlanStep st : plan.steps()) {
          terminal().out().println((st.unsupported() ? "UNSUPPORTED " : "") + st.describe());
        }
        if (!plan.empty()) {
          terminal().out().println(plan.supported() ? plan.steps().size() + " step(s); apply with 'omnigraph schema"
              + " apply'" : plan.unsupportedChanges().size() + " unsupported change(s): the plan cannot be applied");
        }
      }
      return plan.supported() ? ExitCode.OK : ExitCode.DATA;
    }
  }

  /** {@code schema apply <uri> <file.pg>}: plans and applies as one recoverable commit. */
  @Command(name = "apply", mixinStandardHelpOptions = true,
      description = {"Apply <file.pg> as one graph commit: new types get new tables, tables whose columns change are"
          + " rewritten (existing values kept, renamed columns by @rename_from), and the schema files are promoted"
          + " once the commit is visible. Drops are soft (older commits keep the data) unless --allow-data-loss.",
          "Refused while branches other than main exist (exit 3) and for an unsupported change (exit 2)."})
  public static final class Apply extends WithSchemaFile implements Callable<Integer> {
    @CommandLine.Option(names = "--allow-data-loss",
        description = "Make drops hard: older versions of the affected tables are removed at once (irreversible).")
    boolean allowDataLoss;

    @CommandLine.Mixin CommitOptions commit;

    @Override
    public Integer call() {
      String desired = desiredSchema();
      SchemaApplyResult r;
      try (Graph graph = open(graphArg())) {
        r = graph.applySchema(desired, new SchemaApplyOptions(allowDataLoss, commit.actor(), commit.message()));
      }
      if (output.json()) {
        ObjectNode o = Json.object();
        o.put("uri", r.uri());
        o.put("supported", true);
        o.put("applied", r.applied());
        o.put("step_count", r.stepCount());
        if (r.commitId() == null) {
          o.putNull("commit_id");
        } else {
          o.put("commit_id", r.commitId());
        }
        o.put("schema_identity", r.schemaIdentity());
        o.putArray("steps");
        r.steps().forEach(st -> o.withArray("steps").add(stepJson(st)));
        terminal().out().println(Json.write(o));
      } else if (!r.applied()) {
        terminal().out().println("no changes: the schema is already accepted");
      } else {
        r.steps().forEach(st -> terminal().out().println(st.describe()));
        terminal().out().println("applied " + r.stepCount() + " step(s) in commit " + r.commitId());
      }
      return ExitCode.OK;
    }
  }
}
