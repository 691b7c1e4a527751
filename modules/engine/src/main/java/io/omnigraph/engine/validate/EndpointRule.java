package io.omnigraph.engine.validate;

import io.omnigraph.engine.schema.EdgeType;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Edge endpoints: every {@code src} and {@code dst} of a live edge is a live node of the edge's
 * endpoint type — pending, or committed and not replaced. Sources are checked before targets, each
 * in row order.
 */
final class EndpointRule {
  private static final int MAX_REPORTED_ORPHANS = 1;

  private EndpointRule() {}

  /**
   * @param edges pending edge rows
   * @param nodes pending rows of the endpoint node type, or null if none
   * @param nodeType the endpoint node type
   * @param src true for the {@code src} endpoints, false for {@code dst}
   * @param committed the committed graph, or null when the node type's committed rows are replaced
   */
  static void check(PendingRows edges, PendingRows nodes, String nodeType, boolean src, Committed committed) {
    Set<String> unresolved = new LinkedHashSet<>();
    for (int k = 0; k < edges.size(); k++) {
      if (nodes == null || !edges.endpointIn(k, src, nodes)) {
        unresolved.add(edges.endpoint(k, src));
      }
    }
    if (unresolved.isEmpty()) {
      return;
    }
    Set<String> existing = committed == null ? Set.of() : committed.existingNodeIds(nodeType, unresolved);
    for (int k = 0; k < edges.size(); k++) {
      if (nodes != null && edges.endpointIn(k, src, nodes)) {
        continue;
      }
      String id = edges.endpoint(k, src);
      if (!existing.contains(id)) {
        throw Violations.of(ConstraintRule.DANGLING_EDGE, edges.site(k), src ? "from" : "to",
            (src ? "src" : "dst") + " '" + id + "' not found in " + nodeType);
      }
    }
  }

  /**
   * Committed edges of types with no pending rows must not point at committed nodes that the
   * pending rows replace: for each replaced node table, the first such edge is reported.
   *
   * @param replaced pending tables whose committed rows they replace, by table key
   * @param edgeTypes every edge type of the schema
   * @param committed the committed graph
   */
  static void checkOrphans(Map<String, ? extends PendingRows> replaced, Collection<EdgeType> edgeTypes,
      Committed committed) {
    for (PendingRows nodes : replaced.values()) {
      if (nodes.edgeType() != null) {
        continue;
      }
      String nodeType = nodes.nodeType().name();
      Set<String> surviving = nodes.idSet();
      for (EdgeType e : edgeTypes) {
        if (replaced.containsKey(e.tableKey())) {
          continue; // replaced too; its new rows were checked above
        }
        for (String column : List.of("src", "dst")) {
          String endpointType = column.equals("src") ? e.fromType() : e.toType();
          if (!endpointType.equals(nodeType)) {
            continue;
          }
          List<String[]> orphans = committed.orphanedEdges(e.name(), column, surviving, MAX_REPORTED_ORPHANS);
          if (!orphans.isEmpty()) {
            String[] o = orphans.get(0);
            // An empty replacing table has no row to name: the load reports line 0.
            Site site = nodes.size() == 0 ? new Site.Line(0) : nodes.site(0);
            throw Violations.of(ConstraintRule.DANGLING_EDGE, site, column,
                "overwrite of " + nodes.tableKey() + " would orphan committed edge " + e.name() + " '" + o[0] + "': "
                    + column + " '" + o[1] + "' not found in " + nodeType);
          }
        }
      }
    }
  }
}
