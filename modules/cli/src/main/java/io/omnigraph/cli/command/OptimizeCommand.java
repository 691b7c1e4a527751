package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.OptimizeResult;
import io.omnigraph.cli.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph optimize <uri>}: compaction, index folds and missing index builds as one commit. */
@Command(
    name = "optimize",
    mixinStandardHelpOptions = true,
    description = {
      "Compact every table with more than one fragment, fold newly appended fragments into existing indexes, build"
          + " missing indexes (docs/maintenance.md), and publish it as one graph commit; then compact __manifest."
          + " Rows never change; older commits stay readable until 'omnigraph cleanup'.",
      "Refused (exit 3) while an interrupted write is pending: run 'omnigraph repair' first."
    })
public final class OptimizeCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    OptimizeResult r;
    try (Graph graph = open(positional)) {
      r = graph.optimize();
    }
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri(positional));
      if (r.commitId() == null) {
        o.putNull("commit_id");
      } else {
        o.put("commit_id", r.commitId());
      }
      ArrayNode arr = o.putArray("tables");
      for (OptimizeResult.TableOptimized t : r.tables()) {
        ObjectNode n = arr.addObject().put("table", t.table()).put("from_version", t.fromVersion())
            .put("to_version", t.toVersion()).put("fragments_before", t.fragmentsBefore())
            .put("fragments_after", t.fragmentsAfter());
        t.indexesFolded().forEach(n.putArray("indexes_folded")::add);
        t.indexesBuilt().forEach(n.putArray("indexes_built")::add);
      }
      o.putObject("manifest").put("fragments_before", r.manifestFragmentsBefore())
          .put("fragments_after", r.manifestFragmentsAfter());
      terminal().out().println(Json.write(o));
      return 0;
    }
    for (OptimizeResult.TableOptimized t : r.tables()) {
      terminal().out().println(t.table() + ": version " + t.fromVersion() + " -> " + t.toVersion() + ", fragments "
          + t.fragmentsBefore() + " -> " + t.fragmentsAfter() + ", indexes folded " + t.indexesFolded() + ", built "
          + t.indexesBuilt());
    }
    terminal().out().println("__manifest: fragments " + r.manifestFragmentsBefore() + " -> " + r.manifestFragmentsAfter());
    terminal().out().println(r.commitId() == null ? "no table needed work: no commit" : "optimized in commit " + r.commitId());
    return 0;
  }
}
