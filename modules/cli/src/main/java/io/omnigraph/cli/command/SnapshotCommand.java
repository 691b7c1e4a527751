package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.SnapshotInfo;
import io.omnigraph.cli.Json;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph snapshot [<uri>] [--branch <b>]}: what a branch head pins — its commit, the
 * manifest version, and each table's row count and Lance version, in schema order.
 */
@Command(
    name = "snapshot",
    mixinStandardHelpOptions = true,
    description = {
      "Print what a branch head pins: its commit and manifest version, then one line per table (schema order)"
          + " with its row count and the Lance dataset version the head pins."
    })
public final class SnapshotCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--branch", paramLabel = "<branch>", description = "The branch whose head is shown (default: main).")
  String branch = "main";

  @Override
  public Integer call() {
    SnapshotInfo info;
    TableOrder order;
    try (Graph graph = open(positional)) {
      info = graph.snapshot(branch);
      order = TableOrder.of(graph.schema());
    }
    List<SnapshotInfo.Dataset> tables = info.datasets().stream()
        .sorted(Comparator.comparing(SnapshotInfo.Dataset::tableKey, order)).toList();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("branch", info.branch());
      o.put("commit_id", info.commitId());
      o.put("manifest_version", info.manifestVersion());
      ArrayNode arr = o.putArray("tables");
      for (SnapshotInfo.Dataset d : tables) {
        ObjectNode t = arr.addObject();
        t.put("table_key", d.tableKey());
        t.put("rows", d.entityCount());
        t.put("version", d.version());
        t.put("path", d.path());
        if (d.nativeBranch() != null) {
          t.put("native_branch", d.nativeBranch());
        }
      }
      terminal().out().println(Json.write(o));
      return 0;
    }
    terminal().out().println("branch " + info.branch() + " at commit " + info.commitId() + " (manifest version "
        + info.manifestVersion() + ")");
    int width = tables.stream().mapToInt(d -> d.tableKey().length()).max().orElse(0);
    for (SnapshotInfo.Dataset d : tables) {
      terminal().out().println(String.format(java.util.Locale.ROOT, "  %-" + width + "s  %,d %s  version %d%s",
          d.tableKey(), d.entityCount(), d.entityCount() == 1 ? "row" : "rows", d.version(),
          d.nativeBranch() == null ? "" : " (native branch " + d.nativeBranch() + ")"));
    }
    return 0;
  }
}
