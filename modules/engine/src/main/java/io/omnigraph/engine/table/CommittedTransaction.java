package io.omnigraph.engine.table;

import java.util.Objects;

/**
 * The Lance transaction that produced one table version, as recovery needs to see it.
 *
 * @param version the version it produced
 * @param readVersion its parent version
 * @param uuid its transaction id
 * @param restoredVersion for a Restore transaction, the version it restored; {@code -1} otherwise
 * @param operation the Lance operation's name ({@code Append}, {@code Update}, {@code Rewrite},
 *     {@code CreateIndex}, ...)
 */
public record CommittedTransaction(long version, long readVersion, String uuid, long restoredVersion, String operation) {
  /** The Lance operations that never change a table's rows: compaction, index builds, fragment id reservation. */
  public static final java.util.Set<String> CONTENT_PRESERVING = java.util.Set.of("Rewrite", "CreateIndex",
      "ReserveFragments");

  public CommittedTransaction {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(operation, "operation");
  }

  /** A transaction whose operation name is not needed. */
  public CommittedTransaction(long version, long readVersion, String uuid, long restoredVersion) {
    this(version, readVersion, uuid, restoredVersion, "");
  }

  /** @return whether the operation leaves the table's rows as they were (compaction, index builds) */
  public boolean preservesContent() {
    return CONTENT_PRESERVING.contains(operation);
  }

  /** @return whether this is a Restore of {@code target} */
  public boolean restores(long target) {
    return restoredVersion == target;
  }
}
