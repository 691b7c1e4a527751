package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Graph#optimize} did (docs/maintenance.md).
 *
 * @param commitId the graph commit publishing the optimized table versions, or {@code null} when no
 *     table needed work (no commit)
 * @param tables one entry per table that was optimized
 * @param manifestFragmentsBefore fragments of {@code __manifest} before its compaction (0 when the run
 *     left {@code __manifest} alone: automatic maintenance compacts it on another write than a table)
 * @param manifestFragmentsAfter fragments of {@code __manifest} after it (0 likewise)
 */
public record OptimizeResult(String commitId, List<TableOptimized> tables, long manifestFragmentsBefore,
    long manifestFragmentsAfter) {
  public OptimizeResult {
    tables = List.copyOf(tables);
  }

  /**
   * One optimized table.
   *
   * @param table the table key
   * @param fromVersion the published Lance version before
   * @param toVersion the published Lance version after
   * @param fragmentsBefore fragments before compaction
   * @param fragmentsAfter fragments after compaction
   * @param indexesFolded indexes that had unindexed fragments folded in
   * @param indexesBuilt indexes the schema calls for that were missing and were built
   */
  public record TableOptimized(String table, long fromVersion, long toVersion, int fragmentsBefore, int fragmentsAfter,
      List<String> indexesFolded, List<String> indexesBuilt) {
    public TableOptimized {
      Objects.requireNonNull(table, "table");
      indexesFolded = List.copyOf(indexesFolded);
      indexesBuilt = List.copyOf(indexesBuilt);
    }
  }
}
