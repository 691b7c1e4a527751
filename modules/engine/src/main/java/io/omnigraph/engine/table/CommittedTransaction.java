package io.omnigraph.engine.table;

import java.util.Objects;

/**
 * The Lance transaction that produced one table version, as recovery needs to see it.
 *
 * @param version the version it produced
 * @param readVersion its parent version
 * @param uuid its transaction id
 * @param restoredVersion for a Restore transaction, the version it restored; {@code -1} otherwise
 */
public record CommittedTransaction(long version, long readVersion, String uuid, long restoredVersion) {
  public CommittedTransaction {
    Objects.requireNonNull(uuid, "uuid");
  }

  /** @return whether this is a Restore of {@code target} */
  public boolean restores(long target) {
    return restoredVersion == target;
  }
}
