package io.omnigraph.engine;

import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.load.ArrowRows;
import io.omnigraph.engine.load.GraphLoader;
import io.omnigraph.engine.load.TableRows;
import io.omnigraph.engine.load.ValidatedLoad;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.KeyedWriteMode;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.KeyedWrites;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Drives one merge-mode write through the real primitives (validation, TableStore staging,
 * {@link WriteIntent}, exact commits, the publisher) and stops where a crash would, leaving the
 * graph root exactly as a dead process would leave it. Tests then reopen and check the sweep.
 */
final class InterruptedWrite {
  /** Where the write stops. */
  enum StopAt {
    /** Phase A done, no table committed. */
    AFTER_ARM,
    /** The first table committed, the rest not, sidecar Armed. */
    AFTER_FIRST_COMMIT,
    /** Every table committed, sidecar still Armed. */
    AFTER_ALL_COMMITS,
    /** Every table committed and the sidecar confirmed; not published. */
    AFTER_CONFIRM,
    /** Published; the sidecar was not deleted (Phase D failed). */
    AFTER_PUBLISH
  }

  final RecoverySidecar sidecar;
  final String commitId;

  private InterruptedWrite(RecoverySidecar sidecar, String commitId) {
    this.sidecar = sidecar;
    this.commitId = commitId;
  }

  static InterruptedWrite run(LanceGraph graph, String ndjson, String actor, StopAt stop) {
    TableStore tables = graph.tables();
    List<VectorSchemaRoot> open = new ArrayList<>();
    try (GraphSnapshot committed = graph.snapshots().resolve(GraphRef.main())) {
      ManifestState state = committed.manifest();
      Optional<String> head = Optional.ofNullable(state.graphHeads().get("main"));
      ValidatedLoad validated;
      try {
        validated = new GraphLoader(committed.schema(), LoadMode.MERGE, committed).load(new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      List<TableSpec> specs = new ArrayList<>();
      List<StagedWrite> staged = new ArrayList<>();
      List<WriteIntent.PlannedTable> planned = new ArrayList<>();
      for (TableRows rows : validated.tables()) {
        TableSpec spec = rows.spec();
        TableSnapshot snap = committed.table(spec.tableKey());
        List<VectorSchemaRoot> batches = ArrowRows.toBatches(rows, tables.allocator(), KeyedWrites.MAX_ROWS);
        open.addAll(batches);
        StagedWrite w = KeyedWrites.stage(tables.writer(), snap, spec.tableKey(), batches.get(0), KeyedWriteMode.UPSERT);
        specs.add(spec);
        staged.add(w);
        TableEntry entry = committed.entry(spec.tableKey());
        planned.add(new WriteIntent.PlannedTable(identity(spec), spec.tableKey(), snap.location().uri(),
            entry.version(), w.uuid()));
      }
      String commitId = Ulid.generate();
      long createdAt = OmnigraphEngine.nowMicros();
      WriteIntent intent = WriteIntent.arm(graph.recovery().sidecars(), RecoverySidecar.WriterKind.LOAD, GraphBranch.MAIN, actor,
          "interrupted", head, graph.recovery().schema(), commitId, createdAt, planned);
      if (stop == StopAt.AFTER_ARM) {
        return new InterruptedWrite(intent.sidecar(), commitId);
      }
      List<WriteIntent.ConfirmedTable> confirmed = new ArrayList<>();
      List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
      TreeMap<String, Long> expected = new TreeMap<>();
      for (int i = 0; i < staged.size(); i++) {
        TableSpec spec = specs.get(i);
        TableSnapshot snap = committed.table(spec.tableKey());
        long v = tables.writer().commitStaged(snap, staged.get(i));
        long rows;
        try (TableSnapshot after = tables.reader().openAt(snap.location(), v)) {
          rows = tables.reader().countRows(after);
        }
        confirmed.add(new WriteIntent.ConfirmedTable(identity(spec), v, rows,
            ManifestStore.versionMetadata(snap.location().uri(), v)));
        updates.add(new ManifestPublisher.TableUpdate(identity(spec), spec.tableKey(), v, rows, snap.location().uri()));
        expected.put(spec.tableKey(), committed.entry(spec.tableKey()).version());
        if (stop == StopAt.AFTER_FIRST_COMMIT) {
          return new InterruptedWrite(intent.sidecar(), commitId);
        }
      }
      if (stop == StopAt.AFTER_ALL_COMMITS) {
        return new InterruptedWrite(intent.sidecar(), commitId);
      }
      intent.confirm(confirmed);
      if (stop == StopAt.AFTER_CONFIRM) {
        return new InterruptedWrite(intent.sidecar(), commitId);
      }
      graph.publisher().publish(new ManifestPublisher.PublishRequest(GraphBranch.MAIN, updates, expected, head,
          new ManifestPublisher.LineageIntent(commitId, actor, "interrupted", createdAt)));
      return new InterruptedWrite(intent.sidecar(), commitId);
    } finally {
      for (VectorSchemaRoot r : open) {
        r.close();
      }
    }
  }

  static TableIdentity identity(TableSpec spec) {
    return new TableIdentity(spec.stableTableId(), spec.tableIncarnationId());
  }
}
