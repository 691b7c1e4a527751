package io.omnigraph.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One graph commit from the lineage recorded in the graph's manifest.
 *
 * @param id the commit id (a ULID)
 * @param branch the branch the commit was made on ({@code main} for genesis and for a merge into
 *     main); a commit stays on the branch it was made on when other branches inherit it
 * @param parents parent commit ids: none for the genesis commit, one for an ordinary commit, two for a merge
 * @param actor who wrote it, or {@code null} for unauthored/system writes
 * @param message the commit message, or {@code null}
 * @param createdAt when it was written (microsecond precision)
 * @param manifestVersion the manifest version this commit produced
 * @param tableVersions the table versions this commit pins, by table key, sorted
 */
public record CommitInfo(String id, String branch, List<String> parents, String actor, String message, Instant createdAt,
    long manifestVersion, Map<String, Long> tableVersions) {
  public CommitInfo {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(branch, "branch");
    parents = List.copyOf(parents);
    Objects.requireNonNull(createdAt, "createdAt");
    tableVersions = Map.copyOf(tableVersions);
  }
}
