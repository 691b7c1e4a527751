package io.omnigraph.engine.validate;

import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.SchemaIr;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.value.UniqueTuples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The graph rules over a merged graph (docs/branches.md, "How a merge runs", step 4 "Validate"): the target snapshot
 * with, per table, some rows replaced or added ({@link Change#taken()}) and some ids deleted. Checks
 * {@code @unique} over the merged rows, edge endpoints (a taken edge needs both nodes; a kept edge
 * whose node the merge deletes is an orphan) and {@code @card} for every source whose outgoing
 * edges the merge adds, rewrites or deletes. Value rules ({@code @range}, {@code @check}) need no
 * check here: every taken row was validated on its branch under the same schema. Unlike the write
 * rules, every violation is collected (a merge reports all its conflicts).
 *
 * <p>Memory follows the change, not the target (docs/branches.md, "Memory bound of the ordered
 * merge"): the target's rows are streamed, and only what matches the change is kept — the target
 * holders of the taken rows' {@code @unique} tuples, the kept edges of the sources whose
 * {@code @card} the merge touches — each entry charged to the caller's budget.
 */
public final class MergedGraphRules {
  private MergedGraphRules() {}

  /**
   * One table's change.
   *
   * @param spec the table
   * @param takenIds ids whose rows the merge writes (inserted or replaced)
   * @param deletedIds ids the merge deletes
   * @param taken the taken rows (at least {@code id}, an edge's {@code src}/{@code dst} and every
   *     {@code @unique} field), owned by the caller
   */
  public record Change(TableSpec spec, Set<String> takenIds, Set<String> deletedIds, List<VectorSchemaRoot> taken) {}

  /**
   * One violation.
   *
   * @param kind the merge conflict kind: {@code orphan_edge}, or the rule's code ({@code unique_violation},
   *     {@code cardinality_violation})
   * @param entityKind {@code node} or {@code edge}
   * @param typeName the type
   * @param id the row at fault
   * @param message for people
   */
  public record Violation(String kind, String entityKind, String typeName, String id, String message) {}

  /** @return every violation of the merged graph, in table order */
  public static List<Violation> check(List<Change> changes, GraphSnapshot target) {
    return check(changes, target, bytes -> {});
  }

  /**
   * @param charge receives a conservative heap size of every entry the checks keep beyond the
   *     changes themselves (it may throw to stop the checks)
   * @return every violation of the merged graph, in table order
   */
  public static List<Violation> check(List<Change> changes, GraphSnapshot target, LongConsumer charge) {
    List<Violation> out = new ArrayList<>();
    new Checker(out, charge).validate(changes, target);
    return out;
  }

  /** @return the {@code @unique} and other constraints of a table's type */
  public static List<Constraint> constraintsOf(CompiledSchema schema, TableSpec spec) {
    return Checker.constraints(schema, spec);
  }

  private record Checker(List<Violation> out, LongConsumer charge) {
  void validate(List<Change> plans, GraphSnapshot tgt) {
    Map<String, Change> byKey = new HashMap<>();
    plans.forEach(p -> byKey.put(p.spec().tableKey(), p));
    CompiledSchema schema = tgt.schema();
    for (Change p : plans) {
      uniques(p, tgt, schema);
    }
    for (TableSpec spec : schema.tables()) {
      if (spec.kind() != SchemaIr.DeclKind.EDGE) {
        continue;
      }
      EdgeType e = schema.catalog().edge(spec.typeName()).orElseThrow();
      Change edges = byKey.get(spec.tableKey());
      Change from = byKey.get("node:" + e.fromType());
      Change to = byKey.get("node:" + e.toType());
      boolean endpointsLost = (from != null && !from.deletedIds().isEmpty()) || (to != null && !to.deletedIds().isEmpty());
      if (edges == null && !endpointsLost) {
        continue;
      }
      edgeRules(spec, e, edges, from, to, tgt);
    }
  }

  static long entry(String... strings) {
    long n = 64;
    for (String s : strings) {
      n += 48 + 2L * s.length();
    }
    return n;
  }

  void uniques(Change p, GraphSnapshot tgt, CompiledSchema schema) {
    List<Constraint.Unique> uniques = constraints(schema, p.spec()).stream().filter(Constraint.Unique.class::isInstance)
        .map(Constraint.Unique.class::cast).toList();
    if (uniques.isEmpty() || p.taken().isEmpty()) {
      return;
    }
    for (Constraint.Unique u : uniques) {
      // The taken rows' tuples first; then, streaming the target, only the holders of those tuples.
      Set<List<Object>> wanted = new HashSet<>();
      for (VectorSchemaRoot batch : p.taken()) {
        for (int i = 0; i < batch.getRowCount(); i++) {
          List<Object> tuple = tuple(batch, u.fields(), i);
          if (tuple != null && wanted.add(tuple)) {
            charge.accept(entry(tuple.toString()));
          }
        }
      }
      if (wanted.isEmpty()) {
        continue;
      }
      Map<List<Object>, String> holders = new HashMap<>();
      List<String> columns = new ArrayList<>(List.of("id"));
      columns.addAll(u.fields());
      tgt.scan(p.spec().tableKey(), columns, (io.omnigraph.engine.plan.RowFilter) null, batch -> {
        VarCharVector ids = (VarCharVector) batch.getVector("id");
        for (int i = 0; i < batch.getRowCount(); i++) {
          String id = new String(ids.get(i), StandardCharsets.UTF_8);
          if (p.takenIds().contains(id) || p.deletedIds().contains(id)) {
            continue;
          }
          List<Object> tuple = tuple(batch, u.fields(), i);
          if (tuple != null && wanted.contains(tuple) && holders.put(tuple, id) == null) {
            charge.accept(entry(id));
          }
        }
      });
      for (VectorSchemaRoot batch : p.taken()) {
        VarCharVector ids = (VarCharVector) batch.getVector("id");
        for (int i = 0; i < batch.getRowCount(); i++) {
          String id = new String(ids.get(i), StandardCharsets.UTF_8);
          List<Object> tuple = tuple(batch, u.fields(), i);
          if (tuple == null) {
            continue;
          }
          String other = holders.putIfAbsent(tuple, id);
          if (other != null && !other.equals(id)) {
            out.add(new Violation(ConstraintRule.UNIQUE_VIOLATION.code(), entityKind(p.spec()), p.spec().typeName(), id,
                "id '" + id + "' and id '" + other + "' would both hold " + u.fields() + " = " + tuple
                    + " after the merge"));
          }
        }
      }
    }
  }

  static List<Object> tuple(VectorSchemaRoot batch, List<String> fields, int i) {
    List<Object> t = new ArrayList<>(fields.size());
    for (String f : fields) {
      Object v = ArrowValues.getComparable(batch.getVector(f), i);
      if (v == null) {
        return null; // nulls never collide
      }
      t.add(UniqueTuples.normalize(v));
    }
    return t;
  }

  static List<Constraint> constraints(CompiledSchema schema, TableSpec spec) {
    if (spec.kind() == SchemaIr.DeclKind.EDGE) {
      return schema.catalog().edge(spec.typeName()).map(EdgeType::constraints).orElse(List.of());
    }
    return schema.catalog().node(spec.typeName()).map(NodeType::constraints).orElse(List.of());
  }

  /** Streams the target's edges of one type that the merge keeps (not taken, not deleted): id, src, dst. */
  void keptEdges(TableSpec spec, Change edges, GraphSnapshot tgt, KeptEdge each) {
    tgt.scan(spec.tableKey(), List.of("id", "src", "dst"), (io.omnigraph.engine.plan.RowFilter) null, batch -> {
      VarCharVector ids = (VarCharVector) batch.getVector("id");
      VarCharVector srcs = (VarCharVector) batch.getVector("src");
      VarCharVector dsts = (VarCharVector) batch.getVector("dst");
      for (int i = 0; i < batch.getRowCount(); i++) {
        String id = new String(ids.get(i), StandardCharsets.UTF_8);
        boolean deleted = edges != null && edges.deletedIds().contains(id);
        if (edges != null && edges.takenIds().contains(id)) {
          continue;
        }
        each.accept(id, new String(srcs.get(i), StandardCharsets.UTF_8), new String(dsts.get(i), StandardCharsets.UTF_8),
            deleted);
      }
    });
  }

  /** One target edge the merge does not rewrite. */
  interface KeptEdge {
    void accept(String id, String src, String dst, boolean deletedByTheMerge);
  }

  /** Endpoints and {@code @card} of one edge type in the merged graph. */
  void edgeRules(TableSpec spec, EdgeType e, Change edges, Change from, Change to, GraphSnapshot tgt) {
    // The taken edges (bounded by the change); the target's other edges are streamed.
    Map<String, String[]> taken = new LinkedHashMap<>();
    if (edges != null) {
      for (VectorSchemaRoot batch : edges.taken()) {
        VarCharVector ids = (VarCharVector) batch.getVector("id");
        VarCharVector srcs = (VarCharVector) batch.getVector("src");
        VarCharVector dsts = (VarCharVector) batch.getVector("dst");
        for (int i = 0; i < batch.getRowCount(); i++) {
          String id = new String(ids.get(i), StandardCharsets.UTF_8);
          String[] ends = {new String(srcs.get(i), StandardCharsets.UTF_8), new String(dsts.get(i), StandardCharsets.UTF_8)};
          taken.put(id, ends);
          charge.accept(entry(id, ends[0], ends[1]));
        }
      }
    }
    boolean nodesLost = (from != null && !from.deletedIds().isEmpty()) || (to != null && !to.deletedIds().isEmpty());
    boolean edgesLost = edges != null && !edges.deletedIds().isEmpty();
    // One streaming pass over the kept target edges: those whose node the merge deletes (orphans),
    // and the sources of the edges the merge deletes (their @card changes).
    List<Map<String, Violation>> orphans = List.of(new TreeMap<>(), new TreeMap<>());
    Set<String> sources = new TreeSet<>();
    if (nodesLost || edgesLost) {
      keptEdges(spec, edges, tgt, (id, src, dst, deleted) -> {
        if (deleted) {
          if (sources.add(src)) {
            charge.accept(entry(src));
          }
          return;
        }
        for (int side = 0; side < 2; side++) {
          Change nodes = side == 0 ? from : to;
          String end = side == 0 ? src : dst;
          if (nodes != null && nodes.deletedIds().contains(end)) {
            charge.accept(entry(id, end));
            orphans.get(side).put(id, orphan(e, side, id, end));
          }
        }
      });
    }
    // Endpoints of the taken edges: each must be a node of the merged graph.
    for (int side = 0; side < 2; side++) {
      String nodeType = side == 0 ? e.fromType() : e.toType();
      Change nodes = side == 0 ? from : to;
      Set<String> probe = new HashSet<>();
      for (String[] ends : taken.values()) {
        String end = ends[side];
        if ((nodes == null || !nodes.takenIds().contains(end)) && (nodes == null || !nodes.deletedIds().contains(end))) {
          probe.add(end);
        }
      }
      Set<String> alive = probe.isEmpty() ? Set.of() : tgt.existingNodeIds(nodeType, probe);
      for (Map.Entry<String, String[]> m : taken.entrySet()) {
        String end = m.getValue()[side];
        boolean ok = (nodes != null && nodes.takenIds().contains(end)) || alive.contains(end);
        if (!ok) {
          orphans.get(side).put(m.getKey(), orphan(e, side, m.getKey(), end));
        }
      }
      out.addAll(orphans.get(side).values());
    }
    // @card: every source whose outgoing edges the merge adds, rewrites or deletes (as writes check it).
    long min = e.cardinality().min();
    java.util.OptionalLong max = e.cardinality().max();
    if (min == 0 && max.isEmpty()) {
      return;
    }
    for (String[] ends : taken.values()) {
      sources.add(ends[0]);
    }
    if (from != null) {
      sources.removeAll(from.deletedIds());
    }
    if (sources.isEmpty()) {
      return;
    }
    Map<String, Long> counts = new HashMap<>();
    keptEdges(spec, edges, tgt, (id, src, dst, deleted) -> {
      if (!deleted && sources.contains(src)) {
        counts.merge(src, 1L, Long::sum);
      }
    });
    for (String[] ends : taken.values()) {
      if (sources.contains(ends[0])) {
        counts.merge(ends[0], 1L, Long::sum);
      }
    }
    for (String s : sources) {
      long n = counts.getOrDefault(s, 0L);
      if (n < min || (max.isPresent() && n > max.getAsLong())) {
        out.add(new Violation(ConstraintRule.CARDINALITY_VIOLATION.code(), "node", e.fromType(), s,
            "node '" + s + "' would have " + n + " outgoing " + e.name() + " edges after the merge; @card allows "
                + min + ".." + (max.isPresent() ? Long.toString(max.getAsLong()) : "")));
      }
    }
  }

  static Violation orphan(EdgeType e, int side, String edgeId, String end) {
    String nodeType = side == 0 ? e.fromType() : e.toType();
    return new Violation("orphan_edge", "edge", e.name(), edgeId, "edge '" + edgeId + "' would point at "
        + (side == 0 ? "source" : "target") + " node " + nodeType + " '" + end + "', which the merged graph does not have");
  }

    static String entityKind(TableSpec spec) {
      return spec.kind() == SchemaIr.DeclKind.EDGE ? "edge" : "node";
    }
  }
}
