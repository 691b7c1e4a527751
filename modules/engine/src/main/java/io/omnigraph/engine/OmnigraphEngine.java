package io.omnigraph.engine;

import io.omnigraph.api.CleanupResult;
import io.omnigraph.engine.cleanup.HistoryCleanup;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.RecoveryOutcome;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.recovery.RecoverySweep;
import java.util.LinkedHashMap;
import java.util.Map;
import io.omnigraph.engine.write.Ahead;
import io.omnigraph.engine.write.RecoveryGate;
import io.omnigraph.api.Graph;
import io.omnigraph.api.GraphEngine;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.SchemaException;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.snapshot.GraphInit;
import io.omnigraph.engine.snapshot.SchemaFiles;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The engine behind {@link io.omnigraph.api.Omnigraph}: creates and opens graph roots laid out as
 * in docs/on-disk-layout.md (schema files, one Lance dataset per node and edge type, {@code __manifest}
 * with the commit lineage, internal storage version 6). Registered as the {@link GraphEngine}
 * service; applications use {@link io.omnigraph.api.Omnigraph} instead of this class.
 */
public final class OmnigraphEngine implements GraphEngine {
  static final String INIT_CLAIM = GraphInit.INIT_CLAIM;

  /** Public no-argument constructor for {@link java.util.ServiceLoader}. */
  public OmnigraphEngine() {}

  @Override
  public Graph init(String uri, String schemaText, OpenOptions options) {
    Objects.requireNonNull(schemaText, "schemaText");
    // The table store (Lance's native library, Arrow's first allocator) starts on a second thread
    // while this one compiles the schema: in a fresh process these are the two slowest steps of an
    // init, and they share nothing (docs/benchmarks.md, "Cold start of a bulk load").
    java.util.concurrent.FutureTask<TableStore> starting = startTableStore();
    io.omnigraph.engine.schema.ArrowSchemas.initializeAhead(); // the compile's slowest class, on a third thread
    CompiledSchema schema;
    GraphRoot root;
    try {
      schema = SchemaCompiler.compileForInit(schemaText, Ulid.generate());
      root = GraphRoot.open(uri, options.storageOptions());
    } catch (SchemaException e) {
      throw closingStarted(starting, SchemaFiles.invalid(e));
    } catch (RuntimeException e) {
      throw closingStarted(starting, e);
    } catch (Error e) {
      throw closingStarted(starting, e);
    }
    TableStore tables = null;
    try {
      tables = Ahead.await(starting);
      ManifestStore manifest = new ManifestStore(tables, root.lance(ManifestStore.PATH), io.omnigraph.engine.storage.CommitDurability.of(root));
      SnapshotResolver snapshots = GraphInit.create(root, tables, manifest, schema);
      LanceGraph graph = new LanceGraph(root, tables, manifest, snapshots, schema);
      graph.maintenance(options.maintenance());
      return graph;
    } catch (RuntimeException e) {
      closeAfterFailure(root, tables, e);
      throw e;
    }
  }

  private static java.util.concurrent.FutureTask<TableStore> startTableStore() {
    java.util.concurrent.FutureTask<TableStore> task = new java.util.concurrent.FutureTask<>(TableStore::new);
    Thread t = new Thread(task, "omnigraph-table-store-start");
    t.setDaemon(true);
    t.start();
    return task;
  }

  /** Waits for the started table store and closes it; a failure of either is added to {@code primary}. */
  private static <T extends Throwable> T closingStarted(java.util.concurrent.FutureTask<TableStore> starting, T primary) {
    try {
      Ahead.await(starting).close();
    } catch (RuntimeException | Error closing) {
      primary.addSuppressed(closing);
    }
    return primary;
  }

  @Override
  public Graph open(String uri, OpenOptions options) {
    LanceGraph graph = (LanceGraph) open(GraphRoot.open(uri, options.storageOptions()));
    graph.maintenance(options.maintenance());
    return graph;
  }

  /**
   * Test seam: {@link #open(String, OpenOptions)} (read-write, with the full recovery sweep) on a
   * root the caller opened, e.g. over an adapter whose I/O passes a fault hook
   * ({@link GraphRoot#over}). Takes ownership of {@code root} (closed on failure, or with the
   * returned graph). Not part of the engine's API.
   */
  static Graph open(GraphRoot root) {
    String uri = root.uri();
    TableStore tables = null;
    try {
      tables = new TableStore();
      ManifestStore manifest = new ManifestStore(tables, root.lance(ManifestStore.PATH), io.omnigraph.engine.storage.CommitDurability.of(root));
      // The stamp is checked before anything else of the graph is read (docs/on-disk-layout.md,
      // "Storage version").
      try {
        SnapshotResolver snapshots = new SnapshotResolver(root, tables, manifest);
        CompiledSchema schema = snapshots.schemaAt(snapshots.latest());
        LanceGraph graph = new LanceGraph(root, tables, manifest, snapshots, schema);
        // Read-write open: the full sweep resolves every interrupted write before the handle is returned.
        graph.recover(io.omnigraph.engine.recovery.RecoverySweep.Mode.FULL);
        return graph;
      } catch (NotFoundException e) {
        if (root.exists(INIT_CLAIM)) {
          throw new ConflictException("the graph at " + uri + " is being initialized, or its init was interrupted ("
              + INIT_CLAIM + " exists)", null, e);
        }
        throw new NotFoundException("no graph at " + uri, null, e);
      }
    } catch (RuntimeException e) {
      closeAfterFailure(root, tables, e);
      throw e;
    }
  }

