package io.omnigraph.engine;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.query.MutationPlan;
import io.omnigraph.engine.recovery.RecoveryAudit;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.recovery.SidecarCodec;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.snapshot.SchemaFiles;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.engine.write.WriteLease;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/** An open graph on Lance; see {@link Graph}. */
final class LanceGraph implements Graph {
  /** Process-local write gates, one per graph root, shared by every handle on that root. */
  private static final ConcurrentHashMap<String, ReentrantLock> WRITE_GATES = new ConcurrentHashMap<>();

  private final GraphRoot root;
  private final TableStore tables;
  /** The schema of main's head when the handle was opened: what queries are compiled against. */
  private final CompiledSchema schema;
  private final ManifestStore manifest;
  private final SnapshotResolver snapshots;
  /** The graph branch this handle reads and writes (the API's default). */
  private final String branch = GraphBranch.MAIN;
  private final ManifestPublisher publisher;
  private final GraphWrite writer;
  private final ReentrantLock writeGate;
  private final RecoverySweep recovery;
  private final WriteLease lease;
  private volatile boolean closed;
  /** Test seam: runs in every write attempt after preparation, right before the effect window. */
  volatile Runnable beforeEffectWindow = () -> { };
  /** Test seam: mints the id of every unkeyed node and edge a mutation inserts (fresh ULIDs). */
  volatile java.util.function.Supplier<String> newRowId = io.omnigraph.engine.schema.Ulid::generate;

