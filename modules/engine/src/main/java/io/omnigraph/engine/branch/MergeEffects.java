package io.omnigraph.engine.branch;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.KeyCollision;
import io.omnigraph.engine.table.NativeBranch;
import io.omnigraph.engine.table.ProvenAdoption;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.KeyedWriteMode;
import io.omnigraph.engine.table.LanceFilter;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.write.Ahead;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.engine.write.WriteErrors;
import io.omnigraph.engine.write.WriteToken;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The effects of a merge ({@link BranchMerge}, docs/branches.md "How a merge runs"): inside the
 * root's effect window it re-checks the prepared token, the target tables' Lance heads and the
 * proven source refs, arms ONE v9 {@code BranchMerge} sidecar naming every table's pre-minted
 * chain, forks lazy target tables (sidecar-before-ref), commits each chain link by link, makes the
 * chains durable, confirms the sidecar, publishes the merge commit and retires the sidecar. After
 * arming any failure is {@link RecoveryRequiredException}: recovery decides from the sidecar.
 */
final class MergeEffects {
  private final BranchMerge.Context ctx;

  MergeEffects(BranchMerge.Context ctx) {
    this.ctx = ctx;
  }

  /** Arms, commits every chain, confirms, publishes; returns the merge commit id. */
  String write(WriteToken prepared, GraphSnapshot tgt, List<TablePlan> plans, String source, String srcHead,
      MergeOptions options) {
    String target = prepared.branch();
    List<TablePlan> data = plans.stream().filter(TablePlan::writesData).toList();
    // A lazy target table is forked only after the sidecar that names it is armed (docs/branches.md,
    // "Lazy table forks"); the others are the target's own refs.
    Map<String, TableSnapshot> forWrite = new LinkedHashMap<>();
    Map<String, io.omnigraph.engine.table.TableFork.Plan> forks = new LinkedHashMap<>();
    for (TablePlan p : data) {
      var fork = tgt.forkPlan(p.key(), ctx.tables().writer());
      if (fork.isPresent()) {
        forks.put(p.key(), fork.get());
      } else {
        forWrite.put(p.key(), tgt.tableForWrite(p.key(), ctx.tables().writer()));
      }
    }
    String message = options.message() != null ? options.message() : "merge " + source + " into " + target;
    try (EffectWindow window = ctx.window().get()) {
      // The commit id and time are minted inside the window, as every writer's. Everything the sidecar
      // names is known then: its bytes are written (and synced) on a second thread while the token and
      // the heads are checked, so arming costs only the rename and the directory sync (docs/branches.md,
      // "How a merge runs").
      String commitId = Ulid.generate();
      long createdAt = GraphWrite.nowMicros();
      String tableBranch = GraphBranch.toColumn(target);
      List<WriteIntent.PlannedChain> chains = new ArrayList<>();
      Map<String, List<String>> uuids = new HashMap<>();
      for (TablePlan p : data) {
        List<String> chain = new ArrayList<>();
        for (int i = 0; i < p.transactions(); i++) {
          chain.add(UUID.randomUUID().toString());
        }
        uuids.put(p.key(), chain);
        var fork = forks.get(p.key());
        chains.add(new WriteIntent.PlannedChain(p.targetEntry.identity(), p.key(), fork != null ? fork.main().uri()
            : io.omnigraph.engine.table.TableReader.mainUri(forWrite.get(p.key()).location(), tableBranch),
            p.targetEntry.version(), chain, tableBranch, fork != null));
      }
      List<ManifestPublisher.TableUpdate> pointerUpdates = new ArrayList<>();
      List<RecoverySidecar.TableUpdateSlot> pointerSlots = new ArrayList<>();
      Map<String, Long> expected = new TreeMap<>();
      for (TablePlan p : plans) {
        expected.put(p.key(), p.targetEntry.version());
        if (p.route.equals("pointer")) {
          TableEntry se = p.sourceEntry;
          pointerUpdates.add(new ManifestPublisher.TableUpdate(se.identity(), p.key(), se.version(), se.rowCount(),
              p.sourceUri, se.branch()));
          pointerSlots.add(new RecoverySidecar.TableUpdateSlot(se.identity(), p.key(), p.targetEntry.version(),
              p.targetEntry.branch(), new RecoverySidecar.ConfirmedUpdate(se.version(), se.branch(), se.rowCount(),
                  ManifestStore.versionMetadata(p.sourceUri, se.version()))));
        }
      }
      ManifestPublisher.LineageIntent lineage = new ManifestPublisher.LineageIntent(commitId, options.actor(), message,
          createdAt, srcHead);
      try (Ahead<WriteIntent.PreparedArm> arm = data.isEmpty() ? Ahead.none() : Ahead.start(
              () -> WriteIntent.prepareArmMerge(ctx.sidecars(), target, lineage.actorId(), lineage.message(),
                  prepared.head(), ctx.schemaAuthority(), commitId, createdAt, srcHead, chains, pointerSlots));
          ManifestPublisher.Base fresh = ctx.publisher().openBase(target)) {
        WriteToken now = WriteToken.capture(fresh.state(), target, ctx.branchIdentity().apply(target),
            ctx.snapshots().schemaAt(fresh.state()).ir().hash());
        if (prepared.compare(now) != WriteToken.Movement.NONE) {
          throw prepared.readSetChanged(now, "merge");
        }
        List<String> pending = ctx.sidecars().list();
        if (!pending.isEmpty()) {
          String path = pending.get(0);
          String id = path.substring(path.lastIndexOf('/') + 1, path.length() - ".json".length());
          throw new RecoveryRequiredException("recovery required for operation " + id + ": the interrupted write's"
              + " sidecar " + path + " is unresolved; reopen the graph read-write or run 'omnigraph repair'",
              new ErrorDetail.RecoveryRequired(id));
        }
        for (TablePlan p : data) {
          if (forks.containsKey(p.key())) {
            continue; // no ref yet: its fork starts at the published version
          }
          long head = ctx.tables().reader().latestVersion(forWrite.get(p.key()));
          if (head != p.targetEntry.version()) {
            throw new ConflictException("table " + p.key() + " has Lance HEAD " + head + " but the graph publishes "
                + p.targetEntry.version() + ": the table needs repair", new ErrorDetail.ReadSetConflict(
                    "table_head:" + p.key(), Long.toString(p.targetEntry.version()), Long.toString(head)));
          }
        }
        for (TablePlan p : data) {
          if (p.proof != null) {
            // The proof was read from the source's ref: it must still be the same ref (no delete and re-create).
            String ref = ctx.tables().reader().branch(p.sourceMain, p.sourceEntry.branch())
                .map(NativeBranch::identifierText).orElse("absent");
            if (!p.sourceRefIdentity.equals(ref)) {
              throw new ConflictException("merge: the source's ref of " + p.key() + " was replaced while the merge was"
                  + " prepared", new ErrorDetail.ReadSetConflict("branch_merge_source_ref:" + p.key(),
                      p.sourceRefIdentity, ref));
            }
          }
        }
        window.checkValid();
        Failpoints.hit(Failpoints.MERGE_BEFORE_ARM);
        try (Ahead<ManifestPublisher.WrittenAhead> publishAhead = forks.isEmpty()
            ? MergeAhead.publish(ctx.publisher(), new ManifestPublisher.PublishRequest(target,
                predictedUpdates(data, forWrite, pointerUpdates, tableBranch), expected, prepared.head(), lineage),
                fresh)
            : Ahead.<ManifestPublisher.WrittenAhead>none()) {
          return effects(prepared, fresh, data, forks, forWrite, uuids, tableBranch, arm, pointerUpdates, expected,
              lineage, publishAhead);
        }
      }
    }
  }

