package io.omnigraph.engine.table;

/** How {@link TableWriter#stageKeyedWrite} treats ids that already exist at the pinned version. */
public enum KeyedWriteMode {
  /** Any existing id fails with a key conflict naming every existing id; nothing is staged. */
  STRICT_INSERT,
  /** Existing rows with the same id are replaced; duplicate ids in the batch keep the last row. */
  UPSERT
}
