package io.omnigraph.api;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one successful {@link Graph#mutate} did. One mutation is at most one graph commit: none
 * when its statements matched nothing.
 *
 * @param queryName the query that ran
 * @param commitId the graph commit the mutation published, or {@code null} when nothing changed
 * @param affectedNodes node rows inserted, updated or deleted (each row counted once)
 * @param affectedEdges edge rows inserted or deleted (cascaded edge deletes included)
 * @param tables per touched table key ({@code node:Person}, {@code edge:Knows}), sorted
 * @param warnings what went wrong after the mutation was published without failing it (automatic
 *     maintenance, docs/maintenance.md); usually empty
 */
public record MutationResult(String queryName, String commitId, long affectedNodes, long affectedEdges,
    Map<String, TableChanges> tables, List<WriteWarning> warnings) {
  public MutationResult {
    Objects.requireNonNull(queryName, "queryName");
    tables = Map.copyOf(new TreeMap<>(tables));
    warnings = List.copyOf(warnings);
  }

  /** A result without warnings. */
  public MutationResult(String queryName, String commitId, long affectedNodes, long affectedEdges,
      Map<String, TableChanges> tables) {
    this(queryName, commitId, affectedNodes, affectedEdges, tables, List.of());
  }

  /** @return this result with {@code more} warnings appended */
  public MutationResult withWarnings(List<WriteWarning> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<WriteWarning> all = new java.util.ArrayList<>(warnings);
    all.addAll(more);
    return new MutationResult(queryName, commitId, affectedNodes, affectedEdges, tables, all);
  }

  /** @return the published commit, empty when the mutation changed nothing */
  public Optional<String> commit() {
    return Optional.ofNullable(commitId);
  }

  /**
   * Row counts of one table; each row is counted once, under what the query did to it first.
   *
   * @param inserted rows this query created or replaced with an {@code insert} (a keyed insert of
   *     an existing key replaces the row and is counted here)
   * @param updated existing rows an {@code update} changed
   * @param deleted rows a {@code delete} removed, including edges removed by a node delete's cascade
   */
  public record TableChanges(long inserted, long updated, long deleted) {
    /** @return inserted + updated + deleted */
    public long total() {
      return inserted + updated + deleted;
    }
  }
}
