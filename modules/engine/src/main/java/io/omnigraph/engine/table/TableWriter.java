package io.omnigraph.engine.table;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.WriteParams;
import org.lance.merge.MergeInsertParams;
import org.lance.operation.Append;
import org.lance.Ref;
import org.lance.operation.Delete;
import org.lance.operation.Operation;
import org.lance.operation.Overwrite;
import org.lance.operation.Update;

/**
 * The only gateway for Lance writes in the engine ({@code TableStoreGuardTest} fails the build when
 * any other class calls a Lance write API). Writes are staged first and committed separately:
 * {@code stage*} methods may write invisible data files but never move a dataset's HEAD;
 * {@link #commitStaged} commits exactly one staged transaction at its read version with zero
 * transparent retries. The manifest's compare-and-set publish is {@link #mergeRowsOnKey}. Table
 * creation, the audit log's append, recovery's restore and version cleanup are here too.
 *
 * <p>This is a storage gateway: it enforces no domain limit (the keyed-write size policy and the
 * public key-conflict error live in the write protocol, {@code write.KeyedWrites}). Every Lance
 * failure leaves it as an {@link OmnigraphException}, or as one of the internal signals
 * {@link RetryableCommitConflict} and {@link KeyCollision}, classified by {@link LanceErrors}.
 *
 * <p>Obtained from {@link TableStore#writer()}. Thread-safe: datasets are opened per call.
 */
public final class TableWriter {
  private static final String ID = TableReader.ID;

  /** The compaction options of optimize: Lance's defaults, deletions materialized. */
  static final org.lance.compaction.CompactionOptions COMPACTION = org.lance.compaction.CompactionOptions.builder()
      .withMaterializeDeletions(true).build();

  private final TableReader reader;
  private final BufferAllocator allocator;

