package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.lance.operation.Operation;

/**
 * One prepared, not yet committed Lance transaction on one table: data files may already be
 * written (they are invisible until {@link TableWriter#commitStaged} commits them; if never
 * committed they are reclaimable orphans), the HEAD has not moved.
 *
 * @param tableKey the table key, for diagnostics
 * @param location where the table lives
 * @param readVersion the version the transaction was prepared against and must commit on
 * @param uuid the pre-minted transaction id
 * @param kind what kind of write this is
 * @param rowsWritten rows the transaction inserts or replaces
 * @param ids the ids the transaction writes (keyed writes only; empty otherwise)
 * @param operation the Lance operation to commit
 * @param properties the Lance transaction properties committed with it (for example the
 *     {@link InsertAbsence} certificate); empty for most writes
 */
public record StagedWrite(String tableKey, LanceLocation location, long readVersion, String uuid, Kind kind,
    long rowsWritten, List<String> ids, Operation operation, Map<String, String> properties) {

  /** The staged primitive that produced this write. */
  public enum Kind { STRICT_INSERT, UPSERT, DELETE, OVERWRITE, CREATE_INDICES }

  public StagedWrite {
    Objects.requireNonNull(tableKey);
    Objects.requireNonNull(location);
    Objects.requireNonNull(uuid);
    Objects.requireNonNull(kind);
    ids = List.copyOf(ids);
    Objects.requireNonNull(operation);
    properties = Map.copyOf(properties);
  }

  /** A staged write without transaction properties. */
  public StagedWrite(String tableKey, LanceLocation location, long readVersion, String uuid, Kind kind,
      long rowsWritten, List<String> ids, Operation operation) {
    this(tableKey, location, readVersion, uuid, kind, rowsWritten, ids, operation, Map.of());
  }

  /** @return whether this write carries the insertion-absence certificate */
  public boolean insertAbsenceCertified() {
    return InsertAbsence.isCertified(properties);
  }
}
