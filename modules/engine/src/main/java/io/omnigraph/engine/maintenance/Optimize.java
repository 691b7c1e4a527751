package io.omnigraph.engine.maintenance;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.OptimizeResult;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.index.GraphAccess;
import io.omnigraph.engine.index.IndexPlanner;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.table.IndexSpec;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Optimize writer (docs/maintenance.md): compacts the fragments of every data table that has
 * more than one, folds fragments appended since an index was built into it, builds the indexes the
 * schema calls for that are missing, publishes every optimized table in ONE graph commit under ONE
 * Optimize sidecar, then compacts {@code __manifest} (physical only, no commit).
 *
 * <p>The whole run holds the root's effect window (this process's gate, then the write lease), so
 * no other writer commits meanwhile; the entry barrier (roll-forward-only) runs first and the
 * under-gate re-list refuses to run past a pending sidecar. Rows never change: every Lance commit it
 * makes is a Rewrite (compaction) or a CreateIndex (fold or build), which is what recovery checks
 * before rolling an interrupted optimize forward.
 */
public final class Optimize {
  /** Commit message of an optimize commit. */
  public static final String MESSAGE = "optimize";
  /** A table with at least this many fragments is compacted. */
  public static final int MIN_FRAGMENTS = 2;

  private Optimize() {}

  /**
   * What one run may touch.
   *
   * @param tables the table keys to plan, or {@code null} for every table of the accepted schema
   * @param buildIndexes whether missing indexes are built and uncovered inverted/vector indexes
   *     rebuilt (explicit optimize); {@code false}: only compaction and BTREE folds (automatic
   *     maintenance, whose cost must stay proportional to the fragments it compacts)
   * @param message the commit message
   * @param targetRowsPerFragment Lance's compaction target for the data tables (0: Lance's
   *     default); fragments at least this large are not rewritten unless their deletions call for it
   * @param foldRows 0: every BTREE index that misses fragments is folded; positive: a table's BTREE
   *     indexes are folded only when one of them misses at least {@link #foldBound} rows (a fold
   *     rewrites the whole index, so automatic maintenance folds a growing tail only now and then;
   *     the tail stays compacted and the id probe's memory knows it: docs/maintenance.md)
   * @param compactManifest whether the run ends with the {@code __manifest} compaction
   */
  public record Scope(Set<String> tables, boolean buildIndexes, String message, long targetRowsPerFragment,
      long foldRows, boolean compactManifest) {
    /** Every table, every index, Lance's compaction target: {@code omnigraph optimize}. */
    public static final Scope ALL = new Scope(null, true, MESSAGE, 0, 0, true);

    public Scope {
      tables = tables == null ? null : Set.copyOf(tables);
      java.util.Objects.requireNonNull(message, "message");
    }

    boolean includes(String tableKey) {
      return tables == null || tables.contains(tableKey);
    }

    /**
     * @return the unindexed rows at which a table of {@code rows} rows has its BTREE indexes folded:
     *     {@code foldRows} or a sixteenth of the table, whichever is smaller (at least 1), so a small
     *     table is folded at every run and a big one once its tail is worth the rewrite
     */
    long foldBound(long rows) {
      return foldRows <= 0 ? 1 : Math.max(1, Math.min(foldRows, rows / 16));
    }
  }

  record TablePlan(TableSpec spec, TableEntry entry, LanceLocation location, int fragments, boolean compact,
      List<String> unindexed, List<IndexSpec> missing, List<String> rebuilt) {
    boolean productive() {
      return compact || !unindexed.isEmpty() || !missing.isEmpty();
    }
  }

  /**
   * @param g the graph
   * @param actor who asks ({@code null}: nobody named)
   * @param schemaAuthority the accepted schema identity recorded in the sidecar
   */
  public static OptimizeResult run(GraphAccess g, String actor, RecoverySweep.SchemaAuthority schemaAuthority) {
    return run(g, actor, schemaAuthority, Scope.ALL);
  }

