package io.omnigraph.engine.validate;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the graph rules need to know about already-committed graph state (at the snapshot a write
 * is prepared against). {@code snapshot.GraphSnapshot} implements it against Lance; {@link #EMPTY}
 * is a graph with no rows. Implementations report storage failures as {@link io.omnigraph.api.OmnigraphException}s;
 * they never return partial answers.
 */
public interface CommittedGraphView {

  /**
   * @param nodeType node type name
   * @param ids candidate ids
   * @return the subset of {@code ids} that exist in the committed table
   */
  Set<String> existingNodeIds(String nodeType, Set<String> ids);

  /**
   * Counts committed outgoing edges per source.
   *
   * @param edgeType edge type name
   * @param srcIds source node ids
   * @param ignoredEdgeIds committed edges with these ids are not counted (they are being replaced)
   * @return source id → committed count (absent = 0)
   */
  Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds);

  /**
   * Finds committed holders of {@code @unique} tuples.
   *
   * @param tableKey {@code node:T} or {@code edge:E}
   * @param columns the constraint's columns (properties, or {@code src}/{@code dst} on edges)
   * @param tuples candidate tuples, values in the representation of {@link io.omnigraph.engine.value.Scalars}
   * @return tuple → ids of committed rows holding it (absent = none)
   */
  Map<List<Object>, Set<String>> uniqueHolders(String tableKey, List<String> columns, Set<List<Object>> tuples);

  /**
   * Committed edges whose endpoint ({@code src} or {@code dst}) is in a node type whose committed
   * rows are being replaced, and which point at an id not in {@code survivingIds} — the edges an
   * overwrite would orphan.
   *
   * @param edgeType edge type name
   * @param endpointColumn {@code src} or {@code dst}
   * @param survivingIds ids of the replacing image of the endpoint node type
   * @param limit stop after this many findings
   * @return up to {@code limit} pairs {@code [edgeId, endpointId]}
   */
  List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit);

  /** A graph with no committed rows. */
  CommittedGraphView EMPTY =
      new CommittedGraphView() {
        @Override
        public Set<String> existingNodeIds(String nodeType, Set<String> ids) {
          return Set.of();
        }

        @Override
        public Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
          return Map.of();
        }

        @Override
        public Map<List<Object>, Set<String>> uniqueHolders(
            String tableKey, List<String> columns, Set<List<Object>> tuples) {
          return Map.of();
        }

        @Override
        public List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit) {
          return List.of();
        }
      };
}
