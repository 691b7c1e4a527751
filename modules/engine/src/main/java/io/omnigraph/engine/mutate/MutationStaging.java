package io.omnigraph.engine.mutate;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.table.KeyedWriteMode;
import io.omnigraph.engine.table.LanceFilter;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableFork;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.write.GraphWrite.TableEffect;
import io.omnigraph.engine.write.FirstTouch;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.engine.write.WriteErrors;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The in-memory accumulator of one mutation (read-your-writes within the query: docs/mutations.md,
 * step 2): per touched table, the pending rows that inserts and updates wrote
 * ({@link PendingTable}, an Arrow batch) or the predicates deletes recorded. Nothing here moves a
 * Lance HEAD; {@link #stageAll()} prepares exactly one uncommitted transaction per touched table
 * at the end of the query.
 *
 * <p>The first touch of a table captures its published entry from the {@link GraphSnapshot}
 * cut: that version is the one every read sees and the one the staged transaction is prepared
 * against. Reads ({@link #matchRows}, {@link #matchCommittedIds}) combine
 * committed rows (a Lance scan with the rendered filter) with the pending rows (the same filter
 * evaluated in memory); a pending row shadows the committed row with its id.
 *
 * <p>Not thread-safe: one mutation attempt owns it. Close it to release the pending batches.
 */
public final class MutationStaging implements AutoCloseable {
  private final CompiledSchema schema;
  private final TableStore tables;
  private final GraphSnapshot committed;
  private final java.util.function.Supplier<String> newIds;
  private final Map<String, TableEntry> firstTouch = new LinkedHashMap<>();
  private final Map<String, PendingTable> pending = new LinkedHashMap<>();
  /** Ids the query's inserts wrote (possibly replacing a committed row), per table. */
  private final Map<String, Set<String>> inserted = new HashMap<>();
  /** Ids the query's strict inserts wrote (never allowed to replace a row), per table. */
  private final Map<String, Set<String>> strictInserted = new HashMap<>();
  /** Committed ids the query's updates changed (and that no insert of this query wrote first). */
  private final Map<String, Set<String>> updated = new HashMap<>();
  /** Tables whose pending rows include an upsert or update (staged as UPSERT, not STRICT_INSERT). */
  private final Set<String> upserting = new HashSet<>();
  private final Map<String, List<RowFilter>> deletePredicates = new LinkedHashMap<>();
  private final Map<String, Set<String>> deleted = new LinkedHashMap<>();
  /** Edge table → source node id of every deleted edge → how many of its edges were deleted. */
  private final Map<String, Map<String, Long>> deletedBySource = new HashMap<>();
  /**
   * Per table, the address of every committed row an update's match read (id → row address at the
   * version of {@link #addressesAt}): the upsert that rewrites those rows needs no second scan to
   * find them (docs/mutations.md, "How an update is staged").
   */
  private final Map<String, Map<String, Long>> matchedAddresses = new HashMap<>();
  /** The handle {@link #matchedAddresses} of a table were read from. */
  private final Map<String, TableSnapshot> addressesAt = new HashMap<>();

  /**
   * @param schema the graph's schema
   * @param tables the table gateway
   * @param committed the manifest cut every read of this attempt comes from
   */
  public MutationStaging(CompiledSchema schema, TableStore tables, GraphSnapshot committed) {
    this(schema, tables, committed, io.omnigraph.engine.schema.Ulid::generate);
  }

  /**
   * @param schema the graph's schema
   * @param tables the table gateway
   * @param committed the manifest cut every read of this attempt comes from
   * @param newIds mints the id of every unkeyed node and every edge this attempt inserts (fresh
   *     ULIDs; tests supply chosen ids to exercise the strict-insert conflict rules)
   */
  public MutationStaging(CompiledSchema schema, TableStore tables, GraphSnapshot committed,
      java.util.function.Supplier<String> newIds) {
    this.schema = schema;
    this.tables = tables;
    this.committed = committed;
    this.newIds = java.util.Objects.requireNonNull(newIds, "newIds");
  }

  /** @return a fresh id for a strict insert (an unkeyed node or an edge) */
  String newId() {
    return newIds.get();
  }

  CompiledSchema schema() {
    return schema;
  }

  /** @return the snapshot every read of this attempt comes from */
  GraphSnapshot committed() {
    return committed;
  }

  /** Records the first touch of a table (its published version becomes the write's base). */
  TableEntry touch(String tableKey) {
    return firstTouch.computeIfAbsent(tableKey, committed::entry);
  }

  /** @return the table keys touched so far, in first-touch order */
  public Set<String> touchedTables() {
    return java.util.Collections.unmodifiableSet(firstTouch.keySet());
  }

  /** @return the published version each touched table was read at (the expected versions) */
  public Map<String, Long> expectedVersions() {
    Map<String, Long> out = new LinkedHashMap<>();
    firstTouch.forEach((k, e) -> out.put(k, e.version()));
    return out;
  }

  PendingTable pending(NodeType node) {
    touch(node.tableKey());
    return pending.computeIfAbsent(node.tableKey(), k -> new PendingTable(spec(k), node, null, tables.allocator()));
  }

  PendingTable pending(EdgeType edge) {
    touch(edge.tableKey());
    return pending.computeIfAbsent(edge.tableKey(), k -> new PendingTable(spec(k), null, edge, tables.allocator()));
  }

  /** @return the pending rows of a table, or null when the query wrote none */
  PendingTable pendingOrNull(String tableKey) {
    return pending.get(tableKey);
  }

  Collection<PendingTable> pendingTables() {
    return pending.values();
  }

  private TableSpec spec(String tableKey) {
    return schema.table(tableKey).orElseThrow(() -> new IllegalStateException("no table " + tableKey));
  }

  // ---------------------------------------------------------------- writes

  /**
   * An insert wrote {@code id}; {@code upsert} when it may replace a committed row. A strict insert
   * is never allowed to replace anything: an id this query already wrote is a KeyConflict here, an
   * id committed in the table is one at the latest when the table is staged.
   *
   * @throws io.omnigraph.api.ConflictException a strict insert of an id this query already wrote
   */
  void recordInsert(String tableKey, String id, boolean upsert) {
    if (!inserted.computeIfAbsent(tableKey, k -> new LinkedHashSet<>()).add(id) && !upsert) {
      throw WriteErrors.keyConflict(tableKey, List.of(id), "inserted twice by this mutation");
    }
    if (upsert) {
      upserting.add(tableKey);
    } else {
      strictInserted.computeIfAbsent(tableKey, k -> new LinkedHashSet<>()).add(id);
    }
    Set<String> u = updated.get(tableKey);
    if (u != null) {
      u.remove(id);
    }
  }

  /** An update rewrote {@code id}. */
  void recordUpdate(String tableKey, String id) {
    upserting.add(tableKey);
    if (!inserted.getOrDefault(tableKey, Set.of()).contains(id)) {
      updated.computeIfAbsent(tableKey, k -> new LinkedHashSet<>()).add(id);
    }
  }

  /**
   * Records a delete: its predicate (combined with the table's other predicates into one staged
   * delete) and the ids it matched that no earlier statement deleted.
   *
   * @return the newly deleted ids
   */
  List<String> recordDelete(String tableKey, RowFilter predicate, Map<String, String> matchedIdToSource) {
    touch(tableKey);
    deletePredicates.computeIfAbsent(tableKey, k -> new ArrayList<>()).add(predicate);
    Set<String> done = deleted.computeIfAbsent(tableKey, k -> new LinkedHashSet<>());
    List<String> fresh = new ArrayList<>();
    for (Map.Entry<String, String> e : matchedIdToSource.entrySet()) {
      if (done.add(e.getKey())) {
        fresh.add(e.getKey());
        if (e.getValue() != null) {
          deletedBySource.computeIfAbsent(tableKey, k -> new HashMap<>()).merge(e.getValue(), 1L, Long::sum);
        }
      }
    }
    return fresh;
  }

  /** @return the ids deleted so far from a table */
  Set<String> deletedIds(String tableKey) {
    return deleted.getOrDefault(tableKey, Set.of());
  }

  /** @return source id → number of its edges deleted so far, for an edge table */
  Map<String, Long> deletedEdgesBySource(String tableKey) {
    return deletedBySource.getOrDefault(tableKey, Map.of());
  }

  // ---------------------------------------------------------------- reads with pending

  /** One row read for an update: id and property values in table order. */
  record Row(String id, List<Object> values) {}

  /**
   * The node rows {@code filter} selects: live pending rows first (in write order), then committed
   * rows whose id is not pending. Stops with {@link ResourceLimitException} as soon as the table's
   * pending rows plus the new matches exceed {@link KeyedWrites#MAX_ROWS}: the match set
   * of an update is part of the table's one keyed transaction.
   */
  List<Row> matchRows(NodeType node, RowFilter filter) {
    String key = node.tableKey();
    touch(key);
    PendingTable p = pending.get(key);
    List<Row> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    if (p != null) {
      for (String id : p.matching(filter)) {
        out.add(new Row(id, p.values(id)));
        seen.add(id);
      }
    }
    int alreadyPending = p == null ? 0 : p.size();
    int[] fromCommitted = {0};
    List<Property> props = node.properties();
    Map<String, Long> addresses = matchedAddresses.computeIfAbsent(key, k -> new HashMap<>());
    addressesAt.putIfAbsent(key, committed.table(key));
    java.util.function.Consumer<VectorSchemaRoot> each = batch -> {
      VarCharVector ids = (VarCharVector) batch.getVector("id");
      org.apache.arrow.vector.UInt8Vector addr = (org.apache.arrow.vector.UInt8Vector) batch.getVector("_rowaddr");
      List<FieldVector> cols = props.stream().map(q -> batch.getVector(q.name())).toList();
      for (int i = 0; i < batch.getRowCount(); i++) {
        String id = text(ids, i);
        addresses.put(id, addr.get(i)); // the committed row with this id, shadowed or not
        if ((p != null && p.contains(id)) || !seen.add(id)) {
          continue; // shadowed by its pending version, which was judged above
        }
        // Charged before the row is materialized: pending rows plus committed matches form the
        // table's one keyed transaction.
        long rows = alreadyPending + (long) ++fromCommitted[0];
        if (rows > KeyedWrites.MAX_ROWS) {
          throw limit("keyed write entities for " + key, KeyedWrites.MAX_ROWS, rows, true);
        }
        List<Object> values = new ArrayList<>(props.size());
        for (int c = 0; c < props.size(); c++) {
          values.add(ArrowValues.get(cols.get(c), props.get(c).type(), i));
        }
        out.add(new Row(id, values));
      }
    };
    // Matched by id (a key bound as the id, plan/MutationBinder): only the fragments that may hold it are read.
    if (filter instanceof RowFilter.Compare c && c.op() == io.omnigraph.engine.gq.QueryAst.CompOp.EQ
        && c.column().name().equals("id") && c.value() instanceof String id) {
      committed.scanIdsWithRowAddress(key, List.of(id), filter, each);
    } else {
      committed.scanWithRowAddress(key, null, filter, each);
    }
    return out;
  }

  /**
   * The ids and ({@code withSource}) edge sources {@code filter} selects among committed rows not
   * yet deleted by this query. Destructive queries have no pending rows.
   */
  Map<String, String> matchCommittedIds(String tableKey, RowFilter filter, boolean withSource) {
    touch(tableKey);
    Set<String> gone = deletedIds(tableKey);
    Map<String, String> out = new LinkedHashMap<>();
    List<String> columns = withSource ? List.of("id", "src") : List.of("id");
    committed.scan(tableKey, columns, filter, batch -> {
      VarCharVector ids = (VarCharVector) batch.getVector("id");
      VarCharVector src = withSource ? (VarCharVector) batch.getVector("src") : null;
      for (int i = 0; i < batch.getRowCount(); i++) {
        String id = text(ids, i);
        if (!gone.contains(id)) {
          out.put(id, src == null ? null : text(src, i));
        }
      }
    });
    return out;
  }

  // ---------------------------------------------------------------- end of query

  /**
   * Row counts of one changed table, each id counted once.
   *
   * @param inserted ids an insert wrote
   * @param updated committed ids an update changed (not inserted by this query)
   * @param deleted ids deleted (cascades included)
   */
  public record Counts(long inserted, long updated, long deleted) {}

  /** @return the counts per changed table key, in first-touch order */
  public Map<String, Counts> counts() {
    Map<String, Counts> out = new LinkedHashMap<>();
    for (String key : firstTouch.keySet()) {
      Counts c = new Counts(inserted.getOrDefault(key, Set.of()).size(), updated.getOrDefault(key, Set.of()).size(),
          deleted.getOrDefault(key, Set.of()).size());
      if (c.inserted + c.updated + c.deleted > 0) {
        out.put(key, c);
      }
    }
    return out;
  }

  /**
   * Checks every pending table against the keyed-write limits (rows and Arrow bytes), before any
   * table is staged, so a refusal leaves no staged files behind.
   *
   * @throws ResourceLimitException a table's one transaction would exceed a limit
   */
  void checkLimits() {
    for (PendingTable p : pending.values()) {
      String key = p.spec().tableKey();
      if (p.size() > KeyedWrites.MAX_ROWS) {
        throw limit("keyed write entities for " + key, KeyedWrites.MAX_ROWS, p.size());
      }
      try (VectorSchemaRoot batch = p.compact(tables.allocator())) {
        long bytes = ArrowBatches.memorySize(batch);
        if (bytes > KeyedWrites.MAX_BYTES) {
          throw limit("keyed write bytes for " + key, KeyedWrites.MAX_BYTES, bytes);
        }
      }
    }
  }

  /**
   * Stages exactly one uncommitted transaction per table this query changes: the table's live
   * pending rows as one keyed write (a strict insert when every row came from a strict insert, an
   * upsert otherwise), or its delete predicates combined into one delete. No HEAD moves. Tables
   * the query touched without changing (an update or delete matching nothing) are left out.
   *
   * @return the staged effects, in first-touch order; the caller commits (or abandons) them
   */
  public List<TableEffect> stageAll() {
    checkLimits();
    List<TableEffect> out = new ArrayList<>();
    for (String key : firstTouch.keySet()) {
      TableSpec spec = spec(key);
      TableEntry entry = firstTouch.get(key);
      java.util.Optional<TableFork.Plan> fork = committed.forkPlan(key, tables.writer());
      // A first-touch table on a branch is checked against the parent's ref at the same version (the
      // same rows) and forked and staged only after the sidecar is armed (docs/branches.md, "Lazy
      // table forks"); any other table is staged now.
      TableSnapshot snapshot = fork.isPresent() ? committed.table(key) : committed.tableForWrite(key, tables.writer());
      PendingTable p = pending.get(key);
      if (p != null && p.size() > 0) {
        KeyedWriteMode mode = upserting.contains(key) ? KeyedWriteMode.UPSERT : KeyedWriteMode.STRICT_INSERT;
        if (mode == KeyedWriteMode.UPSERT) {
          requireStrictIdsAbsent(key, snapshot);
        }
        // Rows an update matched were read from this very handle: their addresses stand in for the
        // upsert's id probe (any other id is still probed).
        Map<String, Long> known = mode == KeyedWriteMode.UPSERT && addressesAt.get(key) == snapshot
            ? matchedAddresses.getOrDefault(key, Map.of()) : Map.of();
        try (VectorSchemaRoot batch = p.compact(tables.allocator())) {
          if (fork.isPresent()) {
            KeyedWrites.preflight(tables.reader(), snapshot, key, batch, mode);
            // Staged on the fork after arming: its upsert probes the fork itself (no addresses carried over).
            out.add(new TableEffect(spec, entry, FirstTouch.of(fork.get(), s -> {
              try (VectorSchemaRoot rows = p.compact(tables.allocator())) {
                return KeyedWrites.stage(tables.writer(), s, key, rows, mode);
              }
            })));
          } else {
            out.add(new TableEffect(spec, entry, snapshot,
                KeyedWrites.stage(tables.writer(), snapshot, key, batch, mode, known)));
          }
        }
      }
      List<RowFilter> predicates = deletePredicates.get(key);
      if (predicates != null && !deletedIds(key).isEmpty()) {
        RowFilter all = predicates.size() == 1 ? predicates.get(0) : new RowFilter.Or(predicates);
        if (fork.isPresent()) {
          boolean[] matches = {false};
          tables.reader().scan(snapshot, List.of("id"), LanceFilter.of(all),
              b -> matches[0] |= b.getRowCount() > 0);
          if (!matches[0]) {
            continue; // as stageDelete: no committed row matches, nothing to commit
          }
          // The fork starts at the version just scanned, so its delete matches the same rows.
          out.add(new TableEffect(spec, entry, FirstTouch.of(fork.get(), s -> tables.writer()
              .stageDelete(s, key, LanceFilter.of(all)).orElseThrow(() -> new io.omnigraph.api.InternalErrorException(
                  "the delete on " + key + " matched rows at version " + entry.version() + " of the parent's ref"
                      + " but none on its fork", null)))));
        } else {
          java.util.Optional<StagedWrite> staged = tables.writer().stageDelete(snapshot, key, LanceFilter.of(all));
          staged.ifPresent(s -> out.add(new TableEffect(spec, entry, snapshot, s)));
        }
      }
    }
    return out;
  }

  /**
   * A table staged as an upsert (because an update rewrote some of its rows) may also hold rows
   * that strict inserts wrote; the upsert would silently replace a committed row with such an id,
   * so those ids are probed first (the strict-insert staging of {@link TableStore} probes the
   * others).
   *
   * @throws io.omnigraph.api.ConflictException KeyConflict naming the table and the existing ids
   */
  private void requireStrictIdsAbsent(String key, TableSnapshot snapshot) {
    Set<String> strict = strictInserted.get(key);
    if (strict == null || strict.isEmpty()) {
      return;
    }
    List<String> existing = tables.reader().existingIds(snapshot, strict);
    if (!existing.isEmpty()) {
      throw WriteErrors.keyConflict(key, existing, "already exists");
    }
  }

  static ResourceLimitException limit(String resource, long limit, long actual) {
    return limit(resource, limit, actual, false);
  }

  /** @param lowerBound the count stopped at the first row over the limit (the real total may be higher) */
  static ResourceLimitException limit(String resource, long limit, long actual, boolean lowerBound) {
    return new ResourceLimitException("resource limit exceeded for " + resource + ": actual " + actual
        + (lowerBound ? " or more" : "") + ", limit " + limit
        + "; a mutation writes each table in one transaction: split it into several smaller mutations",
        new ErrorDetail.ResourceLimit(resource, limit, actual));
  }

  private static String text(VarCharVector v, int i) {
    return new String(v.get(i), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (PendingTable p : pending.values()) {
      try {
        p.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    pending.clear();
    if (first != null) {
      throw first;
    }
  }
}
