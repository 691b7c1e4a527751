package io.omnigraph.engine.table;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.Transaction;
import org.lance.WriteParams;
import org.lance.ipc.ColumnOrdering;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.merge.MergeInsertParams;
import org.lance.merge.MergeInsertResult;
import org.lance.operation.Append;
import org.lance.operation.Delete;
import org.lance.operation.Operation;
import org.lance.operation.Overwrite;
import org.lance.operation.Update;

/**
 * The only gateway for Lance writes in the engine ({@code TableStoreGuardTest} fails the build when
 * any other class calls a Lance write API). Writes are staged first and committed separately:
 * {@code stage*} methods may write invisible data files but never move a dataset's HEAD;
 * {@link #commitStaged} commits exactly one staged transaction at its read version with zero
 * transparent retries. The manifest's compare-and-set publish is {@link #mergeRowsOnKey}.
 *
 * <p>Every Lance failure leaves this class as an {@link OmnigraphException} (or the internal
 * {@link RetryableCommitConflict} signal), classified by {@link LanceErrors}.
 *
 * <p>Thread-safe: Lance datasets are opened per call; the allocator is thread-safe.
 */
public final class TableStore implements AutoCloseable {
  /** Inclusive row limit of one keyed (strict-insert or upsert) table transaction. */
  public static final int KEYED_WRITE_MAX_ROWS = 8192;
  /** Inclusive Arrow-memory limit of one keyed table transaction. */
  public static final long KEYED_WRITE_MAX_BYTES = 32L * 1024 * 1024;

  // One probe scan per keyed write: a write has at most KEYED_WRITE_MAX_ROWS ids, and each scan reads the table.
  private static final int ID_PROBE_CHUNK = KEYED_WRITE_MAX_ROWS;
  private static final String ID = "id";

  private final BufferAllocator allocator;
  /**
   * One Lance session for every dataset this store opens: its metadata and index caches (manifests,
   * file footers, index pages, all immutable objects) then survive from one open to the next, so
   * re-reading a table or {@code __manifest} at a newer version does not fetch again what an
   * earlier version already read.
   */
  private final org.lance.Session session;

  /** Prepares Lance's native runtime ({@link LanceRuntime#prepare()}) and opens an allocator. */
  public TableStore() {
    LanceRuntime.prepare();
    this.allocator = new RootAllocator();
    this.session = org.lance.Session.create();
  }

  /** @return the allocator every batch handed to this store should come from */
  public BufferAllocator allocator() {
    return allocator;
  }

  // ---------------------------------------------------------------- reads

  /**
   * Opens the latest version of a dataset.
   *
   * @throws NotFoundException when there is no dataset at {@code location}
   */
  public TableSnapshot openLatest(LanceLocation location) {
    return lance(location.uri(), () -> new TableSnapshot(location, Dataset.open(allocator, location.uri(),
        new ReadOptions.Builder().setStorageOptions(location.storageOptions()).setSession(session).build())));
  }

