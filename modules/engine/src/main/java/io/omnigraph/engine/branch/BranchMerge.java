package io.omnigraph.engine.branch;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeOutcome;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.SchemaIr;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.table.InsertProof;
import io.omnigraph.engine.table.NativeBranch;
import io.omnigraph.engine.table.ProvenAdoption;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.validate.MergedGraphRules;
import io.omnigraph.engine.write.Ahead;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.engine.write.WriteErrors;
import io.omnigraph.engine.write.WriteToken;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * {@code Graph.merge} (docs/branches.md, "Merge"): captures the source and target heads, finds the
 * merge base ({@link MergeBase}), decides every row with {@link ThreeWay}, validates the merged
 * graph, and writes the result as ONE pre-minted chain of bounded Lance transactions per table under
 * ONE v9 {@code BranchMerge} recovery sidecar and ONE publish: a merge commit whose second parent is
 * the captured source head.
 *
 * <p>Routes per table: unchanged on the source → nothing; the target unchanged since the base and
 * the source's version on the same native ref → {@code pointer} (the target publishes the source's
 * version, no data is written); the target unchanged since the base on its own ref and the source's
 * history since the base a verified insertion-only chain → {@code proven_insert} (the interval's rows
 * as strict-insert chunks staged without an id probe or a diff, docs/branches.md, "The proven-insert
 * route"); otherwise {@code ordered}: new rows as strict-insert chunks, changed
 * rows as upsert chunks, deleted ids as delete chunks, each at most {@link KeyedWrites#MAX_ROWS} rows
 * and {@link KeyedWrites#MAX_BYTES} bytes of buffered Arrow data, at most
 * {@link #MAX_TRANSACTIONS_PER_TABLE} per table. Every limit is checked before the sidecar is armed
 * ({@link io.omnigraph.api.ResourceLimitException}); after arming ({@link MergeEffects}) any failure
 * is {@link RecoveryRequiredException} and recovery rolls the chain forward or compensates it.
 */
public final class BranchMerge {
  /** The most Lance transactions one table's merge chain may have (delete chunks included). */
  public static final int MAX_TRANSACTIONS_PER_TABLE = 1024;
  /** Row values longer than this are not shown in a conflict. */
  static final int SMALL_VALUE_CHARS = 1024;
  /**
   * Test seam: the row cap of one chunk; the product cap is {@link KeyedWrites#MAX_ROWS}, and the
   * system property {@code omnigraph.merge.chunk_rows} can only lower it (crash tests use it to get
   * several chunks out of a few rows).
   */
  static volatile int chunkRows = Math.max(1, Math.min(KeyedWrites.MAX_ROWS,
      Integer.getInteger("omnigraph.merge.chunk_rows", KeyedWrites.MAX_ROWS)));

  /**
   * Test seam: the byte cap of one chunk (actual buffered Arrow size; a delete chunk: its ids' UTF-8
   * bytes); the product cap is {@link KeyedWrites#MAX_BYTES}. Tests lower it to cut chunks by size
   * with small rows.
   */
  static volatile long chunkBytes = KeyedWrites.MAX_BYTES;

  /**
   * Test seam: the rows of one scanner batch of the ordered cursors (docs/branches.md, "Memory bound
   * of the ordered merge"); the product value is {@link KeyedWrites#MAX_ROWS}. Tests lower it to walk
   * a table in many batches.
   */
  static volatile int scanRows = KeyedWrites.MAX_ROWS;

  /**
   * Test seam: the one budget of the merged-graph checks (the taken rows' checked columns and the
   * taken and deleted ids they retain, over every table); the product value is
   * {@link KeyedWrites#MAX_BYTES}.
   */
  static volatile long validationBytes = KeyedWrites.MAX_BYTES;

  /** Test seam: the budget of the retained delete plan (every delete chunk's filter bytes); product 32 MiB. */
  static volatile long deletePlanBytes = KeyedWrites.MAX_BYTES;

  /** The most conflicts a {@code merge_conflicts} error lists; the message counts them all. */
  static final int MAX_LISTED_CONFLICTS = 1000;

  /** Test seam: the memory peaks of the last merge that changed a table in this JVM (planning and effects). */
  static volatile MergeMemory.Peaks lastMemory;

  /**
   * Test seam: whether the proven-insert route may be taken (tests turn it off to compare the
   * routes' results on the same history); the system property {@code omnigraph.merge.ordered_only}
   * turns it off too.
   */
  static volatile boolean provenInsert = !Boolean.getBoolean("omnigraph.merge.ordered_only");

  /**
   * Test seam: whether the proven-insert route adopts the source's data files where the root can
   * ({@link Context#adopter()}); off, it re-stages the interval's rows as object stores do (tests of
   * the chunk caps use it).
   */
  static volatile boolean adoptFiles = true;

  /**
   * What a merge needs from the open graph.
   *
   * @param tables the table gateway
   * @param snapshots resolves branches and commits
   * @param publisher the manifest publisher
   * @param sidecars recovery sidecar I/O
   * @param schemaAuthority the accepted schema identity (recorded in the sidecar)
   * @param window enters the root's effect window (gate, then lease)
   * @param branchIdentity the native identity of a branch now
   * @param barrier the write-entry recovery barrier
   * @param deleteBranch deletes a branch (after the merge, on request)
   * @param adopter places a proven interval's data files in the target's ref, or {@code null} when the
   *     root has none (then the proven route re-stages the interval's rows)
   */
  public record Context(TableStore tables, SnapshotResolver snapshots, ManifestPublisher publisher,
      SidecarStore sidecars, RecoverySweep.SchemaAuthority schemaAuthority, Supplier<EffectWindow> window,
      Function<String, String> branchIdentity, Runnable barrier, Consumer<String> deleteBranch,
      ProvenAdoption.FileAdopter adopter) {}

  private final Context ctx;
  private final MergeMemory memory = new MergeMemory();
  private long conflictCount;

  private BranchMerge(Context ctx) {
    this.ctx = ctx;
  }

  /** Runs one merge; see {@link io.omnigraph.api.Graph#merge}. */
  public static MergeResult run(Context ctx, String source, String target, MergeOptions options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(options, "options");
    String into = target == null ? GraphBranch.MAIN : target;
    if (source.equals(into)) {
      throw new InvalidInputException("cannot merge branch '" + source + "' into itself",
          new ErrorDetail.Validation(null, null, "source", "merge_same_branch"));
    }
    if (options.deleteSourceBranch() && GraphBranch.MAIN.equals(source)) {
      throw new InvalidInputException("main cannot be deleted after a merge",
          new ErrorDetail.Validation(null, null, "source", "cannot_delete_main"));
    }
    ctx.barrier().run();
    MergeResult r = new BranchMerge(ctx).merge(source, into, options);
    if (options.deleteSourceBranch()) {
      ctx.deleteBranch().accept(source);
      return new MergeResult(r.outcome(), r.source(), r.target(), r.sourceCommitId(), r.baseCommitId(), r.commitId(),
          r.tables(), true);
    }
    return r;
  }

  // ------------------------------------------------------------------ planning

  private MergeResult merge(String source, String target, MergeOptions options) {
    SnapshotResolver snapshots = ctx.snapshots();
    String identityBefore = ctx.branchIdentity().apply(target);
    // The two heads are independent reads: the target's is read on a second thread while this one
    // reads the source's (docs/branches.md, "How a merge runs", step 1).
    try (Ahead<GraphSnapshot> targetRead = Ahead.start(() -> snapshots.resolve(GraphRef.branch(target)));
        GraphSnapshot src = snapshots.resolve(GraphRef.branch(source));
        GraphSnapshot tgt = targetRead.take()) {
      String identityAfter = ctx.branchIdentity().apply(target);
      String schemaId = tgt.schema().ir().hash();
      WriteToken prepared = WriteToken.capture(tgt.manifest(), target, identityBefore, schemaId);
      if (!identityBefore.equals(identityAfter)) {
        throw new ConflictException("merge: branch " + target + " was replaced while the merge was prepared",
            new ErrorDetail.ReadSetConflict("branch_identifier:" + target, identityBefore, identityAfter));
      }
      if (!src.schema().ir().hash().equals(schemaId)) {
        throw new ConflictException("merge: " + source + " and " + target + " have different schemas",
            new ErrorDetail.ReadSetConflict("schema_ir_hash", schemaId, src.schema().ir().hash()));
      }
      String srcHead = src.manifest().head(source).map(GraphCommit::commitId).orElseThrow(
          () -> new InternalErrorException("branch " + source + " has no head commit", null));
      String tgtHead = tgt.manifest().head(target).map(GraphCommit::commitId).orElseThrow(
          () -> new InternalErrorException("branch " + target + " has no head commit", null));
      List<GraphCommit> lineage = new ArrayList<>(src.manifest().commits());
      lineage.addAll(tgt.manifest().commits());
      GraphCommit base = MergeBase.of(lineage, srcHead, tgtHead).orElseThrow(() -> new InternalErrorException(
          "branches " + source + " and " + target + " share no commit", null));
      if (base.commitId().equals(srcHead)) {
        return new MergeResult(MergeOutcome.ALREADY_UP_TO_DATE, source, target, srcHead, base.commitId(), tgtHead,
            Map.of(), false);
      }
      MergeOutcome outcome = base.commitId().equals(tgtHead) ? MergeOutcome.FAST_FORWARD : MergeOutcome.MERGED;
      List<TablePlan> plans = new ArrayList<>();
      // A fast-forward whose base is the target's head at the version just read: that state is the
      // base's (no second manifest read).
      boolean baseIsTarget = base.commitId().equals(tgtHead)
          && base.manifestVersion() == tgt.manifest().manifestVersion();
      try (GraphSnapshot owned = baseIsTarget ? null : snapshots.resolve(GraphRef.commit(base.commitId()))) {
        GraphSnapshot b = baseIsTarget ? tgt : owned;
        List<ErrorDetail.MergeConflict> conflicts = new ArrayList<>();
        for (TableSpec spec : tgt.schema().tables()) {
          TablePlan plan = plan(spec, b, src, tgt, target);
          if (plan != null) {
            plans.add(plan);
          }
        }
        for (TablePlan p : plans) {
          p.checksNeedRows = checksNeedRows(p, plans, tgt.schema());
          read(p, conflicts);
        }
        if (conflicts.isEmpty()) {
          validate(plans, tgt, conflicts);
        }
        if (!conflicts.isEmpty()) {
          throw conflictsError(source, target, conflicts, conflictCount);
        }
        for (TablePlan p : plans) {
          if (p.route.equals("pointer")) {
            p.dropData();
          }
        }
        for (TablePlan p : plans) {
          if (p.transactions() > MAX_TRANSACTIONS_PER_TABLE) {
            throw WriteErrors.resourceLimit("branch-merge transactions for " + p.key(), MAX_TRANSACTIONS_PER_TABLE,
                p.transactions());
          }
        }
        String commitId = new MergeEffects(ctx).write(prepared, tgt, plans, source, srcHead, options);
        Map<String, MergeResult.TableMerge> counts = new TreeMap<>();
        for (TablePlan p : plans) {
          if (p.route.equals("pointer") || p.writesData()) {
            counts.put(p.key(), new MergeResult.TableMerge(p.route, p.inserted, p.updated, p.deleted,
                p.transactions()));
          }
        }
        return new MergeResult(outcome, source, target, srcHead, base.commitId(), commitId, counts, false);
      } finally {
        plans.forEach(TablePlan::close);
        if (!plans.isEmpty()) {
          lastMemory = memory.peaks(); // planning and effects
        }
      }
    }
  }

  private static boolean sameVersion(TableEntry a, TableEntry b) {
    return a.version() == b.version() && Objects.equals(a.branch(), b.branch());
  }

  /**
   * The table's route (no row is read here: {@link #read} reads them once every changed table is
   * known).
   *
   * @return the table's plan, or {@code null} when the merge leaves it as the target has it
   */
  private TablePlan plan(TableSpec spec, GraphSnapshot base, GraphSnapshot src, GraphSnapshot tgt, String target) {
    String key = spec.tableKey();
    TableEntry be = base.entry(key);
    TableEntry se = src.entry(key);
    TableEntry te = tgt.entry(key);
    if (!be.identity().equals(se.identity()) || !be.identity().equals(te.identity())) {
      throw new ConflictException("merge: table " + key + " is a different dataset on the two branches",
          new ErrorDetail.ReadSetConflict("branch_merge_dataset_identity:" + key, te.identity().toString(),
              se.identity().toString()));
    }
    if (sameVersion(se, be) || sameVersion(se, te)) {
      return null; // the source did not change it, or both sides are at the very same version
    }
    TablePlan plan = new TablePlan(spec, te, se);
    plan.sourceUri = src.table(key).location().uri();
    plan.baseTable = base.table(key);
    plan.sourceTable = src.table(key);
    plan.targetTable = tgt.table(key);
    plan.schema = tgt.schema();
    plan.memory = memory;
    // A later version on the target's own ref while the target did not change the table: publish
    // it, write nothing. Its rows are still diffed, for the counts and the merged-graph checks.
    plan.route = sameVersion(te, be) && Objects.equals(se.branch(), te.branch()) ? "pointer" : "ordered";
    if (plan.route.equals("ordered") && provenInsert) {
      InsertProof proof = proveInsertOnly(plan, base, src, target);
      if (proof.proven()) {
        plan.route = "proven_insert";
        plan.proof = proof;
        if (adoptFiles && ctx.adopter() != null && ProvenAdoption.adoptable(tgt.table(key), proof)) {
          plan.adoptedLinks = proof.links(); // files adopted link by link: no row written from here
          plan.inserted = proof.rows();
        }
        return plan;
      }
      plan.provenRefusal = proof.refusal();
    }
    return plan;
  }

  /**
   * The proven-insert route's admission (docs/branches.md, "The proven-insert route"): the target
   * still publishes the base's version of the table on its own ref (so absence from the base is
   * absence from the target), the source's version lives on a native ref forked from exactly that
   * version, and the source's history since is a verified insertion-only chain
   * ({@link io.omnigraph.engine.table.TableReader#proveInsertOnlyHistory}). Anything else is a
   * refusal: the table takes the ordered route.
   */
  private InsertProof proveInsertOnly(TablePlan plan, GraphSnapshot base, GraphSnapshot src, String target) {
    String key = plan.key();
    TableEntry be = base.entry(key);
    TableEntry se = plan.sourceEntry;
    TableEntry te = plan.targetEntry;
    if (!sameVersion(te, be)) {
      return InsertProof.refused(key, be.version(), "the target changed the table since the merge base");
    }
    if (!Objects.equals(te.branch(), GraphBranch.toColumn(target))) {
      return InsertProof.refused(key, be.version(), "the target has not forked the table yet (first touch)");
    }
    if (se.branch() == null || Objects.equals(se.branch(), be.branch())) {
      return InsertProof.refused(key, be.version(), "the source version is on the base's ref");
    }
    TableSnapshot source = src.table(key);
    LanceLocation main = new LanceLocation(TableReader.mainUri(source.location(), se.branch()),
        source.location().storageOptions());
    Optional<NativeBranch> ref = ctx.tables().reader().branch(main, se.branch());
    if (ref.isEmpty() || !Objects.equals(ref.get().parentBranch(), be.branch())
        || ref.get().parentVersion() != be.version()) {
      return InsertProof.refused(key, be.version(), "the source ref was not forked from the base version");
    }
    plan.sourceMain = main;
    plan.sourceRefIdentity = ref.get().identifierText();
    return ctx.tables().reader().proveInsertOnlyHistory(key, base.table(key), source, se.rowCount() - be.rowCount());
  }

  /**
   * Whether the merged-graph checks ({@link MergedGraphRules}) read a table's taken rows: its
   * {@code @unique} tuples, or its ids and endpoints when the merge changes any edge table. Otherwise
   * none is kept (and an adopted interval is not read): the checks need only its deleted ids.
   */
  private static boolean checksNeedRows(TablePlan p, List<TablePlan> plans, CompiledSchema schema) {
    boolean unique = constraints(schema, p.spec).stream().anyMatch(Constraint.Unique.class::isInstance);
    return unique || plans.stream().anyMatch(q -> q.spec.kind() == SchemaIr.DeclKind.EDGE);
  }

  private static List<Constraint> constraints(CompiledSchema schema, TableSpec spec) {
    return MergedGraphRules.constraintsOf(schema, spec);
  }

  /**
   * The planning pass over one table's rows (docs/branches.md, "Memory bound of the ordered merge"):
   * the ordered three-way diff as the cursors advance, or the proven interval's rows. It records
   * conflicts, the delete plan, the counts and each chunk's cut (every full chunk is counted, its
   * checked columns kept for the merged-graph checks when they read this table, and closed). An
   * adopted interval is read only when the checks need its rows, and cuts no chunk.
   */
  private void read(TablePlan plan, List<ErrorDetail.MergeConflict> conflicts) {
    boolean adopted = plan.adoptedLinks > 0;
    if (adopted && !plan.checksNeedRows) {
      return;
    }
    if (plan.proof != null) {
      plan.inserted = 0;
    }
    List<String> columns = checkedColumns(plan);
    List<String> current = new ArrayList<>();
    long[] filterBytes = {0};
    TableRows.Sink sink = new TableRows.Sink() {
      @Override
      public void conflict(ThreeWay.Kind kind, String id, String base, String source, String target) {
        addConflict(conflicts, rowConflict(plan.spec, kind, id, base, source, target));
      }

      @Override
      public void delete(String id) {
        long bytes = id.getBytes(StandardCharsets.UTF_8).length + 4L;
        if (current.size() >= chunkRows || filterBytes[0] + bytes > chunkBytes) {
          plan.deletes.add(new ArrayList<>(current));
          current.clear();
          filterBytes[0] = 0;
        }
        memory.chargeDeletePlan(bytes);
        memory.chargeValidation(MergeMemory.idCharge(id));
        current.add(id);
        filterBytes[0] += bytes;
        plan.deletedIds.add(id);
        plan.deleted++;
      }
    };
    try (TableRows rows = TableRows.open(plan, plan.schema, ctx.tables().allocator(), memory, (chunk, insert) -> {
      try (chunk) {
        if (!adopted) {
          if (insert) {
            plan.insertChunks++;
          } else {
            plan.upsertChunks++;
          }
        }
        if (plan.checksNeedRows) {
          keepChecked(plan, chunk.root(), columns);
        }
      }
    })) {
      while (rows.step(sink)) {
        // each step decides one id (or takes one proven row)
      }
      if (plan.proof != null && rows.inserted != plan.proof.rows()) {
        throw new InternalErrorException("proven interval of " + plan.key() + " holds " + plan.proof.rows()
            + " rows but " + rows.inserted + " rows were read", null);
      }
      plan.inserted = rows.inserted;
      plan.updated = rows.updated;
    }
    if (!current.isEmpty()) {
      plan.deletes.add(current);
    }
  }

  /** The taken rows' columns the merged-graph checks read: id, the endpoints of an edge, {@code @unique} fields. */
  private static List<String> checkedColumns(TablePlan plan) {
    List<String> out = new ArrayList<>(List.of("id"));
    if (plan.spec.kind() == SchemaIr.DeclKind.EDGE) {
      out.add("src");
      out.add("dst");
    }
    for (Constraint c : constraints(plan.schema, plan.spec)) {
      if (c instanceof Constraint.Unique u) {
        for (String f : u.fields()) {
          if (!out.contains(f)) {
            out.add(f);
          }
        }
      }
    }
    return out;
  }

  /** Moves a full chunk's checked columns out of it (no copy), charged against the validation budget. */
  private void keepChecked(TablePlan plan, VectorSchemaRoot chunk, List<String> columns) {
    List<org.apache.arrow.vector.FieldVector> moved = new ArrayList<>();
    for (String c : columns) {
      org.apache.arrow.vector.util.TransferPair t = chunk.getVector(c).getTransferPair(ctx.tables().allocator());
      t.transfer();
      moved.add((org.apache.arrow.vector.FieldVector) t.getTo());
    }
    VectorSchemaRoot kept = new VectorSchemaRoot(moved);
    kept.setRowCount(chunk.getRowCount());
    plan.checked.add(kept);
    memory.chargeValidation(io.omnigraph.engine.table.ArrowBatches.memorySize(kept));
    VarCharVector ids = (VarCharVector) kept.getVector("id");
    for (int i = 0; i < kept.getRowCount(); i++) {
      String id = new String(ids.get(i), StandardCharsets.UTF_8);
      plan.takenIds.add(id);
      memory.chargeValidation(MergeMemory.idCharge(id));
    }
  }

  /** Lists a conflict while fewer than {@link #MAX_LISTED_CONFLICTS} are listed; counts every one. */
  private void addConflict(List<ErrorDetail.MergeConflict> conflicts, ErrorDetail.MergeConflict c) {
    conflictCount++;
    if (conflicts.size() < MAX_LISTED_CONFLICTS) {
      conflicts.add(c);
    }
  }

  private static ErrorDetail.MergeConflict rowConflict(TableSpec spec, ThreeWay.Kind kind, String id, String base,
      String source, String target) {
    String code = switch (kind) {
      case DivergentInsert -> "divergent_insert";
      case DeleteVsUpdate -> "delete_vs_update";
      case DivergentUpdate -> "divergent_update";
    };
    String message = switch (kind) {
      case DivergentInsert -> "both branches inserted id '" + id + "' with different values";
      case DeleteVsUpdate -> "id '" + id + "' was deleted on one branch and changed on the other";
      case DivergentUpdate -> "both branches changed id '" + id + "' differently";
    };
    return new ErrorDetail.MergeConflict(code, entityKind(spec), spec.typeName(), id, shown(base), shown(source),
        shown(target), message);
  }

  private static String entityKind(TableSpec spec) {
    return spec.kind() == SchemaIr.DeclKind.EDGE ? "edge" : "node";
  }

  private static String shown(String row) {
    if (row == null) {
      return "null";
    }
    return row.length() > SMALL_VALUE_CHARS ? null : row;
  }

  private static ConflictException conflictsError(String source, String target,
      List<ErrorDetail.MergeConflict> conflicts, long count) {
    StringBuilder m = new StringBuilder("merge of '" + source + "' into '" + target + "' has " + count
        + " conflict" + (count == 1 ? "" : "s") + (count > conflicts.size() ? " (the first " + conflicts.size()
        + " listed)" : "") + "; nothing was written: ");
    for (int i = 0; i < Math.min(3, conflicts.size()); i++) {
      ErrorDetail.MergeConflict c = conflicts.get(i);
      m.append(i > 0 ? "; " : "").append(c.kind()).append(' ').append(c.entityKind()).append(':')
          .append(c.typeName()).append(' ').append(c.entityId());
    }
    if (count > 3) {
      m.append("; +").append(count - 3).append(" more");
    }
    return new ConflictException(m.toString(), new ErrorDetail.MergeConflicts(conflicts));
  }

  // ------------------------------------------------------------------ validation

  /**
   * The merged graph's cross-row rules through the shared validate/ rules
   * ({@link MergedGraphRules}): edge endpoints (orphan edges), {@code @unique} and {@code @card}.
   */
  private void validate(List<TablePlan> plans, GraphSnapshot tgt, List<ErrorDetail.MergeConflict> conflicts) {
    List<MergedGraphRules.Change> changes = new ArrayList<>();
    for (TablePlan p : plans) {
      changes.add(new MergedGraphRules.Change(p.spec, p.takenIds, p.deletedIds, p.taken()));
    }
    for (MergedGraphRules.Violation v : MergedGraphRules.check(changes, tgt, memory::chargeValidation)) {
      addConflict(conflicts, new ErrorDetail.MergeConflict(v.kind(), v.entityKind(), v.typeName(), v.id(), null, null,
          null, v.message()));
    }
  }
}
