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
