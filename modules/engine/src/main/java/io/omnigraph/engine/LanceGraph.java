package io.omnigraph.engine;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.engine.export.GraphExport;
import io.omnigraph.engine.load.GraphLoad;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.mutate.GraphMutation;
import io.omnigraph.engine.plan.MutationPlan;
import io.omnigraph.engine.recovery.RecoveryAudit;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.engine.write.RecoveryGate;
import io.omnigraph.engine.write.WriteContext;
import io.omnigraph.engine.write.WriteGates;
import io.omnigraph.engine.write.WriteLease;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/** An open graph on Lance; see {@link Graph}. */
final class LanceGraph implements Graph {
  private final GraphRoot root;
  private final TableStore tables;
  /** The schema of main's head when the handle was opened: what queries are compiled against. */
  private volatile CompiledSchema schema;
  private final ManifestStore manifest;
  private final SnapshotResolver snapshots;
  /** The graph branch this handle reads and writes (the API's default). */
  private final String branch = GraphBranch.MAIN;
  private final ManifestPublisher publisher;
  private volatile GraphWrite writer;
  private final ReentrantLock writeGate;
  private volatile RecoverySweep recovery;
  private final WriteLease lease;
  private volatile boolean closed;
  /** Test seam: runs in every write attempt after preparation, right before the effect window. */
  volatile Runnable beforeEffectWindow = () -> { };
  /** Test seam: mints the id of every unkeyed node and edge a mutation inserts (fresh ULIDs). */
  volatile java.util.function.Supplier<String> newRowId = io.omnigraph.engine.schema.Ulid::generate;
  /** When writes compact by themselves (docs/maintenance.md, "Automatic maintenance"). */
  private volatile io.omnigraph.api.MaintenancePolicy maintenance = io.omnigraph.api.MaintenancePolicy.fromEnvironment();
  /** What published writes made due; run after the write, outside its effect window. */
  private final io.omnigraph.engine.maintenance.AutoMaintenance.Tracker maintenanceDue =
      new io.omnigraph.engine.maintenance.AutoMaintenance.Tracker();

  LanceGraph(GraphRoot root, TableStore tables, ManifestStore manifest, SnapshotResolver snapshots,
      CompiledSchema schema) {
    this.root = Objects.requireNonNull(root);
    this.tables = Objects.requireNonNull(tables);
    this.schema = Objects.requireNonNull(schema);
    this.manifest = Objects.requireNonNull(manifest);
    this.snapshots = Objects.requireNonNull(snapshots);
    this.publisher = new ManifestPublisher(tables, manifest);
    this.writeGate = WriteGates.of(root);
    this.lease = new WriteLease(root);
    bind(schema);
  }

  /**
   * Binds the handle to {@code accepted}: what queries compile against and what the recovery
   * sweep and every write's sidecar record as the schema authority (at open, and after this
   * handle applied a schema change).
   */
  private void bind(CompiledSchema accepted) {
    this.schema = accepted;
    this.recovery = RecoverySweep.forRoot(root, tables, manifest, publisher, accepted);
    this.writer = new GraphWrite(tables, publisher, recovery.sidecars(), recovery.schema(),
        new GraphWrite.Authority() {
          @Override
          public ManifestState freshState() {
            return state();
          }

          @Override
          public String schemaIdentity(ManifestState state) {
            return snapshots.schemaAt(state).ir().hash();
          }

          @Override
          public EffectWindow enter(String operation) {
            return EffectWindow.enter(writeGate, lease, operation);
          }

          @Override
          public String branchIdentity(String branch) {
            return LanceGraph.this.branchIdentity(branch);
          }

          @Override
          public void published(GraphWrite.Intent intent, GraphWrite.Outcome outcome) {
            maintenanceDue.published(maintenance, intent, outcome);
          }
        });
  }

  /** Sets when writes through this handle compact by themselves. */
  void maintenance(io.omnigraph.api.MaintenancePolicy policy) {
    this.maintenance = Objects.requireNonNull(policy, "policy");
  }

  /**
   * Runs the maintenance a write just made due, after that write is published and its effect window
   * closed ({@link io.omnigraph.engine.maintenance.AutoMaintenance}).
   *
   * @return warnings for the write's result; never throws for a maintenance failure
   */
  private List<io.omnigraph.api.WriteWarning> afterWrite() {
    return maintenanceDue.runIfDue(access(), recovery);
  }

  /** Runs this graph's recovery sweep inside the root's effect window; see {@link RecoveryGate#sweep}. */
  List<RecoverySweep.Outcome> recover(RecoverySweep.Mode mode) {
    return RecoveryGate.sweep(root, recovery, mode);
  }

  /** @return this graph's recovery sweep (callers hold the effect window) */
  RecoverySweep recovery() {
    return recovery;
  }

