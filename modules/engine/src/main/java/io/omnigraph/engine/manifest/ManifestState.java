package io.omnigraph.engine.manifest;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The visible state of a graph at one manifest version: its tables, branch heads and lineage.
 *
 * @param manifestVersion the {@code __manifest} Lance version this state was read from
 * @param tables published tables by table key, sorted
 * @param graphHeads head commit id by branch ({@code main} for main)
 * @param commits every graph commit visible at this version, in lineage order (oldest first)
 */
public record ManifestState(long manifestVersion, Map<String, TableEntry> tables, Map<String, String> graphHeads,
    List<GraphCommit> commits) {
  public ManifestState {
    tables = Map.copyOf(tables);
    graphHeads = Map.copyOf(graphHeads);
    commits = List.copyOf(commits);
  }

  /** @return the newest commit on main by lineage order (the parent of the next commit) */
  public Optional<GraphCommit> head() {
    return commits.stream().filter(c -> c.branch() == null).max(GraphCommit::lineageOrder);
  }

  /** @return a published table */
  public Optional<TableEntry> table(String tableKey) {
    return Optional.ofNullable(tables.get(tableKey));
  }

  /** @return commits newest first */
  public List<GraphCommit> commitsNewestFirst() {
    Comparator<GraphCommit> lineage = GraphCommit::lineageOrder;
    return commits.stream().sorted(lineage.reversed()).toList();
  }
}