  /** @return the latest version, or empty when there is no dataset at {@code location} */
  public Optional<TableSnapshot> openLatestIfExists(LanceLocation location) {
    try {
      return Optional.of(openLatest(location));
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  /**
   * Opens a dataset pinned at {@code version}.
   *
   * @throws NotFoundException when the dataset or the version does not exist
   */
  public TableSnapshot openAt(LanceLocation location, long version) {
    return lance(location.uri(), () -> new TableSnapshot(location, Dataset.open(allocator, location.uri(),
        new ReadOptions.Builder().setVersion(version).setStorageOptions(location.storageOptions()).setSession(session)
            .build())));
  }

  /** @return the latest committed version of the snapshot's dataset (its live HEAD) */
  public long latestVersion(TableSnapshot s) {
    return lance(s.location().uri(), () -> s.dataset().latestVersion());
  }

  /** @return the number of visible rows at the pinned version */
  public long countRows(TableSnapshot s) {
    return lance(s.location().uri(), () -> s.dataset().countRows());
  }

  /** @return the Arrow schema of the pinned version (with field and schema metadata) */
  public Schema schema(TableSnapshot s) {
    return lance(s.location().uri(), () -> s.dataset().getSchema());
  }

  /**
   * Scans the pinned version. Each batch is only valid during the callback.
   *
   * @param columns the columns to read, or {@code null} for all
   * @param filter a SQL filter, or {@code null}
   */
  public void scan(TableSnapshot s, List<String> columns, String filter, Consumer<VectorSchemaRoot> batches) {
    ScanOptions.Builder b = new ScanOptions.Builder();
    if (columns != null) {
      b.columns(columns);
    }
    if (filter != null) {
      b.filter(filter);
    }
    scanWith(s, b.build(), batches);
  }

  /**
   * Scans the pinned version in ascending {@code id} order (UTF-8 byte order), for deterministic
   * export. Each batch is only valid during the callback.
   */
  public void scanSortedById(TableSnapshot s, Consumer<VectorSchemaRoot> batches) {
    ColumnOrdering.Builder byId = new ColumnOrdering.Builder();
    byId.setColumnName(ID);
    byId.setAscending(true);
    byId.setNullFirst(false);
    scanWith(s, new ScanOptions.Builder().setColumnOrderings(List.of(byId.build())).build(), batches);
  }

  private void scanWith(TableSnapshot s, ScanOptions options, Consumer<VectorSchemaRoot> batches) {
    lance(s.location().uri(), () -> {
      try (LanceScanner scanner = s.dataset().newScan(options); ArrowReader r = scanner.scanBatches()) {
        while (r.loadNextBatch()) {
          batches.accept(r.getVectorSchemaRoot());
        }
      } catch (OmnigraphException | RetryableCommitConflict e) {
        throw e;
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new LanceCallFailure(e);
      }
      return null;
    });
  }

  /**
   * @return the subset of {@code ids} present at the pinned version (in {@code ids} order)
   */
  public List<String> existingIds(TableSnapshot s, Collection<String> ids) {
    Set<String> found = new LinkedHashSet<>();
    for (List<String> chunk : chunks(ids)) {
      scan(s, List.of(ID), idFilter(chunk), root -> {
        VarCharVector v = (VarCharVector) root.getVector(ID);
        for (int i = 0; i < root.getRowCount(); i++) {
          found.add(new String(v.get(i), java.nio.charset.StandardCharsets.UTF_8));
        }
      });
    }
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      if (found.contains(id)) {
        out.add(id);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- creates

  /**
   * Creates a dataset as a strict read-version-0 Overwrite commit (stable row ids, v2 manifest
   * paths, no auto-cleanup) holding {@code rows} (possibly none). A concurrent or earlier creator
   * wins; this call then fails and never replaces it.
   *
   * @return the created version (1)
   * @throws ConflictException when a dataset already exists at {@code location}
   */
  public long createTable(LanceLocation location, String tableKey, Schema schema, List<VectorSchemaRoot> rows) {
    return lance(location.uri(), () -> {
      // WriteMode.CREATE is Lance's create-if-absent: an existing dataset fails the call.
      ArrowReader reader = ArrowBatches.reader(schema, rows, allocator);
      try (Dataset ds = Dataset.write().allocator(allocator).reader(reader).uri(location.uri()).schema(schema)
          .mode(WriteParams.WriteMode.CREATE).enableStableRowIds(true).storageOptions(location.storageOptions())
          .execute()) {
        return ds.version();
      } catch (RuntimeException e) {
        if (LanceErrors.classify(e) == LanceErrors.Failure.ALREADY_EXISTS) {
          throw new ConflictException("table " + tableKey + " already exists at " + location.uri(), null, e);
        }
        throw e;
      } finally {
        closeQuietly(reader);
      }
    });
  }

  private static void closeQuietly(ArrowReader reader) {
    try {
      reader.close();
    } catch (java.io.IOException e) {
      // The reader only references caller-owned roots; closing it releases nothing external.
      throw new java.io.UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- staged primitives

  /**
   * Stages a keyed write of {@code batch} (which must have a non-null Utf8 {@code id} column)
   * against the pinned version. Nothing becomes visible until {@link #commitStaged}.
   *
   * <p>{@link KeyedWriteMode#STRICT_INSERT}: probes every id at the pinned version; duplicate ids
   * in the batch or existing ids fail with a {@link ConflictException} whose
   * {@link ErrorDetail.KeyConflict} lists them all. {@link KeyedWriteMode#UPSERT}: keeps the last
   * row per id and stages one Update that deletes the existing rows and adds the new ones.
   *
   * @throws ResourceLimitException more than {@link #KEYED_WRITE_MAX_ROWS} rows or
   *     {@link #KEYED_WRITE_MAX_BYTES} bytes; checked before any I/O
   * @throws ConflictException strict insert of an existing or duplicated id
   */
  public StagedWrite stageKeyedWrite(TableSnapshot s, String tableKey, VectorSchemaRoot batch, KeyedWriteMode mode) {
    checkKeyedLimits(tableKey, batch);
    List<String> ids = ids(batch);
    if (mode == KeyedWriteMode.STRICT_INSERT) {
      List<String> dup = duplicates(ids);
      if (!dup.isEmpty()) {
        throw keyConflict(tableKey, dup, "appears more than once in the input");
      }
      List<String> existing = existingIds(s, ids);
      if (!existing.isEmpty()) {
        throw keyConflict(tableKey, existing, "already exists");
      }
      List<FragmentMetadata> frags = lance(s.location().uri(), () -> writeFragments(s.location(), List.of(batch)));
      String uuid = UUID.randomUUID().toString();
      if (frags.isEmpty()) {
        // Nothing inserted: no key to prove absent, so no certificate.
        return new StagedWrite(tableKey, s.location(), s.version(), uuid, StagedWrite.Kind.STRICT_INSERT, 0, ids,
            Append.builder().fragments(frags).build());
      }
      Operation op = lance(s.location().uri(), () -> InsertAbsence.insertionOnlyUpdate(s.dataset().getLanceSchema(), frags));
      InsertAbsence.Certification cert = lance(s.location().uri(), () -> InsertAbsence.certify(
          s.dataset().getLanceSchema(), s.version(), s.version(), uuid, op, ids.size()));
      if (!cert.certified()) {
        // Strict insert fails closed: its absence proof and insertion-only shape are requested semantics.
        throw new InternalErrorException("strict insert into " + tableKey + " staged an unfamiliar transaction shape ("
            + cert.refusal() + "); nothing was committed", null);
      }
      return new StagedWrite(tableKey, s.location(), s.version(), uuid, StagedWrite.Kind.STRICT_INSERT, ids.size(),
          ids, op, cert.properties());
    }
    // Upsert: last row per id wins.
    Map<String, Integer> lastRow = new LinkedHashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      lastRow.remove(ids.get(i));
      lastRow.put(ids.get(i), i);
    }
    VectorSchemaRoot deduped = lastRow.size() == ids.size() ? null
        : ArrowBatches.select(batch, new ArrayList<>(lastRow.values()), allocator);
    try {
      VectorSchemaRoot rows = deduped == null ? batch : deduped;
      List<String> uniqueIds = new ArrayList<>(lastRow.keySet());
      Map<Integer, List<Integer>> toDelete = rowAddresses(s, idFilterChunks(uniqueIds));
      String uuid = UUID.randomUUID().toString();
      Operation op = lance(s.location().uri(), () -> {
        List<FragmentMetadata> added = writeFragments(s.location(), List.of(rows));
        if (toDelete.isEmpty()) {
          return added.isEmpty() ? Append.builder().fragments(added).build()
              : InsertAbsence.insertionOnlyUpdate(s.dataset().getLanceSchema(), added);
        }
        DeletionPlan plan = planDeletion(s, toDelete);
        return Update.builder().removedFragmentIds(plan.removed).updatedFragments(plan.updated)
            .newFragments(added).updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
      });
      // An all-new upsert (the id probe above found none of its ids: every row is inserted, none
      // updated or deleted) may carry the certificate; an unfamiliar shape just goes without it.
      // A mixed upsert never does.
      Map<String, String> properties = Map.of();
      if (toDelete.isEmpty()) {
        InsertAbsence.Certification cert = lance(s.location().uri(), () -> InsertAbsence.certify(
            s.dataset().getLanceSchema(), s.version(), s.version(), uuid, op, uniqueIds.size()));
        properties = cert.properties();
      }
      return new StagedWrite(tableKey, s.location(), s.version(), uuid, StagedWrite.Kind.UPSERT, uniqueIds.size(),
          uniqueIds, op, properties);
    } finally {
      if (deduped != null) {
        deduped.close();
      }
    }
  }

  /**
   * Stages deletion of the rows matching {@code filter} at the pinned version.
   *
   * @return the staged delete, or empty when no row matches (nothing to commit)
   */
  public Optional<StagedWrite> stageDelete(TableSnapshot s, String tableKey, String filter) {
    Map<Integer, List<Integer>> rows = rowAddresses(s, List.of(filter));
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    long count = rows.values().stream().mapToLong(List::size).sum();
    Operation op = lance(s.location().uri(), () -> {
      DeletionPlan plan = planDeletion(s, rows);
      return Delete.builder().updatedFragments(plan.updated).deletedFragmentIds(plan.removed).predicate(filter).build();
    });
    return Optional.of(new StagedWrite(tableKey, s.location(), s.version(), UUID.randomUUID().toString(),
        StagedWrite.Kind.DELETE, count, List.of(), op));
  }

  /**
   * Stages replacing the whole table with {@code batches} (no size limit). Zero rows stage a valid
   * zero-fragment Overwrite, not a truncate.
   */
  public StagedWrite stageOverwrite(TableSnapshot s, String tableKey, Schema schema, List<VectorSchemaRoot> batches) {
    long rows = batches.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
    List<FragmentMetadata> frags = lance(s.location().uri(), () -> writeFragments(s.location(), batches));
    return new StagedWrite(tableKey, s.location(), s.version(), UUID.randomUUID().toString(),
        StagedWrite.Kind.OVERWRITE, rows, List.of(), Overwrite.builder().fragments(frags).schema(schema).build());
  }

  /**
   * Begins an overwrite that is assembled batch by batch: each {@link OverwriteStaging#write} writes
   * its batch as uncommitted fragments at once (so the caller needs to hold only one batch), and
   * {@link OverwriteStaging#finish} stages the single Overwrite transaction over all of them. As with
   * {@link #stageOverwrite}, nothing is visible until {@link #commitStaged}; fragments of an overwrite
   * that is never finished or committed are unreferenced files, reclaimable by cleanup.
   *
   * @param s the pinned snapshot the overwrite will commit on
   * @param tableKey the table key, for diagnostics
   * @param schema the table's Arrow schema (every batch must have it)
   * @return the staging handle
   */
  public OverwriteStaging beginOverwrite(TableSnapshot s, String tableKey, Schema schema) {
    return new OverwriteStaging(s, tableKey, schema);
  }

  /** An overwrite whose fragments are written as batches arrive; see {@link #beginOverwrite}. */
  public final class OverwriteStaging {
    private final TableSnapshot snapshot;
    private final String tableKey;
    private final Schema schema;
    private final List<FragmentMetadata> fragments = new ArrayList<>();
    private long rows;
    private boolean finished;

    private OverwriteStaging(TableSnapshot snapshot, String tableKey, Schema schema) {
      this.snapshot = snapshot;
      this.tableKey = tableKey;
      this.schema = schema;
    }

    /**
     * Writes one batch as uncommitted fragments; the batch stays owned by the caller.
     *
     * @param batch rows with the table's schema
     */
    public void write(VectorSchemaRoot batch) {
      if (finished) {
        throw new IllegalStateException("overwrite of " + tableKey + " already staged");
      }
      fragments.addAll(lance(snapshot.location().uri(), () -> writeFragments(snapshot.location(), List.of(batch))));
      rows += batch.getRowCount();
    }

    /** @return rows written so far */
    public long rows() {
      return rows;
    }

    /** @return the staged Overwrite of every fragment written (zero fragments = an empty table) */
    public StagedWrite finish() {
      finished = true;
      return new StagedWrite(tableKey, snapshot.location(), snapshot.version(), UUID.randomUUID().toString(),
          StagedWrite.Kind.OVERWRITE, rows, List.of(), Overwrite.builder().fragments(List.copyOf(fragments)).schema(schema).build());
    }
  }

  /**
   * Stages one CreateIndex transaction building every index in {@code specs} over all fragments of
   * the pinned version. Index files are written now; the index becomes visible only when
   * {@link #commitStaged} commits the transaction.
   *
   * @throws IllegalArgumentException when {@code specs} is empty
   */
  public StagedWrite stageCreateIndices(TableSnapshot s, String tableKey, List<IndexSpec> specs) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("no index to create");
    }
    Operation op = lance(s.location().uri(), () -> {
      List<Integer> fragmentIds = s.dataset().getFragments().stream().map(Fragment::getId).toList();
      List<org.lance.index.Index> built = new ArrayList<>();
      for (IndexSpec spec : specs) {
        if (spec instanceof IndexSpec.BTree b) {
          org.lance.index.IndexParams params = org.lance.index.IndexParams.builder()
              .setScalarIndexParams(org.lance.index.scalar.ScalarIndexParams.create("btree")).build();
          // With explicit fragment ids Lance builds the index without committing it (distributed build).
          built.add(s.dataset().createIndex(org.lance.index.IndexOptions
              .builder(List.of(b.column()), org.lance.index.IndexType.BTREE, params)
              .withIndexName(b.name()).withIndexUUID(UUID.randomUUID().toString())
              .withFragmentIds(fragmentIds).build()));
        }
      }
      return org.lance.operation.CreateIndex.builder().withNewIndices(built).build();
    });
    return new StagedWrite(tableKey, s.location(), s.version(), UUID.randomUUID().toString(),
        StagedWrite.Kind.CREATE_INDICES, 0, List.of(), op);
  }

  /**
   * Reads the Lance transaction that produced the pinned version (from the dataset's transaction
   * history) and returns its properties.
   *
   * @return the transaction properties (empty when the transaction has none)
   * @throws NotFoundException when the version has no readable transaction file
   */
  public Map<String, String> transactionProperties(TableSnapshot s) {
    return lance(s.location().uri(), () -> {
      Optional<Transaction> tx = s.dataset().readTransaction();
      if (tx.isEmpty()) {
        throw new NotFoundException("version " + s.version() + " of " + s.location().uri()
            + " has no transaction in its history", null);
      }
      try (Transaction t = tx.get()) {
        return t.transactionProperties().map(Map::copyOf).orElse(Map.of());
      }
    });
  }

  /** @return the names of the indices visible at the pinned version */
  public List<String> indexNames(TableSnapshot s) {
    return lance(s.location().uri(), () -> s.dataset().listIndexes());
  }

  /**
   * Commits exactly {@code staged} on the snapshot it was staged against: read version = the
   * staged read version, zero transparent retries. The commit must land at read version + 1 with
   * the staged transaction id; anything else is a conflict.
   *
   * @return the committed version
   * @throws RetryableCommitConflict Lance refused the commit because another writer won (a
   *     retryable or an incompatible conflict); nothing landed
   * @throws ConflictException only when the commit LANDED, at another version (Lance rebased it past
   *     a concurrent commit): the table's HEAD has moved past the version the write was prepared on,
   *     and that version is this write's effect
   */
  public long commitStaged(TableSnapshot s, StagedWrite staged) {
    try (TableSnapshot out = commitStagedAndOpen(s, staged)) {
      return out.version();
    }
  }

  /**
   * {@link #commitStaged}, returning the handle Lance gives back for the committed version (the
   * caller closes it), so the caller can read that version (e.g. {@link #countRows}) without
   * opening it again. Same failure semantics as {@link #commitStaged}; once this returns, the commit
   * has landed.
   */
  public TableSnapshot commitStagedAndOpen(TableSnapshot s, StagedWrite staged) {
    if (s.version() != staged.readVersion() || !s.location().uri().equals(staged.location().uri())) {
      throw new InternalErrorException("staged write for " + staged.tableKey() + " at version "
          + staged.readVersion() + " committed against another snapshot (version " + s.version() + ")", null);
    }
    TableSnapshot out = lance(s.location().uri(), () -> {
      // Closing the transaction releases the Arrow schema an Overwrite exports to Lance.
      Transaction.Builder b = new Transaction.Builder().readVersion(staged.readVersion()).uuid(staged.uuid())
          .operation(staged.operation());
      if (!staged.properties().isEmpty()) {
        b.transactionProperties(staged.properties());
      }
      try (Transaction tx = b.build()) {
        return new TableSnapshot(s.location(), new CommitBuilder(s.dataset()).writeParams(s.location().storageOptions())
            .maxRetries(0).skipAutoCleanup(true).execute(tx));
      } catch (RuntimeException e) {
        if (LanceErrors.classify(e) == LanceErrors.Failure.INCOMPATIBLE_CONFLICT) {
          // Refused outright (e.g. against a concurrent Overwrite): like a retryable conflict, nothing landed.
          refused(staged.tableKey(), e);
        }
        throw commitFailure(staged.tableKey(), e);
      }
    });
    long committed = out.version();
    if (committed != staged.readVersion() + 1) {
      out.close();
      throw new ConflictException("table " + staged.tableKey() + " commit landed at version " + committed
          + " instead of " + (staged.readVersion() + 1) + ": a concurrent writer committed to the same table",
          new ErrorDetail.ReadSetConflict("table_head:" + staged.tableKey(),
              Long.toString(staged.readVersion() + 1), Long.toString(committed)));
    }
    return out;
  }

  /**
   * Rolls the table back: commits one Lance Restore of {@code toVersion} on top of the live HEAD
   * {@code head} (read version = HEAD, zero retries), so the new HEAD ({@code head + 1}) has the
   * content of {@code toVersion}. Recovery calls it under the root's write gate only: a Restore
   * silently orphans a concurrent commit (engine.md 2.6).
   *
   * @param head the table opened at its live HEAD
   * @return the new HEAD version
   * @throws ConflictException when another commit landed first (HEAD moved)
   */
  public long restore(TableSnapshot head, String tableKey, long toVersion) {
    if (toVersion < 1 || toVersion >= head.version()) {
      throw new InternalErrorException("cannot restore " + tableKey + " at HEAD " + head.version() + " to version "
          + toVersion, null);
    }
    long committed = lance(head.location().uri(), () -> {
      try (Transaction tx = new Transaction.Builder().readVersion(head.version()).uuid(UUID.randomUUID().toString())
              .operation(org.lance.operation.Restore.builder().version(toVersion).build()).build();
          Dataset out = new CommitBuilder(head.dataset()).writeParams(head.location().storageOptions())
              .maxRetries(0).skipAutoCleanup(true).execute(tx)) {
        return out.version();
      } catch (RuntimeException e) {
        throw commitFailure(tableKey, e);
      }
    });
    if (committed != head.version() + 1) {
      throw new ConflictException("restore of " + tableKey + " landed at version " + committed + " instead of "
          + (head.version() + 1), new ErrorDetail.ReadSetConflict("table_head:" + tableKey,
              Long.toString(head.version() + 1), Long.toString(committed)));
    }
    return committed;
  }

  /**
   * Reads the transaction that produced {@code version} of the table at {@code location}. Only for
   * versions committed by this engine on the main ref: Lance aborts the JVM when asked for the
   * first version of a native branch (lance-java.md, crash hazards), and versions 1 (creation)
   * are never asked for.
   *
   * @return the transaction, or empty when Lance kept none for that version
   * @throws NotFoundException when the version does not exist
   */
  public Optional<CommittedTransaction> transactionAt(LanceLocation location, long version) {
    if (version < 2) {
      throw new InternalErrorException("refusing to read the creation transaction of " + location.uri(), null);
    }
    try (TableSnapshot s = openAt(location, version)) {
      return lance(location.uri(), () -> {
        Optional<Transaction> t = s.dataset().readTransaction();
        if (t.isEmpty()) {
          return Optional.<CommittedTransaction>empty();
        }
        try (Transaction tx = t.get()) {
          long restored = tx.operation() instanceof org.lance.operation.Restore r ? r.version() : -1;
          return Optional.of(new CommittedTransaction(version, tx.readVersion(), tx.uuid(), restored));
        }
      });
    }
  }

  /**
   * Appends {@code rows} to the dataset at {@code location}, creating it (stable row ids, no
   * auto-cleanup) when absent. For engine-internal append-only logs (the recovery audit), which
   * have one writer under the root's write gate; Lance's own commit retries stay on.
   *
   * @return the committed version
   */
  public long appendRows(LanceLocation location, String tableKey, Schema schema, List<VectorSchemaRoot> rows) {
    Optional<TableSnapshot> existing = openLatestIfExists(location);
    if (existing.isEmpty()) {
      try {
        return createTable(location, tableKey, schema, rows);
      } catch (ConflictException e) {
        // A concurrent creator won: append to what it created.
      }
    } else {
      existing.get().close();
    }
    return lance(location.uri(), () -> {
      ArrowReader reader = ArrowBatches.reader(schema, rows, allocator);
      try (Dataset ds = Dataset.write().allocator(allocator).reader(reader).uri(location.uri()).schema(schema)
          .mode(WriteParams.WriteMode.APPEND).storageOptions(location.storageOptions()).execute()) {
        return ds.version();
      } finally {
        closeQuietly(reader);
      }
    });
  }

  /**
   * Removes the table's versions older than {@code beforeVersion}, and the data files only they
   * reference. Unreferenced files younger than Lance's safety window (7 days) are kept, so the
   * staged files of a write in progress survive.
   *
   * @return how many old versions were removed
   */
  public long cleanupVersionsBefore(LanceLocation location, long beforeVersion) {
    try (TableSnapshot s = openLatest(location)) {
      return lance(location.uri(), () -> s.dataset().cleanupWithPolicy(
          org.lance.cleanup.CleanupPolicy.builder().withBeforeVersion(beforeVersion).build()).getOldVersions());
    }
  }

  /**
   * Upserts {@code rows} into the snapshot's dataset keyed on {@code keyColumn} with one Lance
   * merge-insert (matched: update all; not matched: insert all), Lance conflict retries off and no
   * auto-cleanup. This is the manifest publisher's compare-and-set: with the key marked as the
   * unenforced primary key, two concurrent merges touching the same key cannot both land.
   *
   * @return the committed version (snapshot version + 1)
   * @throws RetryableCommitConflict a concurrent writer touched the same keys first; nothing landed
   */
  public long mergeRowsOnKey(TableSnapshot s, String tableKey, String keyColumn, VectorSchemaRoot rows) {
    return mergeRowsOnKeyStamped(s, tableKey, keyColumn, rows).version();
  }

  /**
   * {@link #mergeRowsOnKey}, returning the committed version's {@link VersionStamp} (read from the
   * handle Lance returns, no extra I/O), so a caller can cache what it knows that version holds.
   */
  public VersionStamp mergeRowsOnKeyStamped(TableSnapshot s, String tableKey, String keyColumn, VectorSchemaRoot rows) {
    MergeInsertParams params = new MergeInsertParams(List.of(keyColumn)).withMatchedUpdateAll()
        .withNotMatched(MergeInsertParams.WhenNotMatched.InsertAll).withConflictRetries(0).withSkipAutoCleanup(true);
    VersionStamp stamp = lance(s.location().uri(), () -> {
      ArrowReader reader = ArrowBatches.reader(rows.getSchema(), List.of(rows), allocator);
      try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, reader, stream); // the stream now owns the reader
        MergeInsertResult result = s.dataset().mergeInsert(params, stream);
        try (TableSnapshot out = new TableSnapshot(s.location(), result.dataset())) {
          return out.stamp();
        }
      } catch (RuntimeException e) {
        throw commitFailure(tableKey, e);
      }
    });
    long committed = stamp.version();
    if (committed != s.version() + 1) {
      throw new ConflictException(tableKey + " merge landed at version " + committed + " instead of "
          + (s.version() + 1), new ErrorDetail.ReadSetConflict("table_head:" + tableKey,
              Long.toString(s.version() + 1), Long.toString(committed)));
    }
    return stamp;
  }

  @Override
  public void close() {
    try {
      session.close();
    } finally {
      allocator.close();
    }
  }

  // ---------------------------------------------------------------- internals

  private void checkKeyedLimits(String tableKey, VectorSchemaRoot batch) {
    if (batch.getRowCount() > KEYED_WRITE_MAX_ROWS) {
      throw resourceLimit("keyed write entities for " + tableKey, KEYED_WRITE_MAX_ROWS, batch.getRowCount());
    }
    long bytes = ArrowBatches.memorySize(batch);
    if (bytes > KEYED_WRITE_MAX_BYTES) {
      throw resourceLimit("keyed write bytes for " + tableKey, KEYED_WRITE_MAX_BYTES, bytes);
    }
  }

  /** Builds the public resource-limit failure (also used by the loader before it builds batches). */
  public static ResourceLimitException resourceLimit(String resource, long limit, long actual) {
    return new ResourceLimitException("resource limit exceeded for " + resource + ": actual " + actual
        + ", limit " + limit + "; split the input into several loads (or use overwrite for bulk replacement)",
        new ErrorDetail.ResourceLimit(resource, limit, actual));
  }

  /** Builds the public key-conflict failure for {@code tableKey} ({@code node:T} / {@code edge:T}). */
  public static ConflictException keyConflict(String tableKey, List<String> ids, String what) {
    int colon = tableKey.indexOf(':');
    String kind = colon > 0 ? tableKey.substring(0, colon) : "node";
    String type = colon > 0 ? tableKey.substring(colon + 1) : tableKey;
    List<String> shown = ids.size() > 10 ? ids.subList(0, 10) : ids;
    return new ConflictException(kind + " type '" + type + "' already has this id: " + String.join(", ", shown)
        + (ids.size() > shown.size() ? " (+" + (ids.size() - shown.size()) + " more)" : "")
        + (what.startsWith("already") ? "" : " (" + what + ")"),
        new ErrorDetail.KeyConflict(kind, type, ids));
  }

  private static List<String> ids(VectorSchemaRoot batch) {
    if (!(batch.getVector(ID) instanceof VarCharVector v)) {
      throw new InternalErrorException("keyed write batch has no Utf8 'id' column: " + batch.getSchema(), null);
    }
    List<String> ids = new ArrayList<>(batch.getRowCount());
    for (int i = 0; i < batch.getRowCount(); i++) {
      if (v.isNull(i)) {
        throw new InvalidInputException("row " + i + " of a keyed write has a null id",
            new ErrorDetail.Validation(null, null, ID, "null_id"));
      }
      ids.add(new String(v.get(i), java.nio.charset.StandardCharsets.UTF_8));
    }
    return ids;
  }

  private static List<String> duplicates(List<String> ids) {
    Set<String> seen = new java.util.HashSet<>();
    Set<String> dup = new LinkedHashSet<>();
    for (String id : ids) {
      if (!seen.add(id)) {
        dup.add(id);
      }
    }
    return new ArrayList<>(dup);
  }

  private static List<List<String>> chunks(Collection<String> ids) {
    List<List<String>> out = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    for (String id : ids) {
      cur.add(id);
      if (cur.size() == ID_PROBE_CHUNK) {
        out.add(cur);
        cur = new ArrayList<>();
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }

  private static List<String> idFilterChunks(List<String> ids) {
    List<String> out = new ArrayList<>();
    for (List<String> c : chunks(ids)) {
      out.add(idFilter(c));
    }
    return out;
  }

  /** @return the filter {@code id IN ('a', 'b')}, rendered by {@link LanceFilter} */
  static String idFilter(Collection<String> ids) {
    return LanceFilter.in(ID, ids).sql();
  }

  /** @return fragment id to row offsets of the rows matching any of {@code filters} */
  private Map<Integer, List<Integer>> rowAddresses(TableSnapshot s, List<String> filters) {
    Map<Integer, List<Integer>> byFragment = new TreeMap<>();
    for (String filter : filters) {
      ScanOptions options = new ScanOptions.Builder().columns(List.of(ID)).filter(filter).withRowAddress(true).build();
      scanWith(s, options, root -> {
        UInt8Vector addr = (UInt8Vector) root.getVector("_rowaddr");
        for (int i = 0; i < root.getRowCount(); i++) {
          long a = addr.get(i);
          byFragment.computeIfAbsent((int) (a >>> 32), k -> new ArrayList<>()).add((int) (a & 0xffffffffL));
        }
      });
    }
    return byFragment;
  }

  private record DeletionPlan(List<FragmentMetadata> updated, List<Long> removed) {}

  private static DeletionPlan planDeletion(TableSnapshot s, Map<Integer, List<Integer>> rows) {
    List<FragmentMetadata> updated = new ArrayList<>();
    List<Long> removed = new ArrayList<>();
    Map<Integer, Fragment> fragments = new HashMap<>();
    for (Fragment f : s.dataset().getFragments()) {
      fragments.put(f.getId(), f);
    }
    for (Map.Entry<Integer, List<Integer>> e : rows.entrySet()) {
      Fragment f = fragments.get(e.getKey());
      if (f == null) {
        throw new InternalErrorException("row address names fragment " + e.getKey() + " which "
            + s.location().uri() + " version " + s.version() + " does not have", null);
      }
      FragmentMetadata after = f.deleteRows(e.getValue());
      if (after == null) {
        removed.add((long) e.getKey());
      } else {
        updated.add(after);
      }
    }
    return new DeletionPlan(updated, removed);
  }

  private List<FragmentMetadata> writeFragments(LanceLocation location, List<VectorSchemaRoot> batches) {
    List<VectorSchemaRoot> nonEmpty = batches.stream().filter(b -> b.getRowCount() > 0).toList();
    if (nonEmpty.isEmpty()) {
      return List.of();
    }
    if (nonEmpty.size() == 1) {
      return Fragment.write().datasetUri(location.uri()).allocator(allocator).data(nonEmpty.get(0))
          .storageOptions(location.storageOptions()).execute();
    }
    // Several batches go through one stream, so Lance sizes the data files instead of one file per batch.
    ArrowReader reader = ArrowBatches.reader(nonEmpty.get(0).getSchema(), nonEmpty, allocator);
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, reader, stream); // the stream now owns the reader
      return Fragment.write().datasetUri(location.uri()).allocator(allocator).data(stream)
          .storageOptions(location.storageOptions()).execute();
    }
  }

  private static long refused(String tableKey, RuntimeException e) {
    throw new RetryableCommitConflict(tableKey, "concurrent incompatible commit to " + tableKey + ": "
        + LanceErrors.clean(e), e);
  }

  private static RuntimeException commitFailure(String tableKey, RuntimeException e) {
    LanceErrors.Failure f = LanceErrors.classify(e);
    if (f == LanceErrors.Failure.RETRYABLE_CONFLICT) {
      return new RetryableCommitConflict(tableKey, "concurrent commit to " + tableKey + ": " + LanceErrors.clean(e), e);
    }
    if (f == LanceErrors.Failure.INCOMPATIBLE_CONFLICT) {
      return new ConflictException("concurrent incompatible commit to " + tableKey + ": " + LanceErrors.clean(e),
          new ErrorDetail.ReadSetConflict("table_head:" + tableKey, null, null), e);
    }
    return e;
  }

  /** Wraps a checked exception thrown inside a Lance call. */
  private static final class LanceCallFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LanceCallFailure(Exception cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Runs one Lance call and maps its failures to the engine's typed errors. */
  private static <T> T lance(String uri, Supplier<T> call) {
    try {
      return call.get();
    } catch (OmnigraphException | RetryableCommitConflict | java.io.UncheckedIOException e) {
      // Engine errors and failures of caller callbacks (scan consumers) pass through unclassified.
      throw e;
    } catch (RuntimeException e) {
      Throwable cause = e instanceof LanceCallFailure ? e.getCause() : e;
      String msg = LanceErrors.clean(cause);
      switch (LanceErrors.classify(cause)) {
        case NOT_FOUND:
          throw new NotFoundException("no Lance dataset (or version) at " + uri + ": " + msg, null, cause);
        case INVALID_INPUT:
          throw new InvalidInputException("Lance refused the input for " + uri + ": " + msg,
              new ErrorDetail.Validation(null, null, null, "lance_input"), cause);
        case IO:
          throw new StorageFailureException("Lance I/O failure at " + uri + ": " + msg,
              new ErrorDetail.Storage("LANCE_IO", uri), cause);
        case RETRYABLE_CONFLICT:
          throw new RetryableCommitConflict(uri, msg, cause);
        case INCOMPATIBLE_CONFLICT:
        case ALREADY_EXISTS:
        case KEY_EXISTS:
          throw new ConflictException("Lance conflict at " + uri + ": " + msg, null, cause);
        default:
          throw new StorageFailureException("Lance failure at " + uri + ": " + msg,
              new ErrorDetail.Storage("LANCE", uri), cause);
      }
    } catch (Error e) {
      throw e;
    }
  }
}
