package io.omnigraph.engine.load;

import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cross-row checks of one load, run after every line has been read, against the rows of this
 * load plus the {@link CommittedGraphView}: {@code @unique}, edge endpoints, (overwrite) orphaned
 * committed edges, and {@code @card}, in that order.
 *
 * <p>{@code OVERWRITE} ignores committed rows of the tables it touches (they are being replaced)
 * and refuses to orphan committed edges of untouched edge types. {@code @card} is checked for the
 * sources of the edges in this load (committed + pending count): sources that get no edge are not
 * re-checked, and in merge mode a committed edge whose id is re-loaded with a different
 * {@code from} is not re-counted against its old source.
 */
final class CrossRowChecks {
  private static final int MAX_REPORTED_ORPHANS = 1;

  private final CompiledSchema schema;
  private final LoadMode mode;
  private final CommittedGraphView committed;

  CrossRowChecks(CompiledSchema schema, LoadMode mode, CommittedGraphView committed) {
    this.schema = schema;
    this.mode = mode;
    this.committed = committed;
  }

  /**
   * @param tables the touched tables, in schema order
   * @throws InvalidInputException the first violation
   */
  void check(List<TableRows> tables) {
    Map<String, TableRows> byKey = new LinkedHashMap<>();
    tables.forEach(t -> byKey.put(t.spec().tableKey(), t));
    for (TableRows t : tables) {
      checkUnique(t);
    }
    for (TableRows t : tables) {
      if (t.isEdge()) {
        checkEndpoints(t, byKey);
      }
    }
    if (mode == LoadMode.OVERWRITE) {
      checkOrphans(byKey);
    }
    for (TableRows t : tables) {
      if (t.isEdge() && !t.edgeType().cardinality().isUnbounded()) {
        checkCardinality(t);
      }
    }
  }

  private boolean replacesCommitted(String tableKey, Map<String, TableRows> byKey) {
    return mode == LoadMode.OVERWRITE && byKey.containsKey(tableKey);
  }

  private void checkUnique(TableRows t) {
    for (int c = 0; c < t.uniques.size(); c++) {
      Constraint.Unique u = t.uniques.get(c);
      Map<List<Object>, Integer> holders = new HashMap<>(); // tuple -> row number k
      for (int k = 0; k < t.size(); k++) {
        List<Object> tuple = t.tupleAt(c, t.rowOf(k));
        if (tuple == null) {
          continue;
        }
        Integer prior = holders.putIfAbsent(tuple, k);
        if (prior != null && prior != k) {
          throw uniqueViolation(t, u, tuple, t.idAt(prior), t.line(t.rowOf(k)), t.idAt(k));
        }
      }
      if (mode == LoadMode.OVERWRITE || holders.isEmpty()) {
        continue;
      }
      Map<List<Object>, Set<String>> found = committed.uniqueHolders(t.spec().tableKey(), u.fields(), holders.keySet());
      for (Map.Entry<List<Object>, Set<String>> e : found.entrySet()) {
        Integer k = holders.get(e.getKey());
        for (String holder : e.getValue()) {
          // A committed holder that this load rewrites is judged by its new values above.
          if (k != null && !holder.equals(t.idAt(k)) && !t.containsId(holder)) {
            throw uniqueViolation(t, u, e.getKey(), holder, t.line(t.rowOf(k)), t.idAt(k));
          }
        }
      }
    }
  }

  private InvalidInputException uniqueViolation(TableRows t, Constraint.Unique u, List<Object> tuple, String first,
      long line, String id) {
    String type = t.isEdge() ? t.edgeType().name() : t.nodeType().name();
    return LoadRule.UNIQUE_VIOLATION.at(line, String.join(",", u.fields()),
        "@unique violation on " + type + "." + String.join(",", u.fields()) + ": value '" + render(tuple) + "' held by '" + first + "' and '" + id + "'");
  }

  private static String render(List<Object> tuple) {
    List<String> parts = new ArrayList<>();
    for (Object o : tuple) {
      parts.add(o instanceof float[] f ? Arrays.toString(f) : String.valueOf(o));
    }
    return parts.size() == 1 ? parts.get(0) : parts.toString();
  }

