package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.table.KeyCollision;
import io.omnigraph.engine.table.KeyedWriteMode;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableWriter;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The keyed-write policy (strict inserts and upserts, one table transaction each) and the one way
 * the engine stages such a write: the size limits are checked before any I/O, then the write gateway
 * stages it, and a strict insert's colliding ids become the public key conflict.
 */
public final class KeyedWrites {
  /** Inclusive row limit of one keyed (strict-insert or upsert) table transaction. */
  public static final int MAX_ROWS = 8192;
  /** Inclusive Arrow-memory limit of one keyed table transaction. */
  public static final long MAX_BYTES = 32L * 1024 * 1024;

  private KeyedWrites() {}

  /**
   * Stages a keyed write of {@code batch} through {@link TableWriter#stageKeyedWrite}, after
   * checking the policy's limits.
   *
   * @throws ResourceLimitException more than {@link #MAX_ROWS} rows or {@link #MAX_BYTES} bytes;
   *     checked before any I/O
   * @throws ConflictException strict insert of an existing or duplicated id
   */
  public static StagedWrite stage(TableWriter gateway, TableSnapshot s, String tableKey, VectorSchemaRoot batch,
      KeyedWriteMode mode) {
    return stage(gateway, s, tableKey, batch, mode, Map.of());
  }

  /**
   * {@link #stage}, for an upsert some of whose rows replace committed rows the caller has read
   * from {@code s} (an update's match): {@code known} maps such an id to its row address at
   * {@code s}'s version, and only the other ids are probed.
   */
  public static StagedWrite stage(TableWriter gateway, TableSnapshot s, String tableKey, VectorSchemaRoot batch,
      KeyedWriteMode mode, Map<String, Long> known) {
    checkLimits(tableKey, batch);
    try {
      return gateway.stageKeyedWrite(s, tableKey, batch, mode, known);
    } catch (KeyCollision c) {
      throw WriteErrors.keyConflict(c.tableKey(), c.ids(), c.reason());
    }
  }

  /**
   * The checks {@link #stage} makes before writing anything, for a first-touch table whose staging
   * is deferred until its fork exists ({@link FirstTouch}): the limits and, for a strict insert,
   * the id probe against {@code s} — the parent's ref at the version the fork starts at, which holds
   * the same rows — so a key conflict is reported before the sidecar is armed.
   *
   * @throws ResourceLimitException over a limit
   * @throws ConflictException strict insert of an existing or duplicated id
   */
  public static void preflight(TableReader reader, TableSnapshot s, String tableKey, VectorSchemaRoot batch,
      KeyedWriteMode mode) {
    checkLimits(tableKey, batch);
    if (mode != KeyedWriteMode.STRICT_INSERT) {
      return;
    }
    try {
      KeyCollision.probeStrictInsert(reader, s, tableKey, batch);
    } catch (KeyCollision c) {
      throw WriteErrors.keyConflict(c.tableKey(), c.ids(), c.reason());
    }
  }

  /** @throws ResourceLimitException when {@code batch} exceeds the keyed-write limits for {@code tableKey} */
  public static void checkLimits(String tableKey, VectorSchemaRoot batch) {
    if (batch.getRowCount() > MAX_ROWS) {
      throw WriteErrors.resourceLimit("keyed write entities for " + tableKey, MAX_ROWS, batch.getRowCount());
    }
    long bytes = ArrowBatches.memorySize(batch);
    if (bytes > MAX_BYTES) {
      throw WriteErrors.resourceLimit("keyed write bytes for " + tableKey, MAX_BYTES, bytes);
    }
  }
}
