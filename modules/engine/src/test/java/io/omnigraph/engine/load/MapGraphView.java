package io.omnigraph.engine.load;

import io.omnigraph.engine.validate.CommittedGraphView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** An in-memory committed graph for loader tests: a real {@link CommittedGraphView} over maps. */
final class MapGraphView implements CommittedGraphView {
  final Map<String, Set<String>> nodes = new HashMap<>();
  /** edge type → list of [id, src, dst]. */
  final Map<String, List<String[]>> edges = new HashMap<>();
  /** table key → columns → tuple → holder ids. */
  final Map<String, Map<List<String>, Map<List<Object>, Set<String>>>> unique = new HashMap<>();

  MapGraphView node(String type, String... ids) {
    nodes.computeIfAbsent(type, k -> new HashSet<>()).addAll(List.of(ids));
    return this;
  }

  MapGraphView edge(String type, String id, String src, String dst) {
    edges.computeIfAbsent(type, k -> new ArrayList<>()).add(new String[] {id, src, dst});
    return this;
  }

  MapGraphView uniqueHolder(String tableKey, List<String> columns, List<Object> tuple, String id) {
    unique.computeIfAbsent(tableKey, k -> new HashMap<>()).computeIfAbsent(columns, k -> new HashMap<>())
        .computeIfAbsent(tuple, k -> new HashSet<>()).add(id);
    return this;
  }

  @Override
  public Set<String> existingNodeIds(String nodeType, Set<String> ids) {
    Set<String> out = new HashSet<>(ids);
    out.retainAll(nodes.getOrDefault(nodeType, Set.of()));
    return out;
  }

  @Override
  public Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String[] e : edges.getOrDefault(edgeType, List.of())) {
      if (srcIds.contains(e[1]) && !ignoredEdgeIds.contains(e[0])) {
        out.merge(e[1], 1L, Long::sum);
      }
    }
    return out;
  }

  @Override
  public Map<List<Object>, Set<String>> uniqueHolders(String tableKey, List<String> columns, Set<List<Object>> tuples) {
    Map<List<Object>, Set<String>> all = unique.getOrDefault(tableKey, Map.of()).getOrDefault(columns, Map.of());
    Map<List<Object>, Set<String>> out = new HashMap<>();
    for (List<Object> t : tuples) {
      if (all.containsKey(t)) {
        out.put(t, all.get(t));
      }
    }
    return out;
  }

  @Override
  public List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit) {
    List<String[]> out = new ArrayList<>();
    for (String[] e : edges.getOrDefault(edgeType, List.of())) {
      String end = endpointColumn.equals("src") ? e[1] : e[2];
      if (!survivingIds.contains(end) && out.size() < limit) {
        out.add(new String[] {e[0], end});
      }
    }
    return out;
  }
}
