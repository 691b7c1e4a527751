package io.omnigraph.engine.schema.migrate;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.SchemaApplyOptions;
import io.omnigraph.api.SchemaApplyResult;
import io.omnigraph.api.SchemaPlanStep;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.index.GraphAccess;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.ArrowSchemas;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.schema.migrate.SchemaPlanner.TableAction;
import io.omnigraph.engine.schema.migrate.SchemaPlanner.TableChange;
import io.omnigraph.engine.snapshot.SchemaFiles;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableWriter;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The SchemaApply writer (docs/schema-migration.md, "Apply"): one graph commit that accepts a new
 * schema. Inside the effect window (this process's gate, then the write lease), against main's
 * latest cut:
 *
 * <ol>
 *   <li>re-checks that the accepted schema is the one planned against, that main is the only
 *       branch, that no recovery sidecar is pending, that every rewritten table's HEAD is at its
 *       published pin and that every new table's path is absent;</li>
 *   <li>stages every rewrite as one exact Overwrite of the published version (rows copied by
 *       stable property id: renamed columns keep their values, new columns are null, dropped ones
 *       are left out) and writes the desired schema to the content-addressed history;</li>
 *   <li>arms a v9 SchemaApply sidecar naming every rewrite (exact transaction) and every created
 *       table, commits the rewrites, creates the new tables (version one), confirms;</li>
 *   <li>publishes ONE commit carrying the new table versions, the registration changes (new
 *       tables, renamed keys), the tombstones of dropped types and the new schema identity;</li>
 *   <li>only then promotes the schema files, and retires the sidecar.</li>
 * </ol>
 */
final class SchemaApply {
  /** Commit message of a schema apply. */
  static final String MESSAGE = "schema apply";

  private SchemaApply() {}

  static SchemaApplyResult run(GraphAccess g, CompiledSchema planned, SchemaPlanner.Planned plan,
      SchemaApplyOptions options) {
    g.entryBarrier().run();
    String branch = GraphBranch.MAIN;
    try (EffectWindow window = g.window().apply("schema-apply " + ProcessHandle.current().pid())) {
      g.sidecars().requireNonePending();
      SchemaMigration.requireOnlyMain(g);
      ManifestState state = g.snapshots().latest();
      CompiledSchema accepted = g.snapshots().schemaAt(state);
      if (!accepted.ir().hash().equals(planned.ir().hash())) {
        throw new ConflictException("the accepted schema changed while the apply was planned; plan again",
            new ErrorDetail.ReadSetConflict("schema_ir_hash", planned.ir().hash(), accepted.ir().hash()));
      }
      CompiledSchema desired = plan.desired();
      Optional<String> head = state.headCommitId(branch);
      TableReader reader = g.tables().reader();
      TableWriter writer = g.tables().writer();

      // Stage (no effect yet).
      List<Staged> rewrites = new ArrayList<>();
      List<TableChange> creates = new ArrayList<>();
      try {
        for (TableChange c : plan.tables()) {
          if (c.action() == TableAction.REWRITE) {
            rewrites.add(stageRewrite(g, state, c));
          } else if (c.action() == TableAction.CREATE) {
            LanceLocation loc = g.root().lance(c.after().path());
            Optional<TableSnapshot> existing = reader.openLatestIfExists(loc);
            if (existing.isPresent()) {
              existing.get().close();
              throw new ConflictException("the new table " + c.after().tableKey() + " would be created at "
                  + loc.uri() + ", where a dataset already exists; nothing was written (run 'omnigraph repair')",
                  null);
            }
            creates.add(c);
          }
        }
        if (state.schemaIrHash() == null) {
          SchemaFiles.recordGenesis(g.root(), accepted);
        }
        SchemaFiles.stageHistory(g.root(), desired);
      } catch (RuntimeException e) {
        rewrites.forEach(Staged::close);
        throw e;
      }

      window.checkValid();
      String commitId = Ulid.generate();
      long createdAt = GraphWrite.nowMicros();
      List<WriteIntent.PlannedTable> pins = new ArrayList<>();
      for (Staged r : rewrites) {
        pins.add(new WriteIntent.PlannedTable(identity(r.change().before()), r.change().before().tableKey(),
            TableReader.mainUri(r.snapshot().location(), null), r.entry().version(), r.staged().uuid(), null));
      }
      RecoverySweep.SchemaAuthority authority = new RecoverySweep.SchemaAuthority(accepted.ir().identityDomain(),
          accepted.ir().hash(), SchemaFiles.IDENTITY_VERSION);
      List<RecoverySidecar.CreatedTable> created = new ArrayList<>();
      for (TableChange c : creates) {
        created.add(new RecoverySidecar.CreatedTable(identity(c.after()), c.after().tableKey(), c.after().path()));
      }
      WriteIntent sidecar = WriteIntent.arm(g.sidecars(), RecoverySidecar.WriterKind.SCHEMA_APPLY, branch,
          options.actor(), message(options), head, authority, commitId, createdAt, pins,
          new RecoverySidecar.SchemaApplyPayload(desired.ir().hash(), created));
      String operation = sidecar.operationId();
      List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
      Map<String, Long> expected = new TreeMap<>();
      List<ManifestPublisher.Registration> registrations = new ArrayList<>();
      List<ManifestPublisher.Registration> tombstones = new ArrayList<>();
      boolean effect = false;
      try {
        Failpoints.hit(Failpoints.SCHEMA_APPLY_POST_SIDECAR_PRE_EFFECT);
        List<WriteIntent.ConfirmedTable> confirmed = new ArrayList<>();
        for (Staged r : rewrites) {
          String key = r.change().after().tableKey();
          long version;
          long rows;
          effect = true; // from here on the commit may have landed
          try (TableSnapshot after = writer.commitStagedAndOpen(r.snapshot(), r.staged())) {
            version = after.version();
            rows = reader.countRows(after);
          }
          Failpoints.hit(Failpoints.SCHEMA_APPLY_POST_TABLE_EFFECT);
          updates.add(new ManifestPublisher.TableUpdate(identity(r.change().after()), key, version, rows,
              r.snapshot().location().uri()));
          expected.put(r.change().before().tableKey(), r.entry().version());
          confirmed.add(new WriteIntent.ConfirmedTable(identity(r.change().before()), version, rows,
              io.omnigraph.engine.manifest.ManifestStore.versionMetadata(r.snapshot().location().uri(), version)));
        }
        for (TableChange c : creates) {
          LanceLocation loc = g.root().lance(c.after().path());
          effect = true;
          long version = writer.createTable(loc, c.after().tableKey(), c.after().arrowSchema(), List.of());
          Failpoints.hit(Failpoints.SCHEMA_APPLY_POST_TABLE_EFFECT);
          registrations.add(new ManifestPublisher.Registration(identity(c.after()), c.after().tableKey()));
          updates.add(new ManifestPublisher.TableUpdate(identity(c.after()), c.after().tableKey(), version, 0,
              loc.uri()));
        }
        for (TableChange c : plan.tables()) {
          if (c.action() == TableAction.DROP) {
            tombstones.add(new ManifestPublisher.Registration(identity(c.before()), c.before().tableKey()));
          } else if (c.before() != null && !c.before().tableKey().equals(c.after().tableKey())) {
            registrations.add(new ManifestPublisher.Registration(identity(c.after()), c.after().tableKey()));
          }
        }
        // Durability (docs/write-protocol.md, "Durability"): the rewritten and created tables are durable before
        // the sidecar is confirmed, because a confirmed sidecar is rolled forward onto them.
        g.publisher().makeDurable(updates, expected);
        sidecar.confirm(confirmed);
        window.checkValid();
        Failpoints.hit(Failpoints.SCHEMA_APPLY_PRE_PUBLISH);
        g.publisher().publish(new ManifestPublisher.PublishRequest(branch, updates, expected, head,
            new ManifestPublisher.LineageIntent(commitId, options.actor(), message(options), createdAt),
            new ManifestPublisher.CatalogDelta(registrations, tombstones, desired.ir().hash())));
        SchemaFiles.promote(g.root(), desired, state.schemaIrHash() == null ? accepted.ir().hash()
            : SchemaFiles.genesisHash(g.root()).orElse(null));
      } catch (OmnigraphException | IllegalArgumentException e) {
        if (!effect) {
          sidecar.retire(); // nothing happened: withdraw the intent
          throw e;
        }
        throw new RecoveryRequiredException("recovery required for operation " + operation + ": schema apply failed"
            + " after its sidecar was armed (" + e.getMessage() + "); the sidecar " + RecoverySidecar.path(operation)
            + " was kept for recovery", new ErrorDetail.RecoveryRequired(operation), e);
      } finally {
        rewrites.forEach(Staged::close);
      }
      sidecar.retire();
      if (options.allowDataLoss()) {
        hardDrops(g, plan, updates);
      }
      return new SchemaApplyResult(g.root().uri(), true, commitId, desired.ir().hash(), plan.plan().steps());
    }
  }

  private static String message(SchemaApplyOptions options) {
    return options.message() == null ? MESSAGE : options.message();
  }

  /** A staged rewrite, holding the pinned table open until it is committed. */
  private record Staged(TableChange change, TableEntry entry, TableSnapshot snapshot, StagedWrite staged)
      implements AutoCloseable {
    @Override
    public void close() {
      snapshot.close();
    }
  }

  private static Staged stageRewrite(GraphAccess g, ManifestState state, TableChange c) {
    TableSpec before = c.before();
    TableSpec after = c.after();
    TableEntry entry = state.table(before.tableKey()).orElseThrow(() -> new io.omnigraph.api.InternalErrorException(
        "table " + before.tableKey() + " of the accepted schema is not published", null));
    LanceLocation loc = g.root().lance(entry.path());
    TableSnapshot s = g.tables().reader().openAt(loc, entry.version());
    try {
      long live = g.tables().reader().latestVersion(s);
      if (live != entry.version()) {
        throw new ConflictException("table " + before.tableKey() + " has Lance HEAD " + live + " but the graph"
            + " publishes " + entry.version() + ": an earlier write committed without publishing; the table needs"
            + " repair", new ErrorDetail.ReadSetConflict("table_head:" + before.tableKey(),
                Long.toString(entry.version()), Long.toString(live)));
      }
      Schema target = after.arrowSchema();
      Map<String, String> sourceOf = sources(before.arrowSchema(), target);
      List<String> columns = before.arrowSchema().getFields().stream().map(Field::getName).toList();
      TableWriter.OverwriteStaging staging = g.tables().writer().beginOverwrite(s, after.tableKey(), target);
      BufferAllocator alloc = g.tables().allocator();
      g.tables().reader().scan(s, columns, null, batch -> {
        try (VectorSchemaRoot projected = project(batch, target, sourceOf, alloc)) {
          staging.write(projected);
        }
      });
      return new Staged(c, entry, s, staging.finish());
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** New column name → the old column holding its values (by stable property id), or absent: all null. */
  static Map<String, String> sources(Schema before, Schema after) {
    Map<String, String> oldById = new HashMap<>();
    for (Field f : before.getFields()) {
      String id = f.getMetadata().get(ArrowSchemas.STABLE_PROPERTY_ID_METADATA);
      oldById.put(id == null ? "name:" + f.getName() : id, f.getName());
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Field f : after.getFields()) {
      String id = f.getMetadata().get(ArrowSchemas.STABLE_PROPERTY_ID_METADATA);
      String old = oldById.get(id == null ? "name:" + f.getName() : id);
      if (old != null) {
        out.put(f.getName(), old);
      }
    }
    return out;
  }

  private static VectorSchemaRoot project(VectorSchemaRoot batch, Schema target, Map<String, String> sourceOf,
      BufferAllocator alloc) {
    int n = batch.getRowCount();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (Field f : target.getFields()) {
        FieldVector v = f.createVector(alloc);
        vectors.add(v);
        v.allocateNew();
        String src = sourceOf.get(f.getName());
        if (src != null) {
          FieldVector old = batch.getVector(src);
          for (int i = 0; i < n; i++) {
            v.copyFromSafe(i, i, old);
          }
        }
        v.setValueCount(n);
      }
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    return new VectorSchemaRoot(target.getFields(), vectors, n);
  }

  /**
   * {@code --allow-data-loss}: once the commit is published, older versions of every rewritten
   * table are removed (a dropped property's values are gone), and every dropped type's dataset is
   * deleted. Commits before the apply can no longer read those tables.
   */
  private static void hardDrops(GraphAccess g, SchemaPlanner.Planned plan, List<ManifestPublisher.TableUpdate> updates) {
    boolean dropsProperty = plan.plan().steps().stream().anyMatch(s -> s.kind().equals("drop_property"));
    for (TableChange c : plan.tables()) {
      if (c.action() == TableAction.DROP) {
        g.root().deletePrefix(c.before().path());
      } else if (dropsProperty && c.action() == TableAction.REWRITE) {
        long v = updates.stream().filter(u -> u.identity().equals(identity(c.after()))).findFirst().orElseThrow()
            .version();
        g.tables().writer().cleanupKeeping(g.root().lance(c.after().path()), null, v, java.util.Set.of());
      }
    }
  }

  private static TableIdentity identity(TableSpec spec) {
    return new TableIdentity(spec.stableTableId(), spec.tableIncarnationId());
  }


  /** @return whether {@code step} drops something */
  static boolean isDrop(SchemaPlanStep step) {
    return step.kind().startsWith("drop_");
  }
}