  @Override
  public String uri() {
    return root.uri();
  }

  @Override
  public LoadResult load(LoadMode mode, InputStream ndjson, LoadOptions options) {
    ensureOpen();
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(ndjson, "ndjson");
    Objects.requireNonNull(options, "options");
    io.omnigraph.engine.maintenance.AutoMaintenance.refuseReservedActor(options.actor());
    // Preparation runs concurrently; GraphWrite enters the effect window (gate + lease) itself.
    LoadResult result = underWriteGate(() -> new GraphLoad(writeContext(), options.branchOrMain(), mode, options)
        .run(ndjson));
    return result.withWarnings(afterWrite());
  }

  /** Runs one write after the write-entry recovery barrier ({@link RecoveryGate#beforeWrite}). */
  <T> T underWriteGate(java.util.function.Supplier<T> write) {
    RecoveryGate.beforeWrite(root, lease, recovery);
    return write.get();
  }

  @Override
  public LoadResult load(LoadMode mode, Path ndjson, LoadOptions options) {
    // Only the input's own failures are blamed on it (docs/errors.md): an undeclared IOException
    // from Lance's native binding is the graph's storage failing.
    io.omnigraph.engine.load.TrackedInput in;
    try {
      in = new io.omnigraph.engine.load.TrackedInput(Files.newInputStream(ndjson));
    } catch (IOException e) {
      throw new InvalidInputException("cannot read " + ndjson + ": " + e.getMessage(), null, e);
    }
    try (in) {
      return load(mode, in, options);
    } catch (IOException e) {
      if (in.threw(e)) {
        throw new InvalidInputException("cannot read " + ndjson + ": " + e.getMessage(), null, e);
      }
      throw io.omnigraph.engine.table.LanceErrors.asEngineError(root.uri(), "write", e);
    }
  }

  @Override
  public MutationResult mutate(String gqText, String queryName, QueryParams params, MutationOptions options) {
    ensureOpen();
    Objects.requireNonNull(gqText, "gqText");
    Objects.requireNonNull(queryName, "queryName");
    Objects.requireNonNull(options, "options");
    io.omnigraph.engine.maintenance.AutoMaintenance.refuseReservedActor(options.actor());
    // Compiled and bound before the gate: errors in the query or its parameters need no I/O.
    CompiledSchema s = schema;
    try {
      return run(GraphMutation.plan(s, gqText, queryName, params, Instant.now()), options, s);
    } catch (io.omnigraph.api.ConflictException e) {
      if (!staleSchema(e)) {
        throw e;
      }
      // Another handle applied a schema change: compile the text again against the accepted schema.
      CompiledSchema now = rebindToLatest();
      return run(GraphMutation.plan(now, gqText, queryName, params, Instant.now()), options, now);
    }
  }

  private static boolean staleSchema(io.omnigraph.api.ConflictException e) {
    return e.detail().orElse(null) instanceof io.omnigraph.api.ErrorDetail.ReadSetConflict r
        && r.member().equals(GraphMutation.STALE_SCHEMA_MEMBER);
  }

  private CompiledSchema rebindToLatest() {
    CompiledSchema now = snapshots.schemaAt(snapshots.latest());
    bind(now);
    return now;
  }

  @Override
  public PreparedMutation prepareMutation(String gqText, String queryName) {
    ensureOpen();
    Objects.requireNonNull(gqText, "gqText");
    Objects.requireNonNull(queryName, "queryName");
    return GraphMutation.compile(schema, gqText, queryName);
  }

  @Override
  public MutationResult mutate(PreparedMutation query, QueryParams params, MutationOptions options) {
    ensureOpen();
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(options, "options");
    io.omnigraph.engine.maintenance.AutoMaintenance.refuseReservedActor(options.actor());
    CompiledSchema s = schema;
    try {
      return run(GraphMutation.bind(s, query, params, Instant.now()), options, s);
    } catch (io.omnigraph.api.ConflictException e) {
      if (staleSchema(e)) {
        rebindToLatest(); // the next prepareMutation compiles against the accepted schema
      }
      throw e;
    }
  }

  // --- reads ---

  @Override
  public io.omnigraph.api.QueryResult query(String gqText, String queryName, QueryParams params,
      io.omnigraph.api.QueryOptions options) {
    ensureOpen();
    // the text's prepared query (and its idle plans) is kept: docs/queries.md, "Plan caching"
    return query(io.omnigraph.engine.read.QueryTextCache.SHARED.prepare(schema, gqText, queryName), params, options);
  }

  @Override
  public io.omnigraph.api.PreparedQuery prepareQuery(String gqText, String queryName) {
    ensureOpen();
    return io.omnigraph.engine.read.GraphReads.prepare(schema, gqText, queryName);
  }

