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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The graph rules over a merged graph (docs/branches.md, "Merge validation"): the target snapshot
 * with, per table, some rows replaced or added ({@link Change#taken()}) and some ids deleted. Checks
 * {@code @unique} over the merged rows, edge endpoints (a taken edge needs both nodes; a kept edge
 * whose node the merge deletes is an orphan) and {@code @card} for every source whose outgoing
 * edges the merge adds, rewrites or deletes. Value rules ({@code @range}, {@code @check}) need no
 * check here: every taken row was validated on its branch under the same schema. Unlike the write
 * rules, every violation is collected (a merge reports all its conflicts).
 */
public final class MergedGraphRules {
  private MergedGraphRules() {}

  /**
   * One table's change.
   *
   * @param spec the table
   * @param takenIds ids whose rows the merge writes (inserted or replaced)
   * @param deletedIds ids the merge deletes
   * @param taken the taken rows (full table schema), owned by the caller
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
    List<Violation> out = new ArrayList<>();
    new Checker(out).validate(changes, target);
    return out;
  }

  private record Checker(List<Violation> out) {
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

  void uniques(Change p, GraphSnapshot tgt, CompiledSchema schema) {
    List<Constraint.Unique> uniques = constraints(schema, p.spec()).stream().filter(Constraint.Unique.class::isInstance)
        .map(Constraint.Unique.class::cast).toList();
    if (uniques.isEmpty() || p.taken().isEmpty()) {
      return;
    }
    for (Constraint.Unique u : uniques) {
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
          if (tuple != null) {
            holders.put(tuple, id);
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

  /** Endpoints and {@code @card} of one edge type in the merged graph. */
  void edgeRules(TableSpec spec, EdgeType e, Change edges, Change from, Change to, GraphSnapshot tgt) {
    // The merged edges: target edges not rewritten or deleted, plus the taken ones.
    Map<String, String[]> merged = new TreeMap<>();
    tgt.scan(spec.tableKey(), List.of("id", "src", "dst"), (io.omnigraph.engine.plan.RowFilter) null, batch -> {
      VarCharVector ids = (VarCharVector) batch.getVector("id");
      VarCharVector srcs = (VarCharVector) batch.getVector("src");
      VarCharVector dsts = (VarCharVector) batch.getVector("dst");
      for (int i = 0; i < batch.getRowCount(); i++) {
        String id = new String(ids.get(i), StandardCharsets.UTF_8);
        if (edges != null && (edges.takenIds().contains(id) || edges.deletedIds().contains(id))) {
          continue;
        }
        merged.put(id, new String[] {new String(srcs.get(i), StandardCharsets.UTF_8),
            new String(dsts.get(i), StandardCharsets.UTF_8)});
      }
    });
    Set<String> takenEdges = new HashSet<>();
    if (edges != null) {
      for (VectorSchemaRoot batch : edges.taken()) {
        VarCharVector ids = (VarCharVector) batch.getVector("id");
        VarCharVector srcs = (VarCharVector) batch.getVector("src");
        VarCharVector dsts = (VarCharVector) batch.getVector("dst");
        for (int i = 0; i < batch.getRowCount(); i++) {
          String id = new String(ids.get(i), StandardCharsets.UTF_8);
          takenEdges.add(id);
          merged.put(id, new String[] {new String(srcs.get(i), StandardCharsets.UTF_8),
              new String(dsts.get(i), StandardCharsets.UTF_8)});
        }
      }
    }
    // Endpoints: a taken edge needs both nodes in the merged graph; a kept edge loses one when the merge deletes it.
    for (int side = 0; side < 2; side++) {
      String nodeType = side == 0 ? e.fromType() : e.toType();
      Change nodes = side == 0 ? from : to;
      Set<String> candidates = new TreeSet<>();
      for (Map.Entry<String, String[]> m : merged.entrySet()) {
        String end = m.getValue()[side];
        if (takenEdges.contains(m.getKey()) || (nodes != null && nodes.deletedIds().contains(end))) {
          candidates.add(end);
        }
      }
      if (candidates.isEmpty()) {
        continue;
      }
      Set<String> alive = new HashSet<>();
      Set<String> probe = new HashSet<>();
      for (String id : candidates) {
        if (nodes != null && nodes.takenIds().contains(id)) {
          alive.add(id);
        } else if (nodes == null || !nodes.deletedIds().contains(id)) {
          probe.add(id);
        }
      }
      if (!probe.isEmpty()) {
        alive.addAll(tgt.existingNodeIds(nodeType, probe));
      }
      for (Map.Entry<String, String[]> m : merged.entrySet()) {
        String end = m.getValue()[side];
        if (candidates.contains(end) && !alive.contains(end)) {
          out.add(new Violation("orphan_edge", "edge", e.name(), m.getKey(),
              "edge '" + m.getKey() + "' would point at " + (side == 0 ? "source" : "target") + " node " + nodeType
                  + " '" + end + "', which the merged graph does not have"));
        }
      }
    }
    // @card: every source whose outgoing edges the merge adds, rewrites or deletes (as writes check it).
    long min = e.cardinality().min();
    java.util.OptionalLong max = e.cardinality().max();
    if (min == 0 && max.isEmpty()) {
      return;
    }
    Set<String> sources = new TreeSet<>();
    if (edges != null) {
      for (String id : takenEdges) {
        sources.add(merged.get(id)[0]);
      }
      // Sources of deleted target edges: read from the target.
      if (!edges.deletedIds().isEmpty()) {
        tgt.scan(spec.tableKey(), List.of("id", "src"), (io.omnigraph.engine.plan.RowFilter) null, batch -> {
          VarCharVector ids = (VarCharVector) batch.getVector("id");
          VarCharVector srcs = (VarCharVector) batch.getVector("src");
          for (int i = 0; i < batch.getRowCount(); i++) {
            if (edges.deletedIds().contains(new String(ids.get(i), StandardCharsets.UTF_8))) {
              sources.add(new String(srcs.get(i), StandardCharsets.UTF_8));
            }
          }
        });
      }
    }
    if (from != null) {
      sources.removeAll(from.deletedIds());
    }
    Map<String, Long> counts = new HashMap<>();
    for (String[] m : merged.values()) {
      if (sources.contains(m[0])) {
        counts.merge(m[0], 1L, Long::sum);
      }
    }
    for (String s : sources) {
      if (from != null && from.deletedIds().contains(s)) {
        continue;
      }
      long n = counts.getOrDefault(s, 0L);
      if (n < min || (max.isPresent() && n > max.getAsLong())) {
        out.add(new Violation(ConstraintRule.CARDINALITY_VIOLATION.code(), "node", e.fromType(), s,
            "node '" + s + "' would have " + n + " outgoing " + e.name() + " edges after the merge; @card allows "
                + min + ".." + (max.isPresent() ? Long.toString(max.getAsLong()) : "")));
      }
    }
  }

    static String entityKind(TableSpec spec) {
      return spec.kind() == SchemaIr.DeclKind.EDGE ? "edge" : "node";
    }
  }
}
