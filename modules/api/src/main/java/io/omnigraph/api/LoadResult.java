package io.omnigraph.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one successful {@link Graph#load} did. One load is one graph commit.
 *
 * @param commitId the id of the graph commit the load published
 * @param mode the load mode
 * @param rowsRead input rows read
 * @param rowsByTable rows written per table key ({@code node:Person}, {@code edge:Knows})
 * @param phaseNanos wall time per phase, in execution order ({@code validate}, {@code stage},
 *     {@code commit}, {@code publish}), for diagnostics; the set of phases may grow
 * @param warnings what went wrong after the load was published without failing it (automatic
 *     maintenance, docs/maintenance.md); usually empty
 */
public record LoadResult(String commitId, LoadMode mode, long rowsRead, Map<String, Long> rowsByTable,
    Map<String, Long> phaseNanos, List<WriteWarning> warnings) {
  public LoadResult {
    Objects.requireNonNull(commitId, "commitId");
    Objects.requireNonNull(mode, "mode");
    rowsByTable = Map.copyOf(rowsByTable);
    phaseNanos = Collections.unmodifiableMap(new LinkedHashMap<>(phaseNanos));
    warnings = List.copyOf(warnings);
  }

  /** A result without warnings. */
  public LoadResult(String commitId, LoadMode mode, long rowsRead, Map<String, Long> rowsByTable,
      Map<String, Long> phaseNanos) {
    this(commitId, mode, rowsRead, rowsByTable, phaseNanos, List.of());
  }

  /** @return this result with {@code more} warnings appended */
  public LoadResult withWarnings(List<WriteWarning> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<WriteWarning> all = new java.util.ArrayList<>(warnings);
    all.addAll(more);
    return new LoadResult(commitId, mode, rowsRead, rowsByTable, phaseNanos, all);
  }
}
