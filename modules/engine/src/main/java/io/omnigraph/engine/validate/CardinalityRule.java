package io.omnigraph.engine.validate;

import io.omnigraph.engine.schema.EdgeType;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code @card}: the number of live outgoing edges of a type per source node is within the type's
 * bounds. Checked for the sources that the pending changes touch (sources that get no new edge
 * and lose none are not re-checked); sources are judged in the order they first occur.
 */
final class CardinalityRule {
  private CardinalityRule() {}

  /**
   * Checks the sources of pending edges: pending count plus committed count (committed edges the
   * pending rows rewrite are not counted). A violation names the last pending edge of the source.
   *
   * @param edges pending rows of an edge type with bounds
   * @param committed the committed graph, or null when the edge type's committed rows are replaced
   */
  static void checkPending(PendingRows edges, Committed committed) {
    EdgeType e = edges.edgeType();
    Map<String, Long> pendingCount = new LinkedHashMap<>();
    Map<String, Integer> last = new HashMap<>();
    for (int k = 0; k < edges.size(); k++) {
      String src = edges.endpoint(k, true);
      pendingCount.merge(src, 1L, Long::sum);
      last.put(src, k);
    }
    Map<String, Long> committedCount = committed == null
        ? Map.of()
        : committed.outgoingEdgeCounts(e.name(), pendingCount.keySet(), edges.idSet());
    for (Map.Entry<String, Long> s : pendingCount.entrySet()) {
      long count = s.getValue() + committedCount.getOrDefault(s.getKey(), 0L);
      if (!e.cardinality().admits(count)) {
        throw violation(e, s.getKey(), count, edges.site(last.get(s.getKey())));
      }
    }
  }

  /**
   * Checks sources that have no pending edge of the type (e.g. sources that lost edges), by their
   * committed count.
   *
   * @param e an edge type with bounds
   * @param sources source node ids, in reporting order
   * @param committed the committed graph
   * @param site where a violation is reported
   */
  static void checkCommitted(EdgeType e, Set<String> sources, Committed committed, Site site) {
    Map<String, Long> counts = sources.isEmpty() ? Map.of() : committed.outgoingEdgeCounts(e.name(), sources, Set.of());
    for (String s : sources) {
      long count = counts.getOrDefault(s, 0L);
      if (!e.cardinality().admits(count)) {
        throw violation(e, s, count, site);
      }
    }
  }

  private static RuntimeException violation(EdgeType e, String source, long count, Site site) {
    String bound = count < e.cardinality().min()
        ? "min " + e.cardinality().min()
        : "max " + e.cardinality().max().getAsLong();
    return Violations.of(ConstraintRule.CARDINALITY_VIOLATION, site, "from",
        "@card violation on edge " + e.name() + ": source '" + source + "' has " + count + " edges (" + bound + ")");
  }
}
