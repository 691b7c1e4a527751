package io.omnigraph.engine.mutate;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.plan.MutationPlan.Statement;
import io.omnigraph.engine.plan.MutationPlan;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.SourcePos;
import io.omnigraph.engine.validate.GraphRules;
import io.omnigraph.engine.validate.Site;
import io.omnigraph.engine.validate.ValueRules;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the statements of one bound {@link MutationPlan} into a {@link MutationStaging}, in order,
 * then validates the result once against committed plus pending state (docs/mutations.md): value
 * constraints ({@code @range}, {@code @check}) of every written row, {@code @unique}, edge
 * endpoints and {@code @card}. Reads only; nothing is written to Lance and no HEAD moves. Any
 * failure is thrown before {@link MutationStaging#stageAll()} and leaves every table untouched.
 *
 * <ul>
 *   <li>{@code insert} of a keyed node: id from the key; an upsert (replaces a pending or committed
 *       row with that id); the same for a keyed edge (id from src, dst and its key properties,
 *       docs/edge-keys.md). Unkeyed node and edge inserts: a fresh ULID, a strict insert.
 *   <li>{@code update}: matches pending rows and committed rows not shadowed by a pending row, and
 *       writes the changed rows as pending rows; the match set counts towards the table's
 *       8,192-row limit while it is read.
 *   <li>{@code delete}: records the predicate and the matched ids; a node delete also deletes, in
 *       the same commit, every edge whose {@code src} or {@code dst} is a deleted node.
 * </ul>
 */
public final class MutationExecutor {
  /** Cascade filters list at most this many node ids each. */
  private static final int CASCADE_CHUNK = 4096;

  private final MutationPlan plan;
  private final MutationStaging staging;

  private MutationExecutor(MutationPlan plan, MutationStaging staging) {
    this.plan = plan;
    this.staging = staging;
  }

  /**
   * Executes and validates the plan into {@code staging}.
   *
   * @throws InvalidInputException a schema rule is violated (the detail names the rule and, where
   *     a statement caused it, its line and column)
   * @throws io.omnigraph.api.ResourceLimitException a table's rows exceed the keyed-write limit
   */
  public static void execute(MutationPlan plan, MutationStaging staging) {
    MutationExecutor x = new MutationExecutor(plan, staging);
    for (Statement s : plan.statements()) {
      x.run(s);
    }
    if (plan.mode() == MutationPlan.Mode.CONSTRUCTIVE) {
      x.validateWrites();
    } else {
      x.validateDeletes();
    }
  }

  private void run(Statement s) {
    if (s instanceof Statement.InsertNode i) {
      insertNode(i);
    } else if (s instanceof Statement.InsertEdge e) {
      insertEdge(e);
    } else if (s instanceof Statement.UpdateNodes u) {
      update(u);
    } else if (s instanceof Statement.DeleteNodes d) {
      deleteNodes(d);
    } else {
      deleteEdges((Statement.DeleteEdges) s);
    }
  }

  private void insertNode(Statement.InsertNode s) {
    if (!s.embedTargets().isEmpty()) {
      throw new InvalidInputException(prefix(s.pos()) + "insert " + s.type().name() + " leaves " + s.embedTargets()
          + " to be computed from @embed sources, but this engine has no embedding provider; assign "
          + String.join(", ", s.embedTargets()) + " explicitly",
          validation(s.pos(), s.embedTargets().get(0), "embedding_unavailable"));
    }
    String id = s.keyId(staging.schema()).orElseGet(staging::newId);
    staging.pending(s.type()).put(id, null, null, new ArrayList<>(s.values().values()), s.pos());
    staging.recordInsert(s.tableKey(), id, s.upsert());
  }

  private void insertEdge(Statement.InsertEdge s) {
    String id = s.keyId(staging.schema()).orElseGet(staging::newId);
    staging.pending(s.type()).put(id, s.from(), s.to(), new ArrayList<>(s.values().values()), s.pos());
    staging.recordInsert(s.tableKey(), id, s.upsert());
  }

  private void update(Statement.UpdateNodes s) {
    List<MutationStaging.Row> matches = staging.matchRows(s.type(), s.where());
    if (matches.isEmpty()) {
      return;
    }
    List<Property> props = s.type().properties();
    int[] assigned = new int[props.size()];
    Object[] newValue = new Object[props.size()];
    int n = 0;
    for (int c = 0; c < props.size(); c++) {
      if (s.assignments().containsKey(props.get(c).name())) {
        assigned[n++] = c;
        newValue[c] = s.assignments().get(props.get(c).name());
      }
    }
    PendingTable p = staging.pending(s.type());
    for (MutationStaging.Row r : matches) {
      List<Object> values = new ArrayList<>(r.values());
      for (int k = 0; k < n; k++) {
        values.set(assigned[k], newValue[assigned[k]]);
      }
      p.put(r.id(), null, null, values, s.pos());
      staging.recordUpdate(s.tableKey(), r.id());
    }
  }

  private void deleteNodes(Statement.DeleteNodes s) {
    Map<String, String> matched = staging.matchCommittedIds(s.tableKey(), s.where(), false);
    Failpoints.hit(Failpoints.WRITE_DELETE_NODE_PRE_PRIMARY_DELETE);
    List<String> fresh = staging.recordDelete(s.tableKey(), s.where(), matched);
    for (EdgeType e : s.cascadeEdges()) {
      for (int from = 0; from < fresh.size(); from += CASCADE_CHUNK) {
        RowFilter cascade = s.cascadeFilter(e, fresh.subList(from, Math.min(fresh.size(), from + CASCADE_CHUNK)));
        staging.recordDelete(e.tableKey(), cascade, staging.matchCommittedIds(e.tableKey(), cascade, true));
      }
    }
  }

  private void deleteEdges(Statement.DeleteEdges s) {
    staging.recordDelete(s.tableKey(), s.where(), staging.matchCommittedIds(s.tableKey(), s.where(), true));
  }

  // ---------------------------------------------------------------- validation

  /** The graph rules over the pending rows plus the committed cut (minus this query's deletes). */
  private void validateWrites() {
    List<PendingRowsView> tables = new ArrayList<>();
    for (PendingTable t : staging.pendingTables()) {
      tables.add(new PendingRowsView(t, plan.queryName()));
    }
    ValueRules values = new ValueRules();
    for (PendingRowsView t : tables) {
      values.checkRows(t, t.properties(), t::values);
    }
    GraphRules.checkPending(tables, staging.schema().catalog().edges(), staging.committed(), staging::deletedIds, false);
  }

  private void validateDeletes() {
    for (EdgeType e : staging.schema().catalog().edges()) {
      Map<String, Long> bySource = staging.deletedEdgesBySource(e.tableKey());
      if (e.cardinality().min() == 0 || bySource.isEmpty()) {
        continue;
      }
      Set<String> sources = new LinkedHashSet<>(bySource.keySet());
      // A deleted source node takes all its edges with it; it has no count to keep.
      sources.removeAll(staging.deletedIds("node:" + e.fromType()));
      GraphRules.checkCardinality(e, sources, staging.committed(), staging::deletedIds,
          new Site.Statement(plan.queryName(), SourcePos.NONE));
    }
  }

  // ---------------------------------------------------------------- errors

  private String prefix(SourcePos pos) {
    return new Site.Statement(plan.queryName(), pos).prefix();
  }

  private ErrorDetail.Validation validation(SourcePos pos, String field, String rule) {
    return new Site.Statement(plan.queryName(), pos).detail(field, rule);
  }
}