  private void checkEndpoints(TableRows edges, Map<String, TableRows> byKey) {
    EdgeType e = edges.edgeType();
    checkEndpoint(edges, byKey, e.fromType(), true);
    checkEndpoint(edges, byKey, e.toType(), false);
  }

  private void checkEndpoint(TableRows edges, Map<String, TableRows> byKey, String nodeType, boolean src) {
    String nodeKey = "node:" + nodeType;
    TableRows pending = byKey.get(nodeKey);
    Utf8Column ends = edges.endpoints(src);
    byte[] arena = ends.arena();
    Set<String> unresolved = new LinkedHashSet<>();
    for (int k = 0; k < edges.size(); k++) {
      int r = edges.rowOf(k);
      if (pending == null || !pending.containsIdBytes(arena, ends.start(r), ends.length(r))) {
        unresolved.add(ends.get(r));
      }
    }
    if (unresolved.isEmpty()) {
      return;
    }
    Set<String> existing = replacesCommitted(nodeKey, byKey) ? Set.of() : committed.existingNodeIds(nodeType, unresolved);
    for (int k = 0; k < edges.size(); k++) {
      int r = edges.rowOf(k);
      if (pending != null && pending.containsIdBytes(arena, ends.start(r), ends.length(r))) {
        continue;
      }
      String id = ends.get(r);
      if (!existing.contains(id)) {
        throw LoadRule.DANGLING_EDGE.at(edges.line(r), src ? "from" : "to",
            (src ? "src" : "dst") + " '" + id + "' not found in " + nodeType);
      }
    }
  }

  private void checkOrphans(Map<String, TableRows> byKey) {
    for (TableRows nodes : byKey.values()) {
      if (nodes.isEdge()) {
        continue;
      }
      String nodeType = nodes.nodeType().name();
      Set<String> surviving = nodes.idSet();
      for (EdgeType e : schema.catalog().edges()) {
        if (byKey.containsKey(e.tableKey())) {
          continue; // replaced in this load; its new rows were checked above
        }
        for (String column : List.of("src", "dst")) {
          String endpointType = column.equals("src") ? e.fromType() : e.toType();
          if (!endpointType.equals(nodeType)) {
            continue;
          }
          List<String[]> orphans = committed.orphanedEdges(e.name(), column, surviving, MAX_REPORTED_ORPHANS);
          if (!orphans.isEmpty()) {
            String[] o = orphans.get(0);
            throw LoadRule.DANGLING_EDGE.at(nodes.size() == 0 ? 0 : nodes.line(nodes.rowOf(0)), column,
                "overwrite of " + nodes.spec().tableKey() + " would orphan committed edge " + e.name() + " '" + o[0] + "': "
                    + column + " '" + o[1] + "' not found in " + nodeType);
          }
        }
      }
    }
  }

  private void checkCardinality(TableRows edges) {
    EdgeType e = edges.edgeType();
    Map<String, Long> pendingCount = new LinkedHashMap<>();
    Map<String, Long> lastLine = new HashMap<>();
    Utf8Column srcs = edges.endpoints(true);
    for (int k = 0; k < edges.size(); k++) {
      int r = edges.rowOf(k);
      String src = srcs.get(r);
      pendingCount.merge(src, 1L, Long::sum);
      lastLine.put(src, edges.line(r));
    }
    Map<String, Long> committedCount = mode == LoadMode.OVERWRITE
        ? Map.of()
        : committed.outgoingEdgeCounts(e.name(), pendingCount.keySet(), edges.idSet());
    for (Map.Entry<String, Long> s : pendingCount.entrySet()) {
      long count = s.getValue() + committedCount.getOrDefault(s.getKey(), 0L);
      if (!e.cardinality().admits(count)) {
        String bound = count < e.cardinality().min()
            ? "min " + e.cardinality().min()
            : "max " + e.cardinality().max().getAsLong();
        throw LoadRule.CARDINALITY_VIOLATION.at(lastLine.get(s.getKey()), "from",
            "@card violation on edge " + e.name() + ": source '" + s.getKey() + "' has " + count + " edges (" + bound + ")");
      }
    }
  }
}
