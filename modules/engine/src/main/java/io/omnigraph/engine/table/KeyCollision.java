package io.omnigraph.engine.table;

import java.util.List;

/**
 * Internal signal: a strict insert staged by {@link TableWriter#stageKeyedWrite} names ids that
 * appear twice in its batch or already exist at the pinned version; nothing was written. The write
 * protocol ({@code write.KeyedWrites}) turns it into the public key conflict; it must never escape
 * the engine.
 */
public final class KeyCollision extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String tableKey;
  private final List<String> ids;
  private final String reason;

  KeyCollision(String tableKey, List<String> ids, String reason) {
    super(tableKey + ": " + reason + ": " + ids);
    this.tableKey = tableKey;
    this.ids = List.copyOf(ids);
    this.reason = reason;
  }

  /**
   * The id checks of a strict insert of {@code batch} into {@code s}, before anything is written:
   * what {@link TableWriter#stageKeyedWrite} checks, for a caller that stages later (a first-touch
   * table, probed on the parent's ref at the version its fork will start at).
   *
   * @throws KeyCollision an id appears twice in {@code batch} or exists at {@code s}'s version
   */
  public static void probeStrictInsert(TableReader reader, TableSnapshot s, String tableKey,
      org.apache.arrow.vector.VectorSchemaRoot batch) {
    List<String> ids = KeyedBatch.ids(batch);
    List<String> dup = KeyedBatch.duplicates(ids);
    if (!dup.isEmpty()) {
      throw new KeyCollision(tableKey, dup, "appears more than once in the input");
    }
    List<String> existing = reader.existingIds(s, ids);
    if (!existing.isEmpty()) {
      throw new KeyCollision(tableKey, existing, "already exists");
    }
  }

  /** @return the number of distinct ids of {@code batch} (the rows a keyed write of it writes) */
  public static int distinctIds(org.apache.arrow.vector.VectorSchemaRoot batch) {
    return new java.util.HashSet<>(KeyedBatch.ids(batch)).size();
  }

  /** @return the table key ({@code node:T} / {@code edge:T}) */
  public String tableKey() {
    return tableKey;
  }

  /** @return every colliding id, in input order */
  public List<String> ids() {
    return ids;
  }

  /** @return why they collide ("already exists", "appears more than once in the input") */
  public String reason() {
    return reason;
  }
}