  LanceGraph(GraphRoot root, TableStore tables, ManifestStore manifest, SnapshotResolver snapshots,
      CompiledSchema schema) {
    this.root = Objects.requireNonNull(root);
    this.tables = Objects.requireNonNull(tables);
    this.schema = Objects.requireNonNull(schema);
    this.manifest = Objects.requireNonNull(manifest);
    this.snapshots = Objects.requireNonNull(snapshots);
    this.publisher = new ManifestPublisher(tables, manifest);
    this.writeGate = WRITE_GATES.computeIfAbsent(root.identity(), k -> new ReentrantLock());
    this.recovery = recoverySweep(root, tables, manifest, publisher, schema);
    this.lease = new WriteLease(root);
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
        });
  }

  /** The recovery sweep of a graph root (also used by repair before a graph handle exists). */
  static RecoverySweep recoverySweep(GraphRoot root, TableStore tables, ManifestStore manifest,
      ManifestPublisher publisher, CompiledSchema schema) {
    SidecarStore sidecars = new SidecarStore(root, new SidecarCodec(
        pin -> root.lance(pin.identity().canonicalPath(pin.tableKey())).uri()));
    return new RecoverySweep(root, tables, manifest, publisher, sidecars,
        new RecoveryAudit(tables, root.lance(RecoveryAudit.PATH)),
        new RecoverySweep.SchemaAuthority(schema.ir().identityDomain(), schema.ir().hash(),
            SchemaFiles.IDENTITY_VERSION));
  }

  /** @return the process-local write gate of the root {@code identity} */
  static ReentrantLock writeGate(String identity) {
    return WRITE_GATES.computeIfAbsent(identity, k -> new ReentrantLock());
  }

  /**
   * Enters the exclusive effect window of a graph root (this process's write gate, then the graph's
   * cross-process {@link WriteLease}) for work that is not a {@link GraphWrite}: the recovery sweep
   * and cleanup. A sweep holding it cannot race a live writer of any process, so it never rolls
   * back an intent whose writer is still committing.
   */
  static EffectWindow exclusive(GraphRoot root, String operation) {
    return EffectWindow.enter(writeGate(root.identity()), new WriteLease(root),
        operation + " " + ProcessHandle.current().pid());
  }

  /**
   * Runs a recovery sweep inside the root's effect window ({@link RecoverySweep.Mode#DRY_RUN} changes nothing
   * and holds only this process's gate). The lease is checked before each sidecar is resolved. When
   * {@code __recovery/} lists nothing, no window is entered (one listing is the steady-state cost).
   *
   * @return what it did, per sidecar
   */
  List<RecoverySweep.Outcome> recover(RecoverySweep.Mode mode) {
    return recover(root, recovery, mode);
  }

  /** {@link #recover(RecoverySweep.Mode)} for a sweep built before a graph handle exists. */
  static List<RecoverySweep.Outcome> recover(GraphRoot root, RecoverySweep sweep, RecoverySweep.Mode mode) {
    // Steady state: one listing, no lease traffic. Nothing listed means nothing to resolve; an intent
    // armed after this listing belongs to a live writer, which resolves it itself.
    if (sweep.sidecars().list().isEmpty()) {
      return List.of();
    }
    if (mode == RecoverySweep.Mode.DRY_RUN) {
      ReentrantLock gate = writeGate(root.identity());
      gate.lock();
      try {
        return sweep.run(mode, () -> { });
      } finally {
        gate.unlock();
      }
    }
    try (EffectWindow window = exclusive(root, "recovery")) {
      return sweep.run(mode, window::checkValid);
    }
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
    // Preparation runs concurrently; GraphWrite enters the effect window (gate + lease) itself.
    return underWriteGate(() -> new GraphLoad(this, branch, mode, options).run(ndjson));
  }

  /**
   * Runs one write after the write-entry recovery barrier: when {@code __recovery/} lists any
   * sidecar, the barrier enters the effect window (gate + lease) and heals roll-forward-only (a
   * confirmed write whose publish failed is published); a sidecar still unresolved refuses the
   * write with RecoveryRequired (HTTP 503). The steady state costs one listing. Every writer (load,
   * mutation) enters through here; {@link GraphWrite} re-lists inside its own effect window.
   */
  <T> T underWriteGate(java.util.function.Supplier<T> write) {
    if (!recovery.sidecars().list().isEmpty()) {
      try (EffectWindow window = EffectWindow.enter(writeGate, lease, "recovery heal "
          + ProcessHandle.current().pid())) {
        recovery.barrier(window::checkValid);
      }
    }
    return write.get();
  }

  @Override
  public LoadResult load(LoadMode mode, Path ndjson, LoadOptions options) {
    try (InputStream in = Files.newInputStream(ndjson)) {
      return load(mode, in, options);
    } catch (IOException e) {
      throw new InvalidInputException("cannot read " + ndjson + ": " + e.getMessage(), null, e);
    }
  }

  @Override
  public MutationResult mutate(String gqText, String queryName, QueryParams params, MutationOptions options) {
    ensureOpen();
    Objects.requireNonNull(gqText, "gqText");
    Objects.requireNonNull(queryName, "queryName");
    Objects.requireNonNull(options, "options");
    // Compiled and bound before the gate: errors in the query or its parameters need no I/O.
    return run(GraphMutation.plan(schema, gqText, queryName, params, Instant.now()), options);
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
    if (!(query instanceof GraphMutation.Prepared p) || !p.schemaHash().equals(schema.ir().hash())) {
      throw new InvalidInputException("mutation '" + query.queryName() + "' was prepared for a different schema;"
          + " prepare it with this graph's prepareMutation", new ErrorDetail.Validation(null, null, null, "stale_query"));
    }
    return run(GraphMutation.bind(p, params, Instant.now()), options);
  }

  private MutationResult run(MutationPlan plan, MutationOptions options) {
    return underWriteGate(() -> {
      writeGate.lock();
      try {
        return new GraphMutation(this, branch, options).run(plan);
      } finally {
        writeGate.unlock();
      }
    });
  }

  @Override
  public void export(OutputStream out) {
    ensureOpen();
    Objects.requireNonNull(out, "out");
    try (GraphSnapshot snapshot = snapshots.resolve(GraphRef.branch(branch))) {
      new GraphExport(snapshot).writeTo(out);
    }
  }

  @Override
  public List<CommitInfo> commits() {
    ensureOpen();
    List<CommitInfo> out = new ArrayList<>();
    for (GraphCommit c : state().commitsNewestFirst()) {
      out.add(info(c));
    }
    return out;
  }

  @Override
  public Optional<CommitInfo> commit(String commitId) {
    ensureOpen();
    return state().commit(commitId).map(LanceGraph::info);
  }

  @Override
  public List<io.omnigraph.api.RecoveryRecord> recoveries() {
    ensureOpen();
    List<io.omnigraph.api.RecoveryRecord> out = new ArrayList<>();
    for (RecoveryAudit.Row r : recovery.audit().list()) {
      out.add(new io.omnigraph.api.RecoveryRecord(r.graphCommitId(), r.kind().name(), r.recoveryForActor(),
          r.operationId(), r.writerKind(), r.outcomes().stream().map(o -> new io.omnigraph.api.RecoveryRecord.TableOutcome(
              o.tableKey(), o.fromVersion(), o.toVersion())).toList(),
          Instant.EPOCH.plus(r.createdAtMicros(), ChronoUnit.MICROS)));
    }
    return out;
  }

  @Override
  public SchemaInfo schema() {
    ensureOpen();
    return new SchemaInfo(schema.source(), schema.ir().toJson(), schema.ir().hash(),
        schema.tables().stream().map(TableSpec::tableKey).sorted().toList());
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    OmnigraphException first = null;
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

  private static CommitInfo info(GraphCommit c) {
    List<String> parents = new ArrayList<>();
    if (c.parentCommitId() != null) {
      parents.add(c.parentCommitId());
    }
    if (c.mergedParentCommitId() != null) {
      parents.add(c.mergedParentCommitId());
    }
    Instant at = Instant.EPOCH.plus(c.createdAtMicros(), ChronoUnit.MICROS);
    return new CommitInfo(c.commitId(), parents, c.actorId(), c.message(), at, c.manifestVersion(), c.tableVersions());
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
}
