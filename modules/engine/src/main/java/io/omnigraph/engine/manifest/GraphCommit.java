package io.omnigraph.engine.manifest;

import java.util.Map;
import java.util.Objects;

/**
 * One graph commit as recorded in a {@code graph_commit} manifest row.
 *
 * @param commitId the commit id (ULID)
 * @param branch the graph branch ({@code null} = main)
 * @param manifestVersion the manifest version this commit produced
 * @param parentCommitId the parent, or {@code null} for genesis
 * @param mergedParentCommitId the second parent of a merge, or {@code null}
 * @param actorId who wrote it, or {@code null}
 * @param message the commit message, or {@code null}
 * @param createdAtMicros microseconds since the Unix epoch
 * @param tableVersions the table versions the commit pins, by table key
 */
public record GraphCommit(String commitId, String branch, long manifestVersion, String parentCommitId,
    String mergedParentCommitId, String actorId, String message, long createdAtMicros,
    Map<String, Long> tableVersions) {
  public GraphCommit {
    Objects.requireNonNull(commitId, "commitId");
    tableVersions = Map.copyOf(tableVersions);
  }

  /** @return this commit as the API reports it (parents: the parent, then a merge's second parent) */
  public io.omnigraph.api.CommitInfo toInfo() {
    java.util.List<String> parents = new java.util.ArrayList<>();
    if (parentCommitId != null) {
      parents.add(parentCommitId);
    }
    if (mergedParentCommitId != null) {
      parents.add(mergedParentCommitId);
    }
    return new io.omnigraph.api.CommitInfo(commitId, branch == null ? "main" : branch, parents, actorId, message,
        java.time.Instant.EPOCH.plus(createdAtMicros, java.time.temporal.ChronoUnit.MICROS), manifestVersion,
        tableVersions);
  }

  /** Lineage order: (manifest version, created at, commit id). The maximum is a branch's head. */
  static int lineageOrder(GraphCommit a, GraphCommit b) {
    int c = Long.compare(a.manifestVersion, b.manifestVersion);
    if (c != 0) {
      return c;
    }
    c = Long.compare(a.createdAtMicros, b.createdAtMicros);
    return c != 0 ? c : a.commitId.compareTo(b.commitId);
  }
}