  /**
   * The rows the publish will name (the pointer updates, then each chain's last version and its row
   * count: the target's plus the inserted minus the deleted rows), for the publish files written
   * ahead ({@link MergeAhead}); a wrong prediction only discards them.
   */
  private static List<ManifestPublisher.TableUpdate> predictedUpdates(List<TablePlan> data,
      Map<String, TableSnapshot> forWrite, List<ManifestPublisher.TableUpdate> pointerUpdates, String tableBranch) {
    List<ManifestPublisher.TableUpdate> out = new ArrayList<>(pointerUpdates);
    for (TablePlan p : data) {
      out.add(new ManifestPublisher.TableUpdate(p.targetEntry.identity(), p.key(), p.targetEntry.version()
          + p.transactions(), p.targetEntry.rowCount() + p.inserted - p.deleted,
          forWrite.get(p.key()).location().uri(), tableBranch));
    }
    return out;
  }

  /** Arms, forks, commits every chain, syncs, confirms, publishes and retires; returns the commit id. */
  private String effects(WriteToken prepared, ManifestPublisher.Base fresh, List<TablePlan> data,
      Map<String, io.omnigraph.engine.table.TableFork.Plan> forks, Map<String, TableSnapshot> forWrite,
      Map<String, List<String>> uuids, String tableBranch, Ahead<WriteIntent.PreparedArm> arm,
      List<ManifestPublisher.TableUpdate> pointerUpdates, Map<String, Long> expected,
      ManifestPublisher.LineageIntent lineage, Ahead<ManifestPublisher.WrittenAhead> publishAhead) {
    String target = prepared.branch();
    String commitId = lineage.commitId();
    WriteIntent sidecar;
    try (WriteIntent.PreparedArm ready = arm.take()) {
      sidecar = ready == null ? null : ready.arm(); // Phase A: the rename and the directory sync
    }
    List<TableSnapshot> forked = new ArrayList<>();
    try {
      Failpoints.hit(Failpoints.MERGE_AFTER_ARM);
      Map<String, String> refs = new HashMap<>(); // per forked table, the created ref's identity the confirmation binds
      for (var f : forks.entrySet()) {
        TableSnapshot s = f.getValue().open(); // sidecar-before-ref
        forked.add(s);
        forWrite.put(f.getKey(), s);
        refs.put(f.getKey(), f.getValue().identity().orElseThrow(() -> new InternalErrorException("the fork of "
            + f.getKey() + " is not listed after it was made", null)));
      }
      List<ManifestPublisher.TableUpdate> updates = new ArrayList<>(pointerUpdates);
      List<WriteIntent.ConfirmedTable> confirmed = new ArrayList<>();
      for (TablePlan p : data) {
        ManifestPublisher.TableUpdate u = commitChain(p, forWrite.get(p.key()), uuids.get(p.key()), tableBranch);
        updates.add(u);
        confirmed.add(new WriteIntent.ConfirmedTable(u.identity(), u.version(), u.rowCount(),
            ManifestStore.versionMetadata(u.tableUri(), u.version()), refs.get(p.key())));
      }
      if (sidecar != null) {
        // Durability (docs/write-protocol.md, "Durability"): every committed chain is durable before the
        // sidecar is confirmed, because a confirmed sidecar is rolled forward onto those versions.
        // The confirmation's bytes are written (and synced) on a second thread meanwhile; put after.
        try (Ahead<SidecarStore.Prepared> confirmation = Ahead.start(
            () -> sidecar.prepareConfirm(confirmed))) {
          ctx.publisher().makeDurable(updates, expected);
          try (SidecarStore.Prepared ready = confirmation.take()) {
            sidecar.confirm(ready);
          }
        }
        Failpoints.hit(Failpoints.MERGE_AFTER_CONFIRM);
      }
      Failpoints.hit(Failpoints.MERGE_BEFORE_PUBLISH);
      ctx.publisher().publish(new ManifestPublisher.PublishRequest(target, updates, expected, prepared.head(),
          lineage), fresh, publishAhead.takeOrNull("writing the merge's publish ahead"));
      Failpoints.hit(Failpoints.MERGE_AFTER_PUBLISH);
    } catch (OmnigraphException | IllegalArgumentException e) {
      if (sidecar == null) {
        throw e;
      }
      // After arming there is no effect-free finalizer: recovery decides from the sidecar.
      throw new RecoveryRequiredException("recovery required for operation " + sidecar.operationId()
          + ": the merge failed after its recovery sidecar was armed (" + e.getMessage() + "); the next"
          + " read-write open or 'omnigraph repair' completes or compensates it",
          new ErrorDetail.RecoveryRequired(sidecar.operationId()), e);
    } finally {
      forked.forEach(TableSnapshot::close);
    }
    if (sidecar != null) {
      sidecar.retirePublished(); // the publish is durable: the removal need not be
    }
    return commitId;
  }

