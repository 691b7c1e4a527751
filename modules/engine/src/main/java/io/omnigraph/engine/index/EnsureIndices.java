package io.omnigraph.engine.index;

import io.omnigraph.api.EnsureIndicesResult;
import io.omnigraph.api.IndexStatus;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.IndexSpec;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.engine.write.WriteToken;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The EnsureIndices writer (docs/indexes.md): builds every index the schema calls for that the
 * published table version lacks, as ONE staged Lance CreateIndex transaction per table, committed
 * and published through the write protocol ({@link GraphWrite}: v9 sidecar with writer kind
 * {@code EnsureIndices}, exact commits at read version + 1, one graph commit).
 *
 * <p>Existence-gated: an index whose name the table already has is never rebuilt (folding newer
 * fragments into it is {@code optimize}'s job). The entry barrier is roll-forward-only and runs
 * before anything is planned or built, so an interrupted write needing a rollback refuses this
 * call ({@code RecoveryRequiredException}) before any index file is written. A concurrent write
 * that publishes between planning and the effect window makes the attempt fail with
 * {@code read_set_conflict} (409); nothing is committed.
 */
public final class EnsureIndices {
  /** Commit message of an EnsureIndices commit. */
  public static final String MESSAGE = "ensure-indices";

  private EnsureIndices() {}

  /** One table's plan: the statuses to report and the indexes to build. */
  record TablePlan(TableSpec spec, List<IndexStatus> statuses, List<IndexSpec> missing) {}

  /**
   * @param g the graph
   * @param actor who asks ({@code null}: nobody named)
   * @return every index the schema calls for and what happened to it
   */
  public static EnsureIndicesResult run(GraphAccess g, String actor) {
    return run(g, actor, false);
  }

  /**
   * @param g the graph
   * @param actor who asks ({@code null}: nobody named)
   * @param keysOnly only the key indexes: BTREE on every table's {@code id} and every edge's
   *     {@code src}/{@code dst} ({@link IndexPlanner#isKeyColumn}); property indexes are neither
   *     built nor reported
   * @return the indexes in scope and what happened to each
   */
  public static EnsureIndicesResult run(GraphAccess g, String actor, boolean keysOnly) {
    g.entryBarrier().run();
    String branch = GraphBranch.MAIN;
    try (GraphSnapshot committed = g.snapshots().resolve(GraphRef.branch(branch))) {
      WriteToken token = WriteToken.capture(committed.manifest(), branch, committed.schema().ir().hash());
      List<TablePlan> plans = plan(g, committed, keysOnly);
      List<IndexStatus> statuses = new ArrayList<>();
      List<TablePlan> todo = new ArrayList<>();
      List<TableSnapshot> snapshots = new ArrayList<>();
      for (TablePlan p : plans) {
        statuses.addAll(p.statuses());
        if (!p.missing().isEmpty()) {
          todo.add(p);
          snapshots.add(committed.table(p.spec().tableKey())); // opened here: the builds below only read them
        }
      }
      // The tables' builds are independent: two at a time (docs/indexes.md, "ensure-indices, the writer").
      List<Integer> order = java.util.stream.IntStream.range(0, todo.size()).boxed().toList();
      List<StagedWrite> staged = io.omnigraph.engine.table.PerTable.map(order, i -> g.tables().writer()
          .stageCreateIndices(snapshots.get(i), todo.get(i).spec().tableKey(), todo.get(i).missing()));
      List<GraphWrite.TableEffect> effects = new ArrayList<>();
      for (int i = 0; i < todo.size(); i++) {
        TablePlan p = todo.get(i);
        effects.add(new GraphWrite.TableEffect(p.spec(), committed.entry(p.spec().tableKey()), snapshots.get(i),
            staged.get(i)));
      }
      if (effects.isEmpty()) {
        return new EnsureIndicesResult(null, statuses);
      }
      GraphWrite.Outcome outcome = g.writer().commitAndPublish(new GraphWrite.Intent(GraphWrite.WriterKind.ENSURE_INDICES,
          token, actor, MESSAGE, effects, GraphWrite.OnMovement.READ_SET_CHANGED, null));
      return new EnsureIndicesResult(outcome.commitId(), statuses);
    }
  }

  /**
   * @return per table of the schema (schema order), the indexes it has and lacks at the snapshot
   */
  static List<TablePlan> plan(GraphAccess g, GraphSnapshot committed, boolean keysOnly) {
    List<TablePlan> out = new ArrayList<>();
    for (TableSpec spec : committed.schema().tables()) {
      String key = spec.tableKey();
      long rows = committed.entry(key).rowCount();
      Set<String> existing = new HashSet<>(g.tables().reader().indexNames(committed.table(key)));
      List<IndexStatus> statuses = new ArrayList<>();
      List<IndexSpec> missing = new ArrayList<>();
      for (IndexPlanner.Wanted w : IndexPlanner.wanted(committed.schema(), spec, rows)) {
        IndexSpec i = w.spec();
        if (keysOnly && !IndexPlanner.isKeyColumn(spec, i.column())) {
          continue;
        }
        if (existing.contains(i.name())) {
          statuses.add(new IndexStatus(key, i.column(), i.kind(), i.name(), "present", null));
        } else if (w.deferredReason() != null) {
          statuses.add(new IndexStatus(key, i.column(), i.kind(), i.name(), "deferred", w.deferredReason()));
        } else if (rows == 0) {
          statuses.add(new IndexStatus(key, i.column(), i.kind(), i.name(), "deferred",
              "the table is empty; the index is built once it has rows"));
        } else {
          statuses.add(new IndexStatus(key, i.column(), i.kind(), i.name(), "created", null));
          missing.add(i);
        }
      }
      out.add(new TablePlan(spec, statuses, missing));
    }
    return out;
  }
}
