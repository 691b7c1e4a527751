package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.lance.FragmentMetadata;
import org.lance.operation.Append;
import org.lance.operation.Delete;
import org.lance.operation.Operation;
import org.lance.operation.Overwrite;
import org.lance.operation.Update;

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

  /**
   * The table's row count after this write commits on {@code s} (its read version), whose published
   * count is {@code published}, from the operation's fragment metadata (no data is read; for an
   * operation that removes or updates fragments, their metadata at {@code s}). A prediction: the
   * count a commit reports is the truth (docs/write-protocol.md, "7. Publish").
   *
   * @return the count, or empty for an operation it is not predicted for (an index build)
   */
  public java.util.OptionalLong rowsAfter(long published, TableSnapshot s) {
    Operation op = operation;
    if (op instanceof Overwrite o) {
      return java.util.OptionalLong.of(rows(o.fragments()));
    }
    if (op instanceof Append a) {
      return java.util.OptionalLong.of(published + rows(a.fragments()));
    }
    List<Long> removed;
    List<FragmentMetadata> updated;
    long added;
    if (op instanceof Update u) {
      removed = u.removedFragmentIds();
      updated = u.updatedFragments();
      added = rows(u.newFragments());
    } else if (op instanceof Delete d) {
      removed = d.deletedFragmentIds();
      updated = d.updatedFragments();
      added = 0;
    } else {
      return java.util.OptionalLong.empty();
    }
    if (removed.isEmpty() && updated.isEmpty()) {
      return java.util.OptionalLong.of(published + added);
    }
    java.util.Map<Long, Long> before = new java.util.HashMap<>();
    try {
      for (org.lance.Fragment f : s.dataset().getFragments()) {
        before.put((long) f.getId(), f.metadata().getNumRows());
      }
    } catch (RuntimeException e) {
      // No prediction: the count the commit reports is used, as without one (the write is unaffected;
      // reading the same metadata again at the commit reports any real failure).
      return java.util.OptionalLong.empty();
    }
    long out = published + added;
    for (Long id : removed) {
      Long n = before.get(id);
      if (n == null) {
        return java.util.OptionalLong.empty();
      }
      out -= n;
    }
    for (FragmentMetadata f : updated) {
      Long n = before.get((long) f.getId());
      if (n == null) {
        return java.util.OptionalLong.empty();
      }
      out -= n - f.getNumRows();
    }
    return java.util.OptionalLong.of(out);
  }

  private static long rows(List<FragmentMetadata> fragments) {
    long n = 0;
    for (FragmentMetadata f : fragments) {
      n += f.getNumRows();
    }
    return n;
  }
}
