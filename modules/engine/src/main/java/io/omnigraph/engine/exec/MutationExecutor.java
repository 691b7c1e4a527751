package io.omnigraph.engine.exec;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.load.LoadRule;
import io.omnigraph.engine.load.Values;
import io.omnigraph.engine.query.ColumnRef;
import io.omnigraph.engine.query.MutationPlan;
import io.omnigraph.engine.query.MutationPlan.Statement;
import io.omnigraph.engine.query.QueryAst.CompOp;
import io.omnigraph.engine.query.RowFilter;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.SourcePos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Runs the statements of one bound {@link MutationPlan} into a {@link MutationStaging}, in order,
 * then validates the result once against committed plus pending state (language.md §2.8): value
 * constraints ({@code @range}, {@code @check}) of every written row, {@code @unique}, edge
 * endpoints and {@code @card}. Reads only; nothing is written to Lance and no HEAD moves. Any
 * failure is thrown before {@link MutationStaging#stageAll()} and leaves every table untouched.
 *
 * <ul>
 *   <li>{@code insert} of a keyed node: id from the key; an upsert (replaces a pending or committed
 *       row with that id). Unkeyed node and edge inserts: a fresh ULID, a strict insert.
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
  /** Above this many multi-column tuples a {@code @unique} probe scans the table instead of filtering. */
  private static final int UNIQUE_FILTER_TUPLES = 256;

  private final MutationPlan plan;
  private final MutationStaging staging;
  private final Map<Constraint.Check, Pattern> patterns = new HashMap<>();

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
    String id = staging.newId();
    staging.pending(s.type()).put(id, s.from(), s.to(), new ArrayList<>(s.values().values()), s.pos());
    staging.recordInsert(s.tableKey(), id, false);
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

  private void validateWrites() {
    for (PendingTable t : staging.pendingTables()) {
      checkValues(t);
    }
    for (PendingTable t : staging.pendingTables()) {
      checkUnique(t);
    }
    for (PendingTable t : staging.pendingTables()) {
      if (t.edgeType() != null) {
        checkEndpoint(t, true);
        checkEndpoint(t, false);
      }
    }
    for (PendingTable t : staging.pendingTables()) {
      EdgeType e = t.edgeType();
      if (e != null && !e.cardinality().isUnbounded()) {
        Set<String> sources = new LinkedHashSet<>();
        for (String id : t.ids()) {
          sources.add(t.src(id));
        }
        checkCardinality(e, sources, t);
      }
    }
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
      checkCardinality(e, sources, null);
    }
  }

  private void checkValues(PendingTable t) {
    List<Constraint> constraints = t.nodeType() != null ? t.nodeType().constraints() : t.edgeType().constraints();
    String type = typeName(t);
    List<Property> props = t.properties();
    for (Constraint c : constraints) {
      if (!(c instanceof Constraint.Range) && !(c instanceof Constraint.Check)) {
        continue;
      }
      int idx = indexOf(props, c.fields().get(0));
      for (String id : t.ids()) {
        Object v = t.values(id).get(idx);
        if (v == null) {
          continue;
        }
        if (c instanceof Constraint.Range r) {
          String violation = Values.rangeViolation(r, props.get(idx).type(), v);
          if (violation != null) {
            throw violation(LoadRule.RANGE_VIOLATION, t.origin(id), r.field(),
                "@range violation on " + type + "." + r.field() + ": " + violation);
          }
        } else {
          Constraint.Check ch = (Constraint.Check) c;
          if (!patterns.computeIfAbsent(ch, Constraint.Check::compiled).matcher((String) v).find()) {
            throw violation(LoadRule.CHECK_VIOLATION, t.origin(id), ch.field(), "@check violation on " + type + "."
                + ch.field() + ": value '" + v + "' does not match pattern '" + ch.pattern() + "'");
          }
        }
      }
    }
  }

  private void checkUnique(PendingTable t) {
    List<Constraint> constraints = t.nodeType() != null ? t.nodeType().constraints() : t.edgeType().constraints();
    for (Constraint c : constraints) {
      if (!(c instanceof Constraint.Unique u)) {
        continue;
      }
      Map<List<Object>, String> holders = new LinkedHashMap<>();
      for (String id : t.ids()) {
        List<Object> tuple = tuple(t, id, u.fields());
        if (tuple == null) {
          continue;
        }
        String prior = holders.putIfAbsent(tuple, id);
        if (prior != null && !prior.equals(id)) {
          throw uniqueViolation(t, u, tuple, prior, id);
        }
      }
      if (holders.isEmpty()) {
        continue;
      }
      Map<List<Object>, Set<String>> found =
          staging.committedHolders(t, uniqueProbe(t, u.fields(), holders.keySet()), u.fields(), holders.keySet());
      for (Map.Entry<List<Object>, Set<String>> e : found.entrySet()) {
        String writer = holders.get(e.getKey());
        for (String holder : e.getValue()) {
          if (!holder.equals(writer)) {
            throw uniqueViolation(t, u, e.getKey(), holder, writer);
          }
        }
      }
    }
  }

  /** A filter selecting the committed rows that may hold one of the tuples (TRUE when it cannot be narrowed). */
  private static RowFilter uniqueProbe(PendingTable t, List<String> fields, Set<List<Object>> tuples) {
    List<ColumnRef> columns = new ArrayList<>();
    for (String f : fields) {
      ColumnRef c = column(t, f);
      if (c.scalarKind() == null || c.scalarKind() == ScalarKind.BLOB || c.type() instanceof PropertyType.ListOf
          || c.type() instanceof PropertyType.VectorOf) {
        return new RowFilter.Constant(true);
      }
      columns.add(c);
    }
    if (columns.size() == 1) {
      List<Object> values = new ArrayList<>();
      tuples.forEach(tp -> values.add(tp.get(0)));
      return new RowFilter.In(columns.get(0), values);
    }
    if (tuples.size() > UNIQUE_FILTER_TUPLES) {
      return new RowFilter.Constant(true);
    }
    List<RowFilter> any = new ArrayList<>();
    for (List<Object> tp : tuples) {
      List<RowFilter> all = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        all.add(new RowFilter.Compare(columns.get(i), CompOp.EQ, tp.get(i)));
      }
      any.add(new RowFilter.And(all));
    }
    return new RowFilter.Or(any);
  }

  private static ColumnRef column(PendingTable t, String field) {
    if (t.edgeType() != null && (field.equals("src") || field.equals("dst"))) {
      return ColumnRef.system(field);
    }
    return ColumnRef.of(t.properties().get(indexOf(t.properties(), field)));
  }

  /** @return the row's values at {@code fields}, or null when one is null (nulls never collide) */
  private static List<Object> tuple(PendingTable t, String id, List<String> fields) {
    List<Object> values = t.values(id);
    List<Object> out = new ArrayList<>(fields.size());
    for (String f : fields) {
      Object v;
      if (t.edgeType() != null && f.equals("src")) {
        v = t.src(id);
      } else if (t.edgeType() != null && f.equals("dst")) {
        v = t.dst(id);
      } else {
        v = values.get(indexOf(t.properties(), f));
      }
      if (v == null) {
        return null;
      }
      out.add(UniqueTuples.normalize(v));
    }
    return out;
  }

  private InvalidInputException uniqueViolation(PendingTable t, Constraint.Unique u, List<Object> tuple, String first,
      String second) {
    String cols = String.join(",", u.fields());
    String value = tuple.size() == 1 ? String.valueOf(tuple.get(0)) : tuple.toString();
    return violation(LoadRule.UNIQUE_VIOLATION, t.origin(second), cols, "@unique violation on " + typeName(t) + "."
        + cols + ": value '" + value + "' held by '" + first + "' and '" + second + "'");
  }

  private void checkEndpoint(PendingTable edges, boolean src) {
    EdgeType e = edges.edgeType();
    String nodeTypeName = src ? e.fromType() : e.toType();
    NodeType node = staging.schema().catalog().node(nodeTypeName).orElseThrow();
    Set<String> wanted = new LinkedHashSet<>();
    for (String id : edges.ids()) {
      wanted.add(src ? edges.src(id) : edges.dst(id));
    }
    Set<String> existing = staging.existingIds(node, wanted);
    for (String id : edges.ids()) {
      String end = src ? edges.src(id) : edges.dst(id);
      if (!existing.contains(end)) {
        throw violation(LoadRule.DANGLING_EDGE, edges.origin(id), src ? "from" : "to",
            (src ? "src" : "dst") + " '" + end + "' not found in " + nodeTypeName);
      }
    }
  }

  private void checkCardinality(EdgeType e, Set<String> sources, PendingTable pending) {
    Map<String, Long> counts = staging.outgoingEdgeCounts(e, sources);
    for (String s : sources) {
      long count = counts.getOrDefault(s, 0L);
      if (!e.cardinality().admits(count)) {
        String bound = count < e.cardinality().min() ? "min " + e.cardinality().min() : "max " + e.cardinality().max().getAsLong();
        SourcePos pos = SourcePos.NONE;
        if (pending != null) {
          for (String id : pending.ids()) {
            if (pending.src(id).equals(s)) {
              pos = pending.origin(id);
            }
          }
        }
        throw violation(LoadRule.CARDINALITY_VIOLATION, pos, "from",
            "@card violation on edge " + e.name() + ": source '" + s + "' has " + count + " edges (" + bound + ")");
      }
    }
  }

  // ---------------------------------------------------------------- errors

  private static String typeName(PendingTable t) {
    return t.nodeType() != null ? t.nodeType().name() : t.edgeType().name();
  }

  private static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException("no property " + name);
  }

  private String prefix(SourcePos pos) {
    return "mutation '" + plan.queryName() + "'" + (pos.line() > 0 ? " line " + pos.line() + ":" + pos.column() : "") + ": ";
  }

  private static ErrorDetail.Validation validation(SourcePos pos, String field, String rule) {
    return new ErrorDetail.Validation(pos.line() > 0 ? (long) pos.line() : null,
        pos.line() > 0 ? (long) pos.column() : null, field, rule);
  }

  private InvalidInputException violation(LoadRule rule, SourcePos pos, String field, String message) {
    return new InvalidInputException(prefix(pos) + message, validation(pos, field, rule.code()));
  }
}