  TableWriter(TableReader reader) {
    this.reader = reader;
    this.allocator = reader.allocator();
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
   * in the batch or existing ids fail with a {@link KeyCollision} that lists
   * them all. {@link KeyedWriteMode#UPSERT}: keeps the last
   * row per id and stages one Update that deletes the existing rows and adds the new ones.
   *
   * <p>No size limit is checked here: callers go through {@code write.KeyedWrites}, which applies
   * the keyed-write policy first and turns a {@link KeyCollision} into the public key conflict.
   *
   * @throws KeyCollision strict insert of an existing or duplicated id; nothing was written
   */

  public StagedWrite stageKeyedWrite(TableSnapshot s, String tableKey, VectorSchemaRoot batch, KeyedWriteMode mode) {
    return stageKeyedWrite(s, tableKey, batch, mode, Map.of());
  }

  /**
   * {@link #stageKeyedWrite}; an upsert takes the rows of the ids in {@code known} (id → row address
   * at {@code s}'s version, read from {@code s} by the caller) as found and probes only the others.
   */
  public StagedWrite stageKeyedWrite(TableSnapshot s, String tableKey, VectorSchemaRoot batch, KeyedWriteMode mode,
      Map<String, Long> known) {
    List<String> ids = KeyedBatch.ids(batch);
    if (mode == KeyedWriteMode.STRICT_INSERT) {
      KeyCollision.probeStrictInsert(reader, s, tableKey, batch);
      return stageCertifiedInsert(s, tableKey, batch, ids, "strict insert");
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
      List<String> unknown = uniqueIds.stream().filter(id -> !known.containsKey(id)).toList();
      Map<Integer, List<Integer>> toDelete = unknown.isEmpty() ? new java.util.TreeMap<>()
          : reader.idProbe().rowAddresses(s, unknown, new java.util.HashSet<>());
      for (String id : uniqueIds) {
        Long a = known.get(id);
        if (a != null) {
          toDelete.computeIfAbsent((int) (a >>> 32), k -> new ArrayList<>()).add((int) (a & 0xffffffffL));
        }
      }
      String uuid = UUID.randomUUID().toString();
      Operation op = lance(s.location().uri(), () -> {
        List<FragmentMetadata> added = writeFragments(s.location(), List.of(rows));
        reader.idProbe().remember(s.location(), added, uniqueIds); // the next probe need not read it
        if (toDelete.isEmpty()) {
          return added.isEmpty() ? Append.builder().fragments(added).build()
              : InsertAbsence.insertionOnlyUpdate(s.dataset().getLanceSchema(), added);
        }
        DeletionPlan plan = planDeletion(s, toDelete);
        // Every field listed as "preserving": an existing index must not claim the new fragments,
        // whose rows it does not contain (docs/indexes.md, "Indexes and writes").
        return Update.builder().removedFragmentIds(plan.removed).updatedFragments(plan.updated)
            .newFragments(added).fieldsModified(new long[0])
            .fieldsForPreservingFragBitmap(InsertAbsence.fieldPreorder(s.dataset().getLanceSchema()))
            .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
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
   * Stages a chunk of a proven insertion-only interval (docs/branches.md, "The proven-insert route")
   * on {@code s}: what a strict insert stages (newly certified against {@code s}'s version) WITHOUT
   * the id probe — {@code proof} says the interval's ids were absent from its base version, and the
   * caller guarantees {@code s} holds exactly the base's rows plus earlier chunks of the interval.
   *
   * @param proof a proven interval of this table ({@link TableReader#proveInsertOnlyHistory})
   * @param batch rows read from the interval ({@link TableReader#scanProvenRows})
   * @throws KeyCollision a duplicated id within the chunk; nothing was written
   */
  public StagedWrite stageProvenInsert(TableSnapshot s, InsertProof proof, VectorSchemaRoot batch) {
    if (proof == null || !proof.proven() || batch.getRowCount() == 0) {
      throw new InternalErrorException("proven insert without a proven interval or rows", null);
    }
    List<String> ids = KeyedBatch.ids(batch);
    List<String> dup = KeyedBatch.duplicates(ids);
    if (!dup.isEmpty()) {
      throw new KeyCollision(proof.tableKey(), dup, "appears more than once in the input");
    }
    return stageCertifiedInsert(s, proof.tableKey(), batch, ids, "proven insert");
  }

  /** Writes the fragments of a checked insert and stages them as a certified insertion-only Update (fails closed). */
  private StagedWrite stageCertifiedInsert(TableSnapshot s, String tableKey, VectorSchemaRoot batch, List<String> ids,
      String what) {
    List<FragmentMetadata> frags = lance(s.location().uri(), () -> writeFragments(s.location(), List.of(batch)));
    reader.idProbe().remember(s.location(), frags, ids); // the next probe need not read it
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
      // Fails closed: the absence proof and the insertion-only shape are requested semantics.
      throw new InternalErrorException(what + " into " + tableKey + " staged an unfamiliar transaction shape ("
          + cert.refusal() + "); nothing was committed", null);
    }
    return new StagedWrite(tableKey, s.location(), s.version(), uuid, StagedWrite.Kind.STRICT_INSERT, ids.size(), ids,
        op, cert.properties());
  }

  /**
   * Stages deletion of the rows matching {@code filter} at the pinned version.
   *
   * @return the staged delete, or empty when no row matches (nothing to commit)
   */
  public Optional<StagedWrite> stageDelete(TableSnapshot s, String tableKey, LanceFilter filter) {
    Map<Integer, List<Integer>> rows = reader.rowAddresses(s, List.of(filter));
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    long count = rows.values().stream().mapToLong(List::size).sum();
    Operation op = lance(s.location().uri(), () -> {
      DeletionPlan plan = planDeletion(s, rows);
      return Delete.builder().updatedFragments(plan.updated).deletedFragmentIds(plan.removed).predicate(filter.sql()).build();
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
        StagedWrite.Kind.OVERWRITE, rows, List.of(), replaceAll(s, schema, frags));
  }

  /**
   * The Overwrite that replaces every row of the pinned version with {@code fragments}, numbering
   * them above every fragment id of that version. Lance's Overwrite would number them from 0 again,
   * while a Lance session caches per-fragment metadata by fragment id: a process that had read the
   * old fragment 0 then read the new one with the old metadata, and every filtered scan failed
   * ("all columns in a record batch must have the same length"). Lance keeps ids given to it
   * (docs/write-protocol.md, "Overwrite and fragment ids").
   */
  /** Dataset config key: the lowest fragment id the next overwrite may use. */
  static final String FRAGMENT_ID_FLOOR = "omnigraph.fragment_id_floor";

  private Operation replaceAll(TableSnapshot s, Schema schema, List<FragmentMetadata> fragments) {
    int next = lance(s.location().uri(), () -> {
      int above = s.dataset().getFragments().stream().mapToInt(Fragment::getId).max().orElse(-1) + 1;
      // An earlier overwrite's floor covers the ids it used when this version holds none of them.
      String floor = s.dataset().getConfig().get(FRAGMENT_ID_FLOOR);
      return floor == null ? above : Math.max(above, Integer.parseInt(floor));
    });
    List<FragmentMetadata> numbered = new ArrayList<>(fragments.size());
    for (FragmentMetadata f : fragments) {
      numbered.add(new FragmentMetadata(next++, f.getFiles(), f.getPhysicalRows(), f.getDeletionFile(), f.getRowIdMeta(),
          f.getCreatedAtVersionMeta(), f.getLastUpdatedAtVersionMeta()));
    }
    return Overwrite.builder().fragments(numbered).schema(schema)
        .configUpsertValues(Map.of(FRAGMENT_ID_FLOOR, Integer.toString(next))).build();
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
          StagedWrite.Kind.OVERWRITE, rows, List.of(), replaceAll(snapshot, schema, List.copyOf(fragments)));
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
    return stageCreateIndices(s, tableKey, specs, List.of());
  }

  /**
   * {@link #stageCreateIndices(TableSnapshot, String, List)}, also removing (in the same CreateIndex
   * transaction) every existing index segment named in {@code replaced}: a rebuild over all
   * fragments, for index kinds Lance cannot fold new fragments into (inverted, vector built as
   * distributed segments).
   */
  public StagedWrite stageCreateIndices(TableSnapshot s, String tableKey, List<IndexSpec> specs, List<String> replaced) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("no index to create");
    }
    Operation op = lance(s.location().uri(), () -> {
      List<org.lance.index.Index> removed = s.dataset().getIndexes().stream()
          .filter(i -> replaced.contains(i.name())).toList();
      List<Integer> fragmentIds = s.dataset().getFragments().stream().map(Fragment::getId).toList();
      List<org.lance.index.Index> built = new ArrayList<>();
      for (IndexSpec spec : specs) {
        org.lance.index.IndexType type;
        org.lance.index.IndexParams params;
        if (spec instanceof IndexSpec.BTree) {
          type = org.lance.index.IndexType.BTREE;
          params = org.lance.index.IndexParams.builder()
              .setScalarIndexParams(org.lance.index.scalar.ScalarIndexParams.create("btree")).build();
        } else if (spec instanceof IndexSpec.Inverted) {
          type = org.lance.index.IndexType.INVERTED;
          params = org.lance.index.IndexParams.builder()
              .setScalarIndexParams(org.lance.index.scalar.InvertedIndexParams.builder().baseTokenizer("simple")
                  .language("English").withPosition(false).lowerCase(true).stem(false).removeStopWords(false)
                  .asciiFolding(true).maxTokenLength(40).build()).build();
        } else {
          IndexSpec.Vector v = (IndexSpec.Vector) spec;
          type = org.lance.index.IndexType.IVF_FLAT;
          // A distributed (uncommitted) IVF build needs its centroids up front: train them on the pinned version.
          org.lance.index.vector.IvfBuildParams ivf = new org.lance.index.vector.IvfBuildParams.Builder()
              .setNumPartitions(v.partitions()).build();
          float[] centroids = org.lance.index.vector.VectorTrainer.trainIvfCentroids(s.dataset(), v.column(), ivf,
              org.lance.index.DistanceType.L2);
          params = org.lance.index.IndexParams.builder().setVectorIndexParams(
              new org.lance.index.vector.VectorIndexParams.Builder(new org.lance.index.vector.IvfBuildParams.Builder()
                  .setNumPartitions(v.partitions()).setCentroids(centroids).build())
                  .setDistanceType(org.lance.index.DistanceType.L2).build()).build();
        }
        // With explicit fragment ids Lance builds the index without committing it (distributed build).
        String uuid = UUID.randomUUID().toString();
        org.lance.index.Index index = s.dataset().createIndex(org.lance.index.IndexOptions
            .builder(List.of(spec.column()), type, params)
            .withIndexName(spec.name()).withIndexUUID(uuid)
            .replace(replaced.contains(spec.name())).withFragmentIds(fragmentIds).build());
        if (spec instanceof IndexSpec.Inverted) {
          // a distributed inverted build writes partial token/posting files; merge them into the
          // index's final files before the commit references it, or searches fail on a missing tokens file
          s.dataset().mergeIndexMetadata(uuid, type, java.util.Optional.empty());
        }
        built.add(index);
      }
      return org.lance.operation.CreateIndex.builder().withNewIndices(built).withRemovedIndices(removed).build();
    });
    return new StagedWrite(tableKey, s.location(), s.version(), UUID.randomUUID().toString(),
        StagedWrite.Kind.CREATE_INDICES, 0, List.of(), op);
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
   * caller closes it), so the caller can read that version (e.g. {@link TableReader#countRows}) without
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
          LanceErrors.refused(staged.tableKey(), e);
        }
        throw LanceErrors.commitFailure(staged.tableKey(), e);
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
   * silently orphans a concurrent commit (docs/recovery.md, "Sweep modes").
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
        throw LanceErrors.commitFailure(tableKey, e);
      }
    });
    if (committed != head.version() + 1) {
      throw new ConflictException("restore of " + tableKey + " landed at version " + committed + " instead of "
          + (head.version() + 1), new ErrorDetail.ReadSetConflict("table_head:" + tableKey,
              Long.toString(head.version() + 1), Long.toString(committed)));
    }
    return committed;
  }


  // ---------------------------------------------------------------- native branches

  /**
   * Creates the native branch {@code name} of the dataset at {@code main}, forked from
   * {@code fromVersion} of {@code fromBranch} ({@code null}: the dataset's main). Lance first
   * shallow-clones the branch tree, then writes the branch's contents record; the caller decides
   * what an ambiguous failure means (see {@code branch.BranchControl}).
   *
   * @return the created branch as Lance now lists it
   */
  public NativeBranch createBranch(LanceLocation main, String name, String fromBranch, long fromVersion) {
    LanceLocation source = TableReader.branchLocation(main, fromBranch);
    try (TableSnapshot s = reader.openLatest(source)) {
      lance(main.uri(), () -> {
        Ref ref = fromBranch == null ? Ref.ofMain(fromVersion) : Ref.ofBranch(fromBranch, fromVersion);
        // The returned handle has no allocator: close it at once. Pass the storage options: the
        // 2-argument createBranch sends none (on S3 the branch's store then has no endpoint, no region).
        java.util.Map<String, String> o = main.storageOptions();
        try (Dataset created = o == null || o.isEmpty() ? s.dataset().createBranch(name, ref) : s.dataset().createBranch(name, ref, o)) {
          return created.version();
        }
      });
    }
    // Lance writes the branch's record and first version 0600 (docs/cli.md, "File modes").
    io.omnigraph.engine.storage.LocalFileModes.nativeBranch(main, name);
    return reader.branch(main, name).orElseThrow(() -> new InternalErrorException("Lance created branch " + name + " of " + main.uri() + " but does not list it", null));
  }

  /**
   * Deletes the native branch {@code name} of the dataset at {@code main}: Lance removes the
   * branch's contents record, then reclaims its tree.
   *
   * @throws io.omnigraph.api.NotFoundException when there is no such branch
   * @throws ConflictException when Lance refuses (another branch was created from this one)
   */
  public void deleteBranch(LanceLocation main, String name) {
    try (TableSnapshot s = reader.openLatest(main)) {
      lance(main.uri(), () -> {
        try {
          s.dataset().branches().delete(name);
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          // Lance's native side throws a checked IOException (e.g. "Not found: .../tree/<name>").
          throw new LanceCalls.LanceCallFailure(e);
        }
        return null;
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
    Optional<TableSnapshot> existing = reader.openLatestIfExists(location);
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
   * Compacts the table's fragments (one Lance Rewrite commit; indexes are remapped in the same
   * commit) when its live HEAD is {@code expectedHead}; maintenance only, under the root's effect
   * window. Rows are unchanged.
   *
   * @return the HEAD after compaction ({@code expectedHead} when there was nothing to compact)
   * @throws ConflictException the live HEAD is not {@code expectedHead}
   */
  public long compact(LanceLocation location, String tableKey, long expectedHead) {
    return compact(location, tableKey, expectedHead, 0);
  }

  /** {@link #compact(LanceLocation, String, long)} with a Lance target rows per fragment (0: default; docs/maintenance.md). */
  public long compact(LanceLocation location, String tableKey, long expectedHead, long targetRowsPerFragment) {
    try (TableSnapshot s = reader.openLatest(location)) {
      requireHead(s, tableKey, expectedHead);
      lance(location.uri(), () -> {
        s.dataset().compact(TableReader.compaction(targetRowsPerFragment));
        return null;
      });
    }
    return reader.latestVersionKept(location);
  }

  /**
   * Folds fragments appended since each named index was built into it (Lance optimize_indices: one
   * commit when anything was unindexed), when the live HEAD is {@code expectedHead}. Only the named
   * (BTREE) indexes: an inverted index a distributed build wrote is rebuilt, never folded — Lance's
   * segment merge panics on it (docs/maintenance.md, "optimize").
   *
   * @return the HEAD afterwards
   * @throws ConflictException the live HEAD is not {@code expectedHead}
   */
  public long optimizeIndices(LanceLocation location, String tableKey, long expectedHead, List<String> indexNames) {
    try (TableSnapshot s = reader.openLatest(location)) {
      requireHead(s, tableKey, expectedHead);
      lance(location.uri(), () -> {
        s.dataset().optimizeIndices(org.lance.index.OptimizeOptions.builder().indexNames(List.copyOf(indexNames))
            .build());
        return null;
      });
    }
    return reader.latestVersionOf(location);
  }

  private static void requireHead(TableSnapshot s, String tableKey, long expectedHead) {
    if (s.version() != expectedHead) {
      throw new ConflictException("table " + tableKey + " has Lance HEAD " + s.version() + " but maintenance expected "
          + expectedHead, new ErrorDetail.ReadSetConflict("table_head:" + tableKey, Long.toString(expectedHead),
              Long.toString(s.version())));
    }
  }

  /** Prefix of the tags cleanup puts on versions it keeps; they live only while a cleanup runs. */
  public static final String PIN_TAG_PREFIX = "omnigraph-pin-";

  /**
   * Removes the versions of the ref {@code branch} ({@code null}: main) of the dataset at {@code main}
   * older than {@code beforeVersion} except {@code keep}, and the files only they reference
   * (unreferenced files younger than Lance's 7-day window stay). Lance keeps tagged versions, so each
   * kept one below the boundary is tagged ({@value #PIN_TAG_PREFIX}...) during the call; tags a
   * crashed cleanup left are removed first (docs/maintenance.md, "cleanup"). The caller holds the
   * root's effect window.
   *
   * @return the bytes Lance removed
   */
  public long cleanupKeeping(LanceLocation main, String branch, long beforeVersion, Set<Long> keep) {
    String ref = branch == null ? "main" : java.util.HexFormat.of().formatHex(branch.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    try (TableSnapshot root = reader.openLatest(main)) {
      lance(main.uri(), () -> {
        removePinTags(root.dataset());
        for (long v : new java.util.TreeSet<>(keep)) {
          if (v < beforeVersion) {
            root.dataset().tags().create(PIN_TAG_PREFIX + ref + "-" + v, branch == null ? Ref.ofMain(v) : Ref.ofBranch(branch, v));
          }
        }
        return null;
      });
      try (TableSnapshot s = reader.openLatest(TableReader.branchLocation(main, branch))) {
        return lance(main.uri(), () -> s.dataset().cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder()
            .withBeforeVersion(beforeVersion).withErrorIfTaggedOldVersions(false).build()).getBytesRemoved());
      } finally {
        lance(main.uri(), () -> removePinTags(root.dataset()));
      }
    }
  }

  private static Void removePinTags(Dataset ds) {
    for (org.lance.Tag t : ds.tags().list()) {
      if (t.getName().startsWith(PIN_TAG_PREFIX)) {
        ds.tags().delete(t.getName());
      }
    }
    return null;
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
    try (TableSnapshot out = mergeRowsOnKeyAndOpen(s, tableKey, keyColumn, rows)) {
      return out.version();
    }
  }

  /**
   * {@link #mergeRowsOnKey}, returning the handle Lance gives back for the committed version (the
   * caller closes or keeps it), so a caller can cache what that version holds and write on it next.
   */
  public TableSnapshot mergeRowsOnKeyAndOpen(TableSnapshot s, String tableKey, String keyColumn, VectorSchemaRoot rows) {
    MergeInsertParams params = new MergeInsertParams(List.of(keyColumn)).withMatchedUpdateAll()
        .withNotMatched(MergeInsertParams.WhenNotMatched.InsertAll).withConflictRetries(0).withSkipAutoCleanup(true);
    TableSnapshot out = lance(s.location().uri(), () -> {
      ArrowReader reader = ArrowBatches.reader(rows.getSchema(), List.of(rows), allocator);
      try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, reader, stream); // the stream now owns the reader
        return new TableSnapshot(s.location(), s.dataset().mergeInsert(params, stream).dataset());
      } catch (RuntimeException e) {
        throw LanceErrors.commitFailure(tableKey, e);
      }
    });
    long committed = out.version();
    if (committed != s.version() + 1) {
      out.close();
      throw new ConflictException(tableKey + " merge landed at version " + committed + " instead of "
          + (s.version() + 1), new ErrorDetail.ReadSetConflict("table_head:" + tableKey,
              Long.toString(s.version() + 1), Long.toString(committed)));
    }
    return out;
  }

  // ---------------------------------------------------------------- internals

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

  /** One Lance call of this class, its failures mapped ({@link LanceCalls}); a permission error names the write. */
  private static <T> T lance(String uri, java.util.function.Supplier<T> call) {
    return LanceCalls.lance(uri, "write", call);
  }
}