  @Override
  public io.omnigraph.api.QueryResult query(io.omnigraph.api.PreparedQuery query, QueryParams params,
      io.omnigraph.api.QueryOptions options) {
    ensureOpen();
    return io.omnigraph.engine.read.GraphReads.run(snapshots, query, params, options);
  }

  @Override
  public String explainQuery(String gqText, String queryName, QueryParams params, io.omnigraph.api.QueryOptions options) {
    ensureOpen();
    return io.omnigraph.engine.read.GraphReads.explain(snapshots,
        io.omnigraph.engine.read.QueryTextCache.SHARED.prepare(schema, gqText, queryName), params, options);
  }

  @Override
  public List<io.omnigraph.api.QueryDiagnostic> checkQueries(String gqText) {
    ensureOpen();
    return io.omnigraph.engine.read.GraphReads.checkAll(schema, gqText);
  }

  private MutationResult run(MutationPlan plan, MutationOptions options, CompiledSchema compiledAgainst) {
    // Preparation runs concurrently (also between threads of this JVM); GraphWrite enters the
    // effect window (gate + lease) itself and the publish compare-and-set decides (docs/concurrency.md).
    MutationResult result = underWriteGate(() -> new GraphMutation(writeContext(), options.branchOrMain(), options)
        .expectingSchema(compiledAgainst.ir().hash()).run(plan));
    return result.withWarnings(afterWrite());
  }

  @Override
  public void export(OutputStream out, io.omnigraph.api.ExportOptions options) {
    ensureOpen();
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(options, "options");
    GraphRef ref = options.commitId().map(GraphRef::commit).orElseGet(() -> GraphRef.branch(options.branch().orElse(branch)));
    try (GraphSnapshot snapshot = snapshots.resolve(ref)) {
      new GraphExport(snapshot, options.typeNames().orElse(null)).writeTo(out);
    }
  }

  @Override
  public List<CommitInfo> commits() {
    ensureOpen();
    List<CommitInfo> out = new ArrayList<>();
    for (GraphCommit c : state().commitsNewestFirst()) {
      out.add(c.toInfo());
    }
    return out;
  }

  @Override
  public Optional<CommitInfo> commit(String commitId) {
    ensureOpen();
    Objects.requireNonNull(commitId, "commitId");
    if (commitId.isBlank()) {
      return Optional.empty();
    }
    try {
      return snapshots.state(GraphRef.commit(commitId)).commit(commitId).map(GraphCommit::toInfo);
    } catch (io.omnigraph.api.NotFoundException e) {
      return Optional.empty(); // no such commit on any live branch
    }
  }

  // --- branches ---

  @Override
  public List<io.omnigraph.api.BranchInfo> branches() {
    ensureOpen();
    return branchControl().list();
  }

  @Override
  public io.omnigraph.api.BranchInfo createBranch(String name, String from) {
    ensureOpen();
    return branchControl().create(name, from);
  }

  @Override
  public void deleteBranch(String name) {
    ensureOpen();
    Objects.requireNonNull(name, "name");
    branchControl().delete(name);
  }

  @Override
  public List<CommitInfo> commits(String branch) {
    ensureOpen();
    Objects.requireNonNull(branch, "branch");
    return snapshots.latest(branch).commitsNewestFirst().stream().map(GraphCommit::toInfo).toList();
  }

  @Override
  public io.omnigraph.api.MergeResult merge(String source, String target, io.omnigraph.api.MergeOptions options) {
    ensureOpen();
    if (options != null) {
      io.omnigraph.engine.maintenance.AutoMaintenance.refuseReservedActor(options.actor());
    }
    io.omnigraph.api.MergeResult r = io.omnigraph.engine.branch.BranchMerge.run(mergeContext(), source, target, options);
    if (r.tables().values().stream().anyMatch(t -> t.transactions() > 1 && !t.route().equals("proven_insert"))) {
      // A chunked merge's intermediate versions are not in the published one's file list (docs/cli.md, "File modes");
      // a proven-insert chain only adds fragments, so the chain's sync fixed every file it wrote.
      io.omnigraph.engine.storage.LocalFileModes.walk(root);
    }
    return r;
  }

  private io.omnigraph.engine.branch.BranchMerge.Context mergeContext() {
    return new io.omnigraph.engine.branch.BranchMerge.Context(tables, snapshots, publisher, recovery.sidecars(),
        recovery.schema(), () -> EffectWindow.enter(writeGate, lease, "merge " + ProcessHandle.current().pid()),
        this::branchIdentity, () -> RecoveryGate.beforeWrite(root, lease, recovery), this::deleteBranch,
        io.omnigraph.engine.storage.LocalFileAdoption.of(root).orElse(null));
  }

  /** @return the identity of {@code branch}; see {@link SnapshotResolver#branchIdentity} */
  String branchIdentity(String branch) {
    return snapshots.branchIdentity(branch);
  }

