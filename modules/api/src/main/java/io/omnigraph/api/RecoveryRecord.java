package io.omnigraph.api;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One row of a graph's recovery audit ({@code _graph_commit_recoveries.lance}): one recovery of
 * one interrupted write. Returned by {@link Graph#recoveries()}.
 *
 * @param graphCommitId the commit recovery published (the interrupted write's own commit for a
 *     roll-forward, its pre-minted rollback commit for a rollback)
 * @param kind {@code RolledForward} or {@code RolledBack}
 * @param forActor the interrupted write's actor, or {@code null}
 * @param operationId the interrupted write's operation id (its sidecar's name)
 * @param writerKind {@code Load} or {@code Mutation}
 * @param tables per table: the version before recovery and the version recovery left it at
 * @param createdAt when recovery recorded it
 */
public record RecoveryRecord(String graphCommitId, String kind, String forActor, String operationId,
    String writerKind, List<TableOutcome> tables, Instant createdAt) {
  public RecoveryRecord {
    Objects.requireNonNull(graphCommitId, "graphCommitId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(operationId, "operationId");
    tables = List.copyOf(tables);
    Objects.requireNonNull(createdAt, "createdAt");
  }

  /**
   * One table's outcome.
   *
   * @param tableKey {@code node:T} or {@code edge:T}
   * @param fromVersion the Lance version before recovery (for a rollback: the drifted HEAD)
   * @param toVersion the version recovery published (roll-forward) or whose content it restored (rollback)
   */
  public record TableOutcome(String tableKey, long fromVersion, long toVersion) {}
}
