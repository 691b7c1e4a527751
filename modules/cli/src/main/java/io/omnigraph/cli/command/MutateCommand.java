package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.QueryParams;
import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph mutate <uri> --query q.gq --name <query> [--param k=v ...]}: runs one mutation
 * query of a {@code .gq} file as one atomic commit. The reference CLI's spellings are accepted as
 * aliases, so users of either feel at home (docs/cli.md): {@code change}, the query name as a positional argument, {@code --params} /
 * {@code --params-file}, {@code --if-commit}, {@code --store}.
 */
@Command(
    name = "mutate",
    aliases = "change",
    mixinStandardHelpOptions = true,
    description = {
      "Run one insert/update/delete query of a .gq file as one atomic commit.",
      "Statements run in order and see each other's writes; nothing is written unless every statement"
          + " and schema check passes. A query that matches nothing publishes no commit.",
      "A query may not mix delete with insert/update: split it into two mutations."
    })
public final class MutateCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(arity = "0..2", paramLabel = "<uri> <name>",
      description = "Graph root (or --store), then the query name (or --name).")
  List<String> positionals = new ArrayList<>();

  @Option(names = "--query", paramLabel = "<file.gq>", description = "The .gq file holding the query.")
  Path queryFile;

  @Option(names = {"-e", "--query-string"}, paramLabel = "<gq>", description = "The .gq source text itself.")
  String queryText;

  @Option(names = "--name", paramLabel = "<query>", description = "The query to run (or give it as an argument).")
  String name;

  @Mixin ParamOptions params = new ParamOptions();

  @Mixin CommitOptions commit;

  @Override
  public Integer call() {
    String positionalUri = null;
    String positionalName = null;
    if (positionals.size() == 2) {
      positionalUri = positionals.get(0);
      positionalName = positionals.get(1);
    } else if (positionals.size() == 1) {
      // One argument is the graph unless the graph comes from --store (or --graph) and no --name was given.
      if ((graphOptions.store != null || graphOptions.graph != null) && name == null) {
        positionalName = positionals.get(0);
      } else {
        positionalUri = positionals.get(0);
      }
    }
    String uri = uri(positionalUri);
    if (name != null && positionalName != null && !name.equals(positionalName)) {
      throw CliFailure.usage("the query name was given twice: '" + positionalName + "' and --name '" + name + "'");
    }
    String queryName = name != null ? name : positionalName;
    if (queryName == null) {
      throw CliFailure.usage("no query name given: pass --name <query> (or the name after the graph URI)");
    }
    String gq = source();
    QueryParams values = params.values();
    MutationOptions options = new MutationOptions(commit.actor(), commit.message(), commit.expectHead(), commit.branch());
    try (Graph graph = open(positionalUri)) {
      MutationResult result = graph.mutate(gq, queryName, values, options);
      print(uri, result, result.commit().flatMap(graph::commit).orElse(null), TableOrder.of(graph.schema()));
      // The write is published; what failed after it (automatic maintenance) is reported, not an error.
      result.warnings().forEach(w -> terminal().err().println("warning: " + w.code() + ": " + w.message()));
    }
    return 0;
  }

  private String source() {
    if ((queryFile == null) == (queryText == null)) {
      throw CliFailure.usage("give the query as exactly one of --query <file.gq> or -e/--query-string <gq>");
    }
    return queryFile != null ? readLocalText(queryFile, "query") : queryText;
  }

  private void print(String uri, MutationResult result, CommitInfo commit, TableOrder order) {
    PrintWriter out = terminal().out();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri);
      o.put("query_name", result.queryName());
      o.put("affected_nodes", result.affectedNodes());
      o.put("affected_edges", result.affectedEdges());
      ObjectNode tables = o.putObject("tables");
      for (Map.Entry<String, MutationResult.TableChanges> e : order.sorted(result.tables()).entrySet()) {
        tables.putObject(e.getKey()).put("inserted", e.getValue().inserted()).put("updated", e.getValue().updated())
            .put("deleted", e.getValue().deleted());
      }
      if (commit != null) {
        o.set("commit", CommitJson.of(commit, order));
      } else if (result.commitId() != null) {
        o.set("commit", Json.object().put("graph_commit_id", result.commitId()));
      } else {
        o.putNull("commit");
      }
      out.println(Json.write(o));
      return;
    }
    if (result.commitId() == null) {
      out.println("mutation " + result.queryName() + " changed nothing in " + uri + "; no commit");
      return;
    }
    out.println("mutation " + result.queryName() + " changed " + Counts.of(result.affectedNodes(), "node", "nodes")
        + " and " + Counts.of(result.affectedEdges(), "edge", "edges") + " in " + uri + " as commit " + result.commitId());
    for (Map.Entry<String, MutationResult.TableChanges> e : order.sorted(result.tables()).entrySet()) {
      MutationResult.TableChanges c = e.getValue();
      out.println("  " + e.getKey() + ": inserted " + c.inserted() + ", updated " + c.updated() + ", deleted " + c.deleted());
    }
  }
}
