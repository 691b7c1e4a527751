package io.omnigraph.engine.validate;

import io.omnigraph.engine.snapshot.GraphSnapshot;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The committed side as the rules read it: the snapshot's lookups, minus the committed rows the
 * write deletes. Package-private plumbing of the rules, not a port: the lookups are the
 * snapshot's own.
 *
 * @param snapshot the cut the write is prepared against
 * @param deleted table key → the committed ids the write deletes
 */
record Committed(GraphSnapshot snapshot, Function<String, Set<String>> deleted) {

  /** @return the subset of {@code ids} that exist in the node table and are not deleted */
  Set<String> existingNodeIds(String nodeType, Set<String> ids) {
    Set<String> out = new LinkedHashSet<>(snapshot.existingNodeIds(nodeType, ids));
    out.removeAll(deleted.apply("node:" + nodeType));
    return out;
  }

  /** @return source id → committed outgoing edges not deleted and not in {@code ignoredEdgeIds} */
  Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
    Set<String> gone = deleted.apply("edge:" + edgeType);
    if (gone.isEmpty()) {
      return snapshot.outgoingEdgeCounts(edgeType, srcIds, ignoredEdgeIds);
    }
    Set<String> ignored = new HashSet<>(ignoredEdgeIds);
    ignored.addAll(gone);
    return snapshot.outgoingEdgeCounts(edgeType, srcIds, ignored);
  }

  /** @return tuple → committed, not deleted ids holding it */
  Map<List<Object>, Set<String>> uniqueHolders(String tableKey, List<String> columns, Set<List<Object>> tuples) {
    Map<List<Object>, Set<String>> found = snapshot.uniqueHolders(tableKey, columns, tuples);
    Set<String> gone = deleted.apply(tableKey);
    if (!gone.isEmpty()) {
      found.values().forEach(ids -> ids.removeAll(gone));
    }
    return found;
  }

  /** @see GraphSnapshot#orphanedEdges */
  List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit) {
    return snapshot.orphanedEdges(edgeType, endpointColumn, survivingIds, limit);
  }
}