  /** Commits one table's chain, each step staged on the version the previous one produced. */
  private ManifestPublisher.TableUpdate commitChain(TablePlan p, TableSnapshot start, List<String> uuids,
      String tableBranch) {
    TableSnapshot cur = start;
    int step = 0;
    try (TableSteps steps = new TableSteps(p, ctx.tables().allocator())) {
      for (TableSteps.Step s = steps.next(); s != null; s = steps.next()) {
        if (step >= uuids.size()) {
          throw new InternalErrorException("merge chain of " + p.key() + " has more steps than the " + uuids.size()
              + " pre-minted", null);
        }
        StagedWrite staged;
        if (s instanceof TableSteps.Link l) {
          staged = ProvenAdoption.stageLink(cur, p.proof, l.link(), ctx.adopter());
        } else if (s instanceof TableSteps.Rows r) {
          VectorSchemaRoot batch = r.chunk().root();
          if (p.proof != null && r.mode() == KeyedWriteMode.STRICT_INSERT) {
            // Proven interval: no id probe of the target, no merge join.
            KeyedWrites.checkLimits(p.key(), batch);
            try {
              staged = ctx.tables().writer().stageProvenInsert(cur, p.proof, batch);
            } catch (KeyCollision c) {
              throw WriteErrors.keyConflict(c.tableKey(), c.ids(), c.reason());
            }
          } else {
            staged = KeyedWrites.stage(ctx.tables().writer(), cur, p.key(), batch, r.mode());
          }
        } else {
          List<String> ids = ((TableSteps.Deletes) s).ids();
          staged = ctx.tables().writer().stageDelete(cur, p.key(), LanceFilter.in("id", ids)).orElseThrow(
              () -> new InternalErrorException("merge delete chunk of " + p.key() + " matched no row", null));
        }
        staged = new StagedWrite(staged.tableKey(), staged.location(), staged.readVersion(), uuids.get(step),
            staged.kind(), staged.rowsWritten(), staged.ids(), staged.operation(), staged.properties());
        TableSnapshot next = ctx.tables().writer().commitStagedAndOpen(cur, staged);
        if (cur != start) {
          cur.close();
        }
        cur = next;
        step++;
        Failpoints.hit(Failpoints.MERGE_AFTER_CHUNK_COMMIT);
      }
      if (step != uuids.size()) {
        throw new InternalErrorException("merge chain of " + p.key() + " wrote " + step + " of its " + uuids.size()
            + " pre-minted steps", null);
      }
      long rows = ctx.tables().reader().countRows(cur);
      return new ManifestPublisher.TableUpdate(p.targetEntry.identity(), p.key(), cur.version(), rows,
          cur.location().uri(), tableBranch);
    } finally {
      if (cur != start) {
        cur.close();
      }
    }
  }
}
