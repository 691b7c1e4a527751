package io.omnigraph.api;

import java.util.List;

/**
 * What {@link Graph#ensureIndices} did.
 *
 * @param commitId the graph commit publishing the new indexes, or {@code null} when nothing was
 *     missing (no commit)
 * @param indexes every index the schema calls for, per table in schema order
 */
public record EnsureIndicesResult(String commitId, List<IndexStatus> indexes) {
  public EnsureIndicesResult {
    indexes = List.copyOf(indexes);
  }

  /** @return how many indexes this call built */
  public long created() {
    return indexes.stream().filter(i -> i.state().equals("created")).count();
  }
}