  @Override
  public List<RecoveryOutcome> repair(String uri, OpenOptions options, boolean dryRun) {
    List<RecoveryOutcome> out = new ArrayList<>();
    for (RecoverySweep.Outcome o : sweep(uri, options, dryRun)) {
      Map<String, String> tables = new LinkedHashMap<>();
      o.tables().forEach((k, v) -> tables.put(k, v.name()));
      Map<String, String> versions = new LinkedHashMap<>();
      o.outcomes().forEach(t -> versions.put(t.tableKey(), t.fromVersion() + "->" + t.toVersion()));
      out.add(new RecoveryOutcome(o.operationId(), o.writerKind(), o.actorId(), tables,
          o.decision() == null ? null : o.decision().name(), o.action().name(), o.detail(), versions));
    }
    return out;
  }

  /** The sweep behind {@link #repair(String, OpenOptions, boolean)}, with the engine's own outcome type. */
  static List<RecoverySweep.Outcome> sweep(String uri, OpenOptions options, boolean dryRun) {
    return withOpenRoot(uri, options, (root, tables, manifest, schema) -> {
      RecoverySweep sweep = RecoverySweep.forRoot(root, tables, manifest, new ManifestPublisher(tables, manifest),
          schema);
      return RecoveryGate.sweep(root, sweep, dryRun ? RecoverySweep.Mode.DRY_RUN : RecoverySweep.Mode.FULL);
    });
  }

  @Override
  public CleanupResult cleanup(String uri, OpenOptions options) {
    io.omnigraph.api.CleanupReport report = cleanup(uri, options, io.omnigraph.api.CleanupOptions.defaults());
    Map<String, Long> removed = new java.util.TreeMap<>();
    report.tables().forEach(t -> removed.merge(t.table(), (long) t.versions().size(), Long::sum));
    return new CleanupResult(removed);
  }

  // --- schema & maintenance ---

  @Override
  public io.omnigraph.api.CleanupReport cleanup(String uri, OpenOptions options, io.omnigraph.api.CleanupOptions cleanup) {
    return withOpenRoot(uri, options, (root, tables, manifest, schema) -> {
      RecoverySweep sweep = RecoverySweep.forRoot(root, tables, manifest, new ManifestPublisher(tables, manifest),
          schema);
      SnapshotResolver snapshots = new SnapshotResolver(root, tables, manifest);
      try {
        return HistoryCleanup.run(root, tables, sweep.sidecars(), snapshots, manifest, cleanup,
            java.time.Clock.systemUTC());
      } finally {
        snapshots.close();
      }
    });
  }

  private interface RootWork<T> {
    T run(GraphRoot root, TableStore tables, ManifestStore manifest, CompiledSchema schema);
  }

  /** Opens the root, its manifest (stamp checked) and schema, runs {@code work}, closes everything. */
  private static <T> T withOpenRoot(String uri, OpenOptions options, RootWork<T> work) {
    GraphRoot root = GraphRoot.open(uri, options.storageOptions());
    TableStore tables = null;
    try {
      tables = new TableStore();
      ManifestStore manifest = new ManifestStore(tables, root.lance(ManifestStore.PATH), io.omnigraph.engine.storage.CommitDurability.of(root));
      try {
        SnapshotResolver snapshots = new SnapshotResolver(root, tables, manifest);
        CompiledSchema schema = snapshots.schemaAt(snapshots.latest());
        T result = work.run(root, tables, manifest, schema);
        tables.close();
        root.close();
        return result;
      } catch (NotFoundException e) {
        throw new NotFoundException("no graph at " + uri, null, e);
      }
    } catch (RuntimeException e) {
      closeAfterFailure(root, tables, e);
      throw e;
    }
  }

  static long nowMicros() {
    return io.omnigraph.engine.write.GraphWrite.nowMicros();
  }

  private static void closeAfterFailure(GraphRoot root, TableStore tables, RuntimeException primary) {
    try {
      if (tables != null) {
        tables.close();
      }
      root.close();
    } catch (OmnigraphException | IllegalStateException e) {
      primary.addSuppressed(e);
    }
  }

  static InvalidInputException closed() {
    return new InvalidInputException("this graph handle is closed", null);
  }
}