  /**
   * {@link #run(GraphAccess, String, RecoverySweep.SchemaAuthority)} limited to {@code scope}; the
   * protocol (entry barrier, window, one sidecar, one publish, {@code __manifest} compaction) is the
   * same.
   */
  public static OptimizeResult run(GraphAccess g, String actor, RecoverySweep.SchemaAuthority schemaAuthority,
      Scope scope) {
    g.entryBarrier().run();
    TableStore tables = g.tables();
    try (EffectWindow window = g.window().apply(scope.message() + " " + ProcessHandle.current().pid())) {
      g.sidecars().requireNonePending();
      ManifestState state = g.snapshots().latest();
      CompiledSchema schema = g.snapshots().schemaAt(state);
      String branch = GraphBranch.MAIN;
      List<TablePlan> plans = new ArrayList<>();
      for (TableSpec spec : schema.tables()) {
        if (!scope.includes(spec.tableKey())) {
          continue;
        }
        TablePlan p = plan(g, schema, spec, state.table(spec.tableKey()).orElseThrow(), scope);
        if (p.productive()) {
          plans.add(p);
        }
      }
      String commitId = null;
      List<OptimizeResult.TableOptimized> done = new ArrayList<>();
      if (!plans.isEmpty()) {
        window.checkValid();
        commitId = Ulid.generate();
        long createdAt = GraphWrite.nowMicros();
        List<WriteIntent.PlannedTable> planned = new ArrayList<>();
        for (TablePlan p : plans) {
          planned.add(new WriteIntent.PlannedTable(identity(p.spec()), p.spec().tableKey(), p.location().uri(),
              p.entry().version(), ""));
        }
        Optional<String> head = state.headCommitId(branch);
        WriteIntent sidecar = WriteIntent.armMaintenance(g.sidecars(), branch, actor, scope.message(), head,
            schemaAuthority,
            commitId, createdAt, planned);
        String operation = sidecar.operationId();
        List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        try {
          Failpoints.hit(Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT);
          for (TablePlan p : plans) {
            String key = p.spec().tableKey();
            long v = p.entry().version();
            // Indexes first: Lance compacts fragments covered by different index bitmaps separately, so a
            // fold before the compaction lets it merge everything into as few fragments as possible.
            List<String> folded = new ArrayList<>();
            if (!p.unindexed().isEmpty()) {
              long before = v;
              v = tables.writer().optimizeIndices(p.location(), key, v, p.unindexed());
              if (v != before) {
                folded.addAll(p.unindexed());
              }
            }
            List<String> built = new ArrayList<>();
            if (!p.missing().isEmpty()) {
              try (TableSnapshot s = tables.reader().openAt(p.location(), v)) {
                StagedWrite staged = tables.writer().stageCreateIndices(s, key, p.missing(), p.rebuilt());
                v = tables.writer().commitStaged(s, staged);
              }
              p.missing().forEach(i -> (p.rebuilt().contains(i.name()) ? folded : built).add(i.name()));
            }
            boolean compacted = p.compact() || !p.unindexed().isEmpty() || !p.rebuilt().isEmpty();
            if (compacted) {
              v = tables.writer().compact(p.location(), key, v, scope.targetRowsPerFragment());
            }
            int after;
            long rows;
            // Kept open afterwards: the next write on this table stages on exactly this version
            // (docs/maintenance.md, "Request count of a 1-row insert").
            TableSnapshot counted = tables.reader().openAt(p.location(), v);
            try {
              after = tables.reader().fragmentCount(counted);
              rows = tables.reader().countRows(counted);
              if (compacted) {
                // The id probe of the next write then reads none of the fragments compaction made
                // (docs/maintenance.md, "Flat write cost").
                tables.reader().learnIds(counted);
              }
            } finally {
              tables.reader().keep(counted);
            }
            if (v != p.entry().version()) {
              ManifestPublisher.TableUpdate u = new ManifestPublisher.TableUpdate(identity(p.spec()), key, v, rows,
                  p.location().uri());
              // Durability (docs/write-protocol.md, "Durability"): recovery rolls an optimize forward from its
              // Armed sidecar onto whatever HEAD it finds, so each table's new versions are made durable right
              // after they land, before the next table's effects (the publish then finds them synced).
              g.publisher().makeDurable(List.of(u), Map.of(key, p.entry().version()));
              updates.add(u);
              expected.put(key, p.entry().version());
            }
            Failpoints.hit(Failpoints.OPTIMIZE_POST_TABLE_EFFECT);
            done.add(new OptimizeResult.TableOptimized(key, p.entry().version(), v, p.fragments(), after, folded, built));
          }
          window.checkValid();
          Failpoints.hit(Failpoints.OPTIMIZE_PRE_PUBLISH);
          if (!updates.isEmpty()) {
            g.publisher().publish(new ManifestPublisher.PublishRequest(branch, updates, expected, head,
                new ManifestPublisher.LineageIntent(commitId, actor, scope.message(), createdAt)));
          } else {
            commitId = null;
          }
          Failpoints.hit(Failpoints.OPTIMIZE_POST_PUBLISH_PRE_RETIRE);
        } catch (OmnigraphException e) {
          throw new RecoveryRequiredException("recovery required for operation " + operation + ": optimize failed ("
              + e.getMessage() + "); the sidecar " + RecoverySidecar.path(operation) + " lets the next write or open"
              + " publish the compacted tables", new ErrorDetail.RecoveryRequired(operation), e);
        }
        sidecar.retirePublished(); // the publish is durable: the removal need not be
      }
      // __manifest: physical only (a Rewrite, same rows); every version a commit names stays until cleanup.
      int mBefore = 0;
      int mAfter = 0;
      if (scope.compactManifest()) {
        LanceLocation manifest = g.root().lance(ManifestStore.PATH);
        long mHead = tables.reader().latestVersionOf(manifest);
        boolean compactManifest;
        try (TableSnapshot s = tables.reader().openAt(manifest, mHead)) {
          mBefore = tables.reader().fragmentCount(s);
          compactManifest = mBefore >= MIN_FRAGMENTS && tables.reader().needsCompaction(s);
        }
        mAfter = mBefore;
        if (compactManifest) {
          window.checkValid();
          long v = tables.writer().compact(manifest, ManifestStore.PATH, mHead);
          // The compacted version is the manifest's HEAD, which every reader opens: durable before optimize returns.
          g.manifest().durability().syncOnce(tables.reader(),
              List.of(new io.omnigraph.engine.storage.CommitDurability.TableCommit(manifest, mHead, v)));
          TableSnapshot compacted = tables.reader().openAt(manifest, v);
          try {
            mAfter = tables.reader().fragmentCount(compacted);
            // Read now, with the address of each branch's head row: the next write's capture and its
            // addressed publish then read nothing (docs/maintenance.md, "Flat write cost").
            g.manifest().read(compacted);
          } finally {
            g.manifest().keep(compacted); // the next write captures this version with one LIST
          }
        }
      }
      return new OptimizeResult(commitId, done, mBefore, mAfter);
    }
  }

