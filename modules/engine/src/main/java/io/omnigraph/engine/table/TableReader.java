package io.omnigraph.engine.table;

import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Transaction;
import org.lance.ipc.ColumnOrdering;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * The read side of Lance: opens datasets at a version, and reads what a pinned version holds (row
 * counts, schema, scans, id probes, transaction history, index names). It never writes; every write
 * goes through {@link TableWriter}. Obtained from {@link TableStore#reader()}.
 *
 * <p>Every Lance failure leaves this class as an {@link OmnigraphException}, classified by
 * {@link LanceErrors}. Thread-safe: datasets are opened per call; the allocator is thread-safe.
 */
public final class TableReader {
  /** Ids per probe scan: one scan covers a whole keyed write (at most 8,192 rows). */
  private static final int ID_PROBE_CHUNK = 8192;
  static final String ID = "id";

  private final BufferAllocator allocator;
  /** Shared by every open, so metadata and index caches survive from one version to the next. */
  private final org.lance.Session session;
  private final SharedDatasets shared = new SharedDatasets();
  private final KeptDatasets kept = new KeptDatasets();
  private final IdProbe idProbe = new IdProbe(this);

  TableReader(BufferAllocator allocator, org.lance.Session session) {
    this.allocator = allocator;
    this.session = session;
  }

  /** @return the allocator every batch handed to the store should come from */
  public BufferAllocator allocator() {
    return allocator;
  }

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
    Optional<TableSnapshot> k = kept.take(location.uri(), version);
    if (k.isPresent()) {
      return k.get();
    }
    return lance(location.uri(), () -> new TableSnapshot(location, Dataset.open(allocator, location.uri(),
        new ReadOptions.Builder().setVersion(version).setStorageOptions(location.storageOptions()).setSession(session)
            .build())));
  }

  /**
   * Opens a dataset pinned at {@code version} for reading only, shared with every other reader of
   * this store that pins the same version (see {@link SharedDatasets}); closing the handle gives
   * it back. Never hand the result to {@link TableWriter}.
   *
   * @throws NotFoundException when the dataset or the version does not exist
   */
  public TableSnapshot openShared(LanceLocation location, long version) {
    return shared.acquire(location, version, () -> lance(location.uri(), () -> Dataset.open(allocator, location.uri(),
        new ReadOptions.Builder().setVersion(version).setStorageOptions(location.storageOptions()).setSession(session)
            .build())));
  }

  /** Closes the shared datasets that no reader holds and the kept ones (the store is closing). */
  void closeShared() {
    shared.close();
    kept.close();
    idProbe.clear();
  }

  /**
   * Keeps an owned handle on a version of a main ref open for the next {@link #openAt} of exactly
   * that version, or for {@link #takeKept} (see {@link KeptDatasets}); the caller gives up the
   * handle. Only for datasets whose location cannot be re-created with other content at the same
   * version: main refs of tables and {@code __manifest}, never a branch ref.
   */
  public void keep(TableSnapshot s) {
    kept.keep(s);
  }

  /** @return the handle kept for {@code location} (any version), now the caller's, or empty */
  public Optional<TableSnapshot> takeKept(LanceLocation location) {
    return kept.take(location.uri());
  }

  /** @return the live HEAD version of the dataset at {@code location} */
  public long latestVersionOf(LanceLocation location) {
    try (TableSnapshot s = openLatest(location)) {
      return s.version();
    }
  }

  /**
   * {@link #latestVersionOf}, keeping the opened HEAD for the next {@link #openAt} of that version
   * (maintenance on a main ref: the next write stages on, or captures, exactly that version).
   */
  public long latestVersionKept(LanceLocation location) {
    TableSnapshot s = openLatest(location);
    long v = s.version();
    kept.keep(s);
    return v;
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
   * @param filter the rows to read, or {@code null} for all
   */
  public void scan(TableSnapshot s, List<String> columns, LanceFilter filter, Consumer<VectorSchemaRoot> batches) {
    ScanOptions.Builder b = new ScanOptions.Builder();
    if (columns != null) {
      b.columns(columns);
    }
    if (filter != null) {
      b.filter(filter.sql());
    }
    scanWith(s, b.build(), batches);
  }

  /** {@link #scan} of every row with its address, in a UInt8 column {@code _rowaddr}. */
  public void scanWithRowAddress(TableSnapshot s, List<String> columns, Consumer<VectorSchemaRoot> batches) {
    scanWith(s, new ScanOptions.Builder().columns(columns).withRowAddress(true).build(), batches);
  }

  /**
   * {@link #scan} with each row's address at the pinned version in a UInt8 column {@code _rowaddr}
   * ({@code columns} {@code null}: every column).
   */
  public void scanWithRowAddress(TableSnapshot s, List<String> columns, LanceFilter filter,
      Consumer<VectorSchemaRoot> batches) {
    ScanOptions.Builder b = new ScanOptions.Builder().withRowAddress(true);
    if (columns != null) {
      b.columns(columns);
    }
    if (filter != null) {
      b.filter(filter.sql());
    }
    scanWith(s, b.build(), batches);
  }

  /**
   * {@link #scanWithRowAddress(TableSnapshot, List, LanceFilter, Consumer)} of a {@code filter} that
   * selects only rows whose id is one of {@code ids} (an update matched by its key): fragments the id
   * probe's memory knows to hold none of them are not read (docs/mutations.md, "How an update is
   * staged"); each one left out is counted ({@link #fragmentsSkippedByIds}).
   */
  public void scanIdsWithRowAddress(TableSnapshot s, Collection<String> ids, LanceFilter filter,
      Consumer<VectorSchemaRoot> batches) {
    idProbe.scanIds(s, ids, filter, batches);
  }

  /** @return fragments {@link #scanIdsWithRowAddress} did not read in this process, for tests */
  public static long fragmentsSkippedByIds() {
    return IdProbe.SKIPPED_BY_IDS.get();
  }

  /**
   * A full-text scan of the pinned version (docs/queries.md, "Search"): the rows whose {@code
   * column} matches {@code query} (any query token, or any token within {@code fuzziness} edits),
   * with Lance's BM25 relevance in a Float32 {@code _score} column, among the rows passing {@code
   * filter} (a prefilter: applied before the search). Each batch is only valid during the callback.
   *
   * @param columns the columns to read besides {@code _score}
   * @param fuzziness the maximum edits per token (0: exact tokens)
   * @param maxExpansions at most this many index terms per fuzzy query token
   */
  public void fullTextScan(TableSnapshot s, List<String> columns, LanceFilter filter, String column, String query,
      int fuzziness, int maxExpansions, Consumer<VectorSchemaRoot> batches) {
    ScanOptions.Builder b = new ScanOptions.Builder().columns(columns)
        .fullTextQuery(org.lance.ipc.FullTextQuery.match(query, column, 1.0f, java.util.Optional.of(fuzziness), maxExpansions,
            org.lance.ipc.FullTextQuery.Operator.OR, 0));
    if (filter != null) {
      b.filter(filter.sql()).prefilter(true);
    }
    scanWith(s, b.build(), batches);
  }

  /**
   * A k-nearest-neighbour scan of the pinned version through Lance's vector search (L2), among the
   * rows passing {@code filter} (a prefilter: applied before the top-k). With an IVF_FLAT index and
   * {@code nprobes} at least its partition count every partition is searched with exact distances,
   * so the rows are the exact top-k. Each batch is only valid during the callback.
   */
  public void nearestScan(TableSnapshot s, List<String> columns, LanceFilter filter, String column, float[] query, int k,
      int nprobes, Consumer<VectorSchemaRoot> batches) {
    ScanOptions.Builder b = new ScanOptions.Builder().columns(columns)
        .nearest(new org.lance.ipc.Query.Builder().setColumn(column).setKey(query).setK(k).setNprobes(nprobes)
            .setMinimumNprobes(nprobes).setDistanceType(org.lance.index.DistanceType.L2).setUseIndex(true).build());
    if (filter != null) {
      b.filter(filter.sql()).prefilter(true);
    }
    scanWith(s, b.build(), batches);
  }

  /**
   * Scans the pinned version, sorted by {@code order} (each column ascending or descending, nulls
   * first ascending and last descending), and returns the first {@code limit} rows: Lance filters,
   * sorts and then limits. Each batch is only valid during the callback.
   *
   * @param order column → ascending, in key order
   */
  public void scanTopN(TableSnapshot s, List<String> columns, LanceFilter filter, List<Map.Entry<String, Boolean>> order,
      long limit, Consumer<VectorSchemaRoot> batches) {
    List<ColumnOrdering> keys = new ArrayList<>();
    for (Map.Entry<String, Boolean> k : order) {
      ColumnOrdering.Builder o = new ColumnOrdering.Builder();
      o.setColumnName(k.getKey());
      o.setAscending(k.getValue());
      o.setNullFirst(k.getValue());
      keys.add(o.build());
    }
    ScanOptions.Builder b = new ScanOptions.Builder().columns(columns).setColumnOrderings(keys).limit(limit);
    if (filter != null) {
      b.filter(filter.sql());
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

  void scanWith(TableSnapshot s, ScanOptions options, Consumer<VectorSchemaRoot> batches) {
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
        throw new LanceCalls.LanceCallFailure(e);
      }
      return null;
    });
  }

  /**
   * @return the subset of {@code ids} present at the pinned version (in {@code ids} order). A
   *     fragment whose ids this store knows ({@link FragmentIdSets}) and that holds none of them is
   *     not read; a small one it does not know is read whole once and remembered; the rest (a hash
   *     hit, a big fragment, a branch ref) are scanned through the id filter.
   */
  public List<String> existingIds(TableSnapshot s, Collection<String> ids) {
    return idProbe.existingIds(s, ids);
  }

  /**
   * Reads the ids of every small fragment of the pinned version this store does not know yet
   * (maintenance, after a compaction made new fragments: the next write's probe then reads
   * nothing; docs/maintenance.md, "Flat write cost").
   *
   * @return the number of fragments read
   */
  public int learnIds(TableSnapshot s) {
    return idProbe.learnIds(s);
  }

  /** @return the probe's memory of fragment ids (the writer adds what it stages; tests read it) */
  IdProbe idProbe() {
    return idProbe;
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

  /**
   * @return per index name at the pinned version, the physical rows of the fragments it does not
   *     cover (0: it covers every fragment; more: fragments appended after the build, which optimize
   *     folds in; docs/maintenance.md). Metadata only, no I/O.
   */
  public Map<String, Long> indexCoverage(TableSnapshot s) {
    return lance(s.location().uri(), () -> {
      Map<Integer, Long> fragments = new java.util.HashMap<>();
      s.dataset().getFragments().forEach(f -> fragments.put(f.getId(), f.metadata().getPhysicalRows()));
      Map<String, java.util.Set<Integer>> covered = new TreeMap<>();
      for (org.lance.index.Index i : s.dataset().getIndexes()) {
        java.util.Set<Integer> c = covered.computeIfAbsent(i.name(), k -> new java.util.HashSet<>());
        i.fragments().ifPresent(c::addAll);
      }
      Map<String, Long> out = new TreeMap<>();
      covered.forEach((name, c) -> out.put(name, fragments.entrySet().stream().filter(f -> !c.contains(f.getKey()))
          .mapToLong(Map.Entry::getValue).sum()));
      return out;
    });
  }

  /**
   * @return whether Lance's compaction planner finds work at the pinned version (small fragments
   *     to merge, deletions to materialize); the planner only reads metadata
   */
  public boolean needsCompaction(TableSnapshot s) {
    return needsCompaction(s, 0);
  }

  /** {@link #needsCompaction(TableSnapshot)} with a target rows per fragment (0: Lance's default). */
  public boolean needsCompaction(TableSnapshot s, long targetRowsPerFragment) {
    return lance(s.location().uri(), () -> !org.lance.compaction.Compaction.planCompaction(s.dataset(),
        compaction(targetRowsPerFragment)).getCompactionTasks().isEmpty());
  }

  /**
   * @return optimize's compaction options ({@code TableWriter.COMPACTION}), with Lance's target rows per
   *     fragment set to {@code targetRowsPerFragment} when it is positive: fragments at least that large
   *     are left alone unless their deletions call for a rewrite, so automatic maintenance merges only
   *     the small fragments recent writes left (docs/maintenance.md, "Automatic maintenance")
   */
  static org.lance.compaction.CompactionOptions compaction(long targetRowsPerFragment) {
    return targetRowsPerFragment <= 0 ? TableWriter.COMPACTION : org.lance.compaction.CompactionOptions.builder()
        .withMaterializeDeletions(true).withTargetRowsPerFragment(targetRowsPerFragment).build();
  }

  /** @return every version of the dataset at {@code location}: {id, creation time in epoch ms}, oldest first */
  public List<long[]> versions(LanceLocation location) {
    try (TableSnapshot s = openLatest(location)) {
      return lance(location.uri(), () -> s.dataset().listVersions().stream()
          .map(v -> new long[] {v.getId(), v.getDataTime().toInstant().toEpochMilli()})
          .sorted(java.util.Comparator.comparingLong(a -> a[0])).toList());
    }
  }

  /** @return how many fragments the pinned version has */
  public int fragmentCount(TableSnapshot s) {
    return lance(s.location().uri(), () -> s.dataset().getFragments().size());
  }

  /** @return the names of the indices visible at the pinned version */
  public List<String> indexNames(TableSnapshot s) {
    return lance(s.location().uri(), () -> s.dataset().listIndexes());
  }

  /**
   * Reads the transaction that produced {@code version} of the table at {@code location}. Only for
   * versions committed by this engine on the main ref: Lance aborts the JVM when asked for the
   * first version of a native branch, and versions 1 (creation)
   * are never asked for.
   *
   * @return the transaction, or empty when Lance kept none for that version
   * @throws NotFoundException when the version does not exist
   */
  public Optional<CommittedTransaction> transactionAt(LanceLocation location, long version) {
    if (version < 2) {
      throw new io.omnigraph.api.InternalErrorException(
          "refusing to read the creation transaction of " + location.uri(), null);
    }
    try (TableSnapshot s = openAt(location, version)) {
      return lance(location.uri(), () -> {
        Optional<Transaction> t = s.dataset().readTransaction();
        if (t.isEmpty()) {
          return Optional.<CommittedTransaction>empty();
        }
        try (Transaction tx = t.get()) {
          long restored = tx.operation() instanceof org.lance.operation.Restore r ? r.version() : -1;
          return Optional.of(new CommittedTransaction(version, tx.readVersion(), tx.uuid(), restored,
              tx.operation() == null ? "" : tx.operation().name()));
        }
      });
    }
  }

  /**
   * Checks whether {@code source}'s history since {@code base} is an insertion-only chain
   * (docs/branches.md, "The proven-insert route"): every version in {@code (base, source]} on the
   * source's ref was produced by a verified {@link InsertAbsence} v1 link prepared on the version
   * before it ({@link InsertAbsence#verifyLink}); at most {@link InsertProof#MAX_LINKS} links; the
   * source keeps every fragment of the base; and the links together inserted exactly
   * {@code expectedRows} rows (the manifest's entity-count delta), which the fragments the source
   * added hold. Anything else — a gap, an update, a delete, a compaction, an index build, a missing
   * transaction file, a count mismatch — is a refusal with its reason, never an error.
   *
   * @param base the table at the interval's start; the source's ref must have been forked from it
   *     (the caller checks the native ref)
   * @param source the table pinned at the interval's end, on its own ref; it stays owned by the
   *     caller and must stay open while the proof is used
   * @param expectedRows the rows the interval must have inserted
   */
  public InsertProof proveInsertOnlyHistory(String tableKey, TableSnapshot base, TableSnapshot source,
      long expectedRows) {
    long from = base.version();
    long to = source.version();
    if (to <= from) {
      return InsertProof.refused(tableKey, from, "no source interval (" + from + ", " + to + "]");
    }
    if (to - from > InsertProof.MAX_LINKS) {
      return InsertProof.refused(tableKey, from, (to - from) + " versions exceed " + InsertProof.MAX_LINKS + " links");
    }
    Map<Integer, Long> baseFragments = fragmentRows(base);
    Map<Integer, Long> sourceFragments = fragmentRows(source);
    if (!sourceFragments.keySet().containsAll(baseFragments.keySet())) {
      return InsertProof.refused(tableKey, from, "the source no longer has every fragment of the base");
    }
    long rows = 0;
    List<InsertAbsence.Link> links = new ArrayList<>();
    for (long v = from + 1; v <= to; v++) {
      long version = v;
      InsertAbsence.Link link;
      try (TableSnapshot at = openAt(source.location(), v)) {
        link = lance(source.location().uri(), () -> {
          Optional<Transaction> tx = at.dataset().readTransaction();
          if (tx.isEmpty()) {
            return InsertAbsence.Link.refused("version " + version + " has no transaction file");
          }
          try (Transaction t = tx.get()) {
            return InsertAbsence.verifyLink(at.dataset().getLanceSchema(), version - 1, t);
          }
        });
      } catch (NotFoundException e) {
        return InsertProof.refused(tableKey, from, "version " + v + " is gone (" + e.getMessage() + ")");
      }
      if (!link.verified()) {
        return InsertProof.refused(tableKey, from, "version " + v + ": " + link.refusal());
      }
      rows += link.rows();
      links.add(link);
    }
    if (rows != expectedRows) {
      return InsertProof.refused(tableKey, from, "the links inserted " + rows + " rows, the entity count grew by "
          + expectedRows);
    }
    List<Integer> added = new ArrayList<>();
    long addedRows = 0;
    for (Map.Entry<Integer, Long> f : sourceFragments.entrySet()) {
      if (!baseFragments.containsKey(f.getKey())) {
        added.add(f.getKey());
        addedRows += f.getValue();
      }
    }
    if (addedRows != rows) {
      return InsertProof.refused(tableKey, from, "the added fragments hold " + addedRows + " rows, the links inserted "
          + rows);
    }
    return InsertProof.proven(tableKey, source, from, rows, added, links, lance(source.location().uri(),
        () -> source.dataset().getFragments().stream().map(org.lance.Fragment::metadata).toList()));
  }

  /** @return fragment id → visible rows, ascending by id */
  private Map<Integer, Long> fragmentRows(TableSnapshot s) {
    return lance(s.location().uri(), () -> {
      Map<Integer, Long> out = new TreeMap<>();
      for (org.lance.Fragment f : s.dataset().getFragments()) {
        org.lance.FragmentMetadata m = f.metadata();
        out.put(f.getId(), m.getPhysicalRows() - m.getNumDeletions());
      }
      return out;
    });
  }

  /**
   * Scans the rows a proven interval inserted (the fragments it added, ascending by fragment id, in
   * batches of at most {@code batchRows} rows), all columns. Each batch is only valid during the
   * callback.
   */
  public void scanProvenRows(InsertProof proof, int batchRows, Consumer<VectorSchemaRoot> batches) {
    if (!proof.proven()) {
      throw new io.omnigraph.api.InternalErrorException("scan of an unproven interval of " + proof.tableKey() + ": "
          + proof.refusal(), null);
    }
    if (proof.newFragments().isEmpty()) {
      return;
    }
    scanWith(proof.source(), new ScanOptions.Builder().fragmentIds(proof.newFragments()).batchSize(batchRows).build(),
        batches);
  }

  // ---------------------------------------------------------------- durability (docs/write-protocol.md, "Durability")

  /**
   * What one table version reaches (docs/write-protocol.md, "Durability"), as paths relative to
   * the dataset directory of its ref: data and deletion files of this ref (files inherited from
   * another base, a branch's parent, are not), and index directories as {@code _indices/<uuid>/}
   * entries (their files are listed by the caller). The version's manifest and the
   * {@code _versions/} hint are not included (their names are fixed by the version).
   *
   * @param files the data files, deletion files and index directories
   * @param transaction the transaction file that produced the version
   *     ({@code _transactions/<read version>-<uuid>.txn}), or {@code null} when not asked for or absent
   */
  public record VersionFiles(Set<String> files, String transaction) {
    public VersionFiles {
      files = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(files));
    }
  }

  /**
   * Lists what {@code version} of the ref at {@code location} reaches; one open of that version,
   * or none when a write kept its handle ({@link #keep}): that handle is used and kept again, so
   * making a commit durable does not cost the next write its open (docs/write-protocol.md,
   * "Durability").
   *
   * @param withTransaction also read the transaction that produced it; never for a branch's first
   *     version (a clone has none, and Lance aborts the JVM when asked for it)
   * @throws NotFoundException the ref has no such version
   */
  public VersionFiles versionFiles(LanceLocation location, long version, boolean withTransaction) {
    Optional<TableSnapshot> k = kept.take(location.uri(), version);
    TableSnapshot t = k.isPresent() ? k.get() : lance(location.uri(), () -> new TableSnapshot(location,
        Dataset.open(allocator, location.uri(), new ReadOptions.Builder().setVersion(version)
            .setStorageOptions(location.storageOptions()).setSession(session).build())));
    try {
      return lance(location.uri(), () -> {
        Set<String> files = new LinkedHashSet<>();
        Set<String> indexes = new LinkedHashSet<>();
        collectFiles(t.dataset(), files, indexes);
        for (String i : indexes) {
          files.add("_indices/" + i + "/");
        }
        String txn = null;
        if (withTransaction) {
          Optional<Transaction> tx = t.dataset().readTransaction();
          if (tx.isPresent()) {
            try (Transaction x = tx.get()) {
              txn = "_transactions/" + x.readVersion() + "-" + x.uuid() + ".txn";
            }
          }
        }
        return new VersionFiles(files, txn);
      });
    } finally {
      if (k.isPresent()) {
        kept.keep(t);
      } else {
        t.close();
      }
    }
  }

  /**
   * The data files {@code version} of the ref at {@code location} references from its own
   * {@code data/} directory (files of another base, a branch's parent, are not), with their sizes in
   * bytes as the version's manifest records them ({@code -1} when it records none). One open of that
   * version; used by cleanup's preview (docs/maintenance.md, "cleanup").
   *
   * @throws NotFoundException the ref has no such version
   */
  public Map<String, Long> dataFileSizes(LanceLocation location, long version) {
    try (TableSnapshot t = openAt(location, version)) {
      return lance(location.uri(), () -> {
        Map<String, Long> out = new TreeMap<>();
        for (org.lance.Fragment fragment : t.dataset().getFragments()) {
          for (org.lance.fragment.DataFile f : fragment.metadata().getFiles()) {
            if (f.getBaseId().isEmpty()) {
              Long size = f.getFileSizeBytes();
              out.put("data/" + f.getPath(), size == null ? -1L : size);
            }
          }
        }
        return out;
      });
    }
  }

  /** @return the V2 manifest file name of {@code version} ({@code _versions/<u64::MAX - v, 20 digits>.manifest}) */
  public static String manifestPath(long version) {
    String inverted = Long.toUnsignedString(-1L - version);
    return "_versions/" + "0".repeat(Math.max(0, 20 - inverted.length())) + inverted + ".manifest";
  }

  /** @return the V1 manifest file name of {@code version}, for datasets that still use it */
  public static String legacyManifestPath(long version) {
    return "_versions/" + version + ".manifest";
  }

  private static void collectFiles(Dataset ds, Set<String> files, Set<String> indexes) {
    for (org.lance.Fragment fragment : ds.getFragments()) {
      org.lance.FragmentMetadata m = fragment.metadata();
      for (org.lance.fragment.DataFile f : m.getFiles()) {
        if (f.getBaseId().isEmpty()) {
          files.add("data/" + f.getPath());
        }
      }
      org.lance.fragment.DeletionFile d = m.getDeletionFile();
      if (d != null && d.getBaseId().isEmpty()) {
        String ext = d.getFileType() == org.lance.fragment.DeletionFileType.BITMAP ? "bin" : "arrow";
        files.add("_deletions/" + m.getId() + "-" + d.getReadVersion() + "-" + Long.toUnsignedString(d.getId()) + "." + ext);
      }
    }
    for (org.lance.index.Index i : ds.getIndexes()) {
      if (i.baseId().isEmpty()) {
        indexes.add(i.uuid().toString());
      }
    }
  }

  // ---------------------------------------------------------------- native branches

  /**
   * Where the native branch {@code name} of the dataset at {@code main} lives: Lance keeps a
   * branch as a dataset under {@code <dataset>/tree/<name>}, which opens, scans, stages and commits
   * like any dataset (its version numbers continue from the version it was created at).
   */
  public static LanceLocation branchLocation(LanceLocation main, String name) {
    if (name == null) {
      return main;
    }
    String uri = main.uri();
    while (uri.endsWith("/")) {
      uri = uri.substring(0, uri.length() - 1);
    }
    return new LanceLocation(uri + "/tree/" + name, main.storageOptions());
  }

  /**
   * @param location a dataset's main ref, or its native branch {@code branch}
   * @param branch the branch {@code location} is ({@code null}: main)
   * @return the URI of the dataset's main ref
   */
  public static String mainUri(LanceLocation location, String branch) {
    String uri = location.uri();
    if (branch == null) {
      return uri;
    }
    String suffix = "/tree/" + branch;
    if (!uri.endsWith(suffix)) {
      throw new IllegalArgumentException(uri + " is not the branch " + branch + " of a dataset");
    }
    return uri.substring(0, uri.length() - suffix.length());
  }

  /**
   * @param main the dataset (its main ref)
   * @return every native branch of the dataset, by name
   * @throws NotFoundException when there is no dataset at {@code main}
   */
  public List<NativeBranch> branches(LanceLocation main) {
    try (TableSnapshot s = openLatest(main)) {
      return lance(main.uri(), () -> {
        List<NativeBranch> out = new ArrayList<>();
        for (org.lance.Branch b : s.dataset().branches().list()) {
          List<NativeBranch.Element> id = new ArrayList<>();
          for (org.lance.Branch.BranchVersionMapping m : b.getBranchIdentifier()) {
            id.add(new NativeBranch.Element(m.getVersion(), m.getUuid()));
          }
          out.add(new NativeBranch(b.getName(), b.getParentBranch().orElse(null), b.getParentVersion(), id));
        }
        out.sort(java.util.Comparator.comparing(NativeBranch::name));
        return out;
      });
    }
  }

  /** @return the native branch {@code name} of the dataset at {@code main}, if it exists */
  public Optional<NativeBranch> branch(LanceLocation main, String name) {
    return branches(main).stream().filter(b -> b.name().equals(name)).findFirst();
  }

  // ---------------------------------------------------------------- for the write gateway

  /** @return fragment id to row offsets of the rows matching any of {@code filters} */
  Map<Integer, List<Integer>> rowAddresses(TableSnapshot s, List<LanceFilter> filters) {
    ID_PROBES.incrementAndGet();
    Map<Integer, List<Integer>> byFragment = new TreeMap<>();
    for (LanceFilter filter : filters) {
      ScanOptions options = new ScanOptions.Builder().columns(List.of(ID)).filter(filter.sql()).withRowAddress(true).build();
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

  private static final java.util.concurrent.atomic.AtomicLong ID_PROBES = new java.util.concurrent.atomic.AtomicLong();

  /**
   * @return the id probes (a strict insert's probe, an upsert's row lookup: {@link IdProbe}, or a scan
   *     for the rows of given ids) made in this process, for tests
   */
  public static long idProbes() {
    return ID_PROBES.get();
  }

  static void countIdProbe() {
    ID_PROBES.incrementAndGet();
  }

  /** @return one {@code id IN (...)} filter per probe chunk of {@code ids} */
  static List<LanceFilter> idFilterChunks(List<String> ids) {
    List<LanceFilter> out = new ArrayList<>();
    for (List<String> c : chunks(ids)) {
      out.add(LanceFilter.in(ID, c));
    }
    return out;
  }

  static List<List<String>> chunks(Collection<String> ids) {
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

  /** One Lance call of this class, its failures mapped ({@link LanceCalls}); a permission error names the read. */
  private static <T> T lance(String uri, java.util.function.Supplier<T> call) {
    return LanceCalls.lance(uri, "read", call);
  }
}