  private io.omnigraph.engine.branch.BranchControl branchControl() {
    return new io.omnigraph.engine.branch.BranchControl(root, tables, manifest, snapshots,
        () -> EffectWindow.enter(writeGate, lease, "branch " + ProcessHandle.current().pid()));
  }

  @Override
  public List<io.omnigraph.api.RecoveryRecord> recoveries() {
    ensureOpen();
    return recovery.audit().list().stream().map(RecoveryAudit.Row::toRecord).toList();
  }

  @Override
  public SchemaInfo schema() {
    ensureOpen();
    return schemaInfo(schema);
  }

  @Override
  public SchemaInfo schema(String branch) {
    ensureOpen();
    if (branch == null) {
      return schemaInfo(schema);
    }
    try (GraphSnapshot snapshot = snapshots.resolve(GraphRef.branch(branch))) {
      return schemaInfo(snapshot.schema());
    }
  }

  private static SchemaInfo schemaInfo(CompiledSchema s) {
    return new SchemaInfo(s.source(), s.ir().toJson(), s.ir().hash(),
        s.tables().stream().map(TableSpec::tableKey).sorted().toList());
  }

  // --- schema & maintenance ---

  @Override
  public io.omnigraph.api.SchemaPlan planSchema(String pgText) {
    ensureOpen();
    return io.omnigraph.engine.schema.migrate.SchemaMigration.plan(access(), pgText);
  }

  @Override
  public io.omnigraph.api.SchemaApplyResult applySchema(String pgText, io.omnigraph.api.SchemaApplyOptions options) {
    ensureOpen();
    if (options != null) {
      io.omnigraph.engine.maintenance.AutoMaintenance.refuseReservedActor(options.actor());
    }
    io.omnigraph.api.SchemaApplyResult r = io.omnigraph.engine.schema.migrate.SchemaMigration.apply(access(),
        pgText, options);
    if (r.applied()) {
      bind(snapshots.schemaAt(snapshots.latest()));
    }
    return r;
  }

  @Override
  public io.omnigraph.api.EnsureIndicesResult ensureIndices() {
    ensureOpen();
    return io.omnigraph.engine.index.EnsureIndices.run(access(), null);
  }

  @Override
  public io.omnigraph.api.EnsureIndicesResult ensureKeyIndices() {
    ensureOpen();
    return io.omnigraph.engine.index.EnsureIndices.run(access(), null, true);
  }

  @Override
  public io.omnigraph.api.OptimizeResult optimize() {
    ensureOpen();
    io.omnigraph.api.OptimizeResult r = io.omnigraph.engine.maintenance.Optimize.run(access(), null, recovery.schema());
    // Compaction and index folds make intermediate table versions, and the __manifest compaction
    // runs after the publish: files no published version lists (docs/cli.md, "File modes").
    io.omnigraph.engine.storage.LocalFileModes.walk(root);
    return r;
  }

  /** @return what the index and maintenance writers need of this handle */
  io.omnigraph.engine.index.GraphAccess access() {
    return new io.omnigraph.engine.index.GraphAccess(root, tables, manifest, publisher, snapshots, writer,
        recovery.sidecars(), () -> RecoveryGate.beforeWrite(root, lease, recovery),
        operation -> EffectWindow.enter(writeGate, lease, operation));
  }

  // --- snapshot (server) ---

  @Override
  public io.omnigraph.api.SnapshotInfo snapshot(String branch) {
    ensureOpen();
    String b = branch == null ? GraphBranch.MAIN : branch;
    return io.omnigraph.engine.manifest.SnapshotDescription.of(b, snapshots.latest(b));
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    OmnigraphException first = null;
    snapshots.close();
    try {
      root.close();
    } catch (OmnigraphException e) {
      first = e;
    }
    tables.close();
    if (first != null) {
      throw first;
    }
  }

  /** @return the latest manifest state */
  ManifestState state() {
    return snapshots.latest();
  }

  private void ensureOpen() {
    if (closed) {
      throw OmnigraphEngine.closed();
    }
  }

  GraphRoot root() {
    return root;
  }

  TableStore tables() {
    return tables;
  }

  CompiledSchema compiledSchema() {
    return schema;
  }

  ManifestStore manifest() {
    return manifest;
  }

  /** @return the resolver of this root's refs */
  SnapshotResolver snapshots() {
    return snapshots;
  }

  ManifestPublisher publisher() {
    return publisher;
  }

  /** @return the effect + publish half shared by every writer */
  GraphWrite writer() {
    return writer;
  }

  /** @return what a load or a mutation needs of this handle (the test seams are read per attempt) */
  WriteContext writeContext() {
    return new WriteContext(tables, snapshots, writer, () -> beforeEffectWindow.run(), () -> newRowId.get(),
        writeGate);
  }
}