  static TablePlan plan(GraphAccess g, CompiledSchema schema, TableSpec spec, TableEntry entry, Scope scope) {
    boolean buildIndexes = scope.buildIndexes();
    LanceLocation loc = g.root().lance(entry.path());
    try (TableSnapshot s = g.tables().reader().openAt(loc, entry.version())) {
      long head = g.tables().reader().latestVersion(s);
      if (head != entry.version()) {
        throw new io.omnigraph.api.ConflictException("table " + spec.tableKey() + " has Lance HEAD " + head
            + " but the graph publishes " + entry.version() + ": an earlier write committed without publishing; the"
            + " table needs repair", new ErrorDetail.ReadSetConflict("table_head:" + spec.tableKey(),
                Long.toString(entry.version()), Long.toString(head)));
      }
      int fragments = g.tables().reader().fragmentCount(s);
      Map<String, Long> coverage = g.tables().reader().indexCoverage(s);
      // BTREE indexes are folded (Lance optimize_indices); an inverted or vector index that lacks
      // fragments is rebuilt over all of them in the CreateIndex transaction that builds missing ones:
      // Lance cannot append to the segments a distributed build writes.
      List<String> unindexed = new ArrayList<>();
      List<IndexSpec> missing = new ArrayList<>();
      List<String> rebuilt = new ArrayList<>();
      Set<String> existing = new HashSet<>(coverage.keySet());
      if (entry.rowCount() > 0) {
        for (IndexPlanner.Wanted w : IndexPlanner.wanted(schema, spec, entry.rowCount())) {
          String name = w.spec().name();
          if (w.deferredReason() != null) {
            continue;
          }
          if (!existing.contains(name)) {
            if (buildIndexes) {
              missing.add(w.spec());
            }
          } else if (coverage.get(name) > 0) {
            if (w.spec() instanceof IndexSpec.BTree) {
              unindexed.add(name);
            } else if (buildIndexes) {
              missing.add(w.spec());
              rebuilt.add(name);
            }
          }
        }
      }
      long uncovered = unindexed.stream().mapToLong(coverage::get).max().orElse(0);
      if (uncovered < scope.foldBound(entry.rowCount())) {
        unindexed.clear(); // not yet worth rewriting the index: the tail is compacted on its own
      }
      boolean compact = fragments >= MIN_FRAGMENTS
          && g.tables().reader().needsCompaction(s, scope.targetRowsPerFragment());
      return new TablePlan(spec, entry, loc, fragments, compact, unindexed, missing, rebuilt);
    }
  }

  private static TableIdentity identity(TableSpec spec) {
    return new TableIdentity(spec.stableTableId(), spec.tableIncarnationId());
  }
}
