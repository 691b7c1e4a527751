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
 * @param graphHeads head commit id by branch name
 * @param commits every graph commit visible at this version, in lineage order (oldest first)
 * @param schemaIrHash the identity hash of the schema accepted at this version, as the last schema
 *     apply recorded it ({@code graph_schema} row; docs/schema-migration.md, "The schema of a cut"), or
 *     {@code null} when no schema apply ever ran: the schema accepted at init
 */
public record ManifestState(long manifestVersion, Map<String, TableEntry> tables, Map<String, String> graphHeads,
    List<GraphCommit> commits, String schemaIrHash) {
  public ManifestState {
    tables = Map.copyOf(tables);
    graphHeads = Map.copyOf(graphHeads);
    commits = List.copyOf(commits);
  }

  /** A state whose schema is the one accepted at init ({@link #schemaIrHash()} is {@code null}). */
  public ManifestState(long manifestVersion, Map<String, TableEntry> tables, Map<String, String> graphHeads,
      List<GraphCommit> commits) {
    this(manifestVersion, tables, graphHeads, commits, null);
  }

  /**
   * The effective head of {@code branch} when this state is read from that branch's manifest: the
   * newest commit on the branch by lineage order, or, for a branch without commits of its own yet
   * (a fresh branch inherits its parent's rows), the newest commit it inherited — the commit it was
   * created from (docs/branches.md, "Data model").
   *
   * @param branch a graph branch
   * @return the parent of the branch's next commit (empty: no commit at all)
   */
  public Optional<GraphCommit> head(String branch) {
    String column = GraphBranch.toColumn(branch);
    Optional<GraphCommit> own = commits.stream().filter(c -> java.util.Objects.equals(c.branch(), column))
        .max(GraphCommit::lineageOrder);
    return own.isPresent() ? own : commits.stream().max(GraphCommit::lineageOrder);
  }

  /**
   * @param branch a graph branch
   * @return the commit id its {@code graph_head} row names (empty: the branch has no head row)
   */
  public Optional<String> headCommitId(String branch) {
    return Optional.ofNullable(graphHeads.get(branch));
  }

  /**
   * @return whether a later commit of {@code c}'s branch shares its manifest version: {@code c} is
   *     an earlier member of a group commit (docs/concurrency.md, "Group commit"), so this version's
   *     tables are not the ones it pins
   */
  public boolean supersededAtItsVersion(GraphCommit c) {
    return commits.stream().anyMatch(d -> d.manifestVersion() == c.manifestVersion()
        && java.util.Objects.equals(d.branch(), c.branch()) && GraphCommit.lineageOrder(d, c) > 0);
  }

  /** @return the commit with this id, when it is visible at this version */
  public Optional<GraphCommit> commit(String commitId) {
    return commits.stream().filter(c -> c.commitId().equals(commitId)).findFirst();
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
