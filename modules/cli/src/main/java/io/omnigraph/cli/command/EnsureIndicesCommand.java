package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.EnsureIndicesResult;
import io.omnigraph.api.Graph;
import io.omnigraph.api.IndexStatus;
import io.omnigraph.cli.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph ensure-indices <uri>}: builds the indexes the schema calls for that the graph lacks. */
@Command(
    name = "ensure-indices",
    mixinStandardHelpOptions = true,
    description = {
      "Build every index the schema calls for that the graph lacks (docs/indexes.md): BTREE on every id and every"
          + " edge src/dst, and per @index/@key property the index its type calls for. One index transaction per"
          + " table, published as one graph commit; existing indexes are never rebuilt, and nothing is committed"
          + " when nothing is missing.",
      "Refused (exit 3) while an interrupted write needs a rollback: run 'omnigraph repair' first."
    })
public final class EnsureIndicesCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    EnsureIndicesResult r;
    try (Graph graph = open(positional)) {
      r = graph.ensureIndices();
    }
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri(positional));
      if (r.commitId() == null) {
        o.putNull("commit_id");
      } else {
        o.put("commit_id", r.commitId());
      }
      o.put("created", r.created());
      ArrayNode arr = o.putArray("indexes");
      for (IndexStatus i : r.indexes()) {
        ObjectNode n = arr.addObject().put("table", i.table()).put("column", i.column()).put("kind", i.kind())
            .put("name", i.name()).put("state", i.state());
        if (i.reason() != null) {
          n.put("reason", i.reason());
        }
      }
      terminal().out().println(Json.write(o));
      return 0;
    }
    for (IndexStatus i : r.indexes()) {
      terminal().out().println(String.format("%-9s %s.%s (%s %s)%s", i.state(), i.table(), i.column(), i.kind(),
          i.name(), i.reason() == null ? "" : ": " + i.reason()));
    }
    terminal().out().println(r.commitId() == null ? "nothing to build: no commit"
        : "built " + r.created() + " index(es) in commit " + r.commitId());
    return 0;
  }
}
