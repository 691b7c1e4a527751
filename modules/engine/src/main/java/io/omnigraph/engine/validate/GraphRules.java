package io.omnigraph.engine.validate;

import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The graph rules across rows, over "pending changes + committed snapshot": {@code @unique}, edge
 * endpoints, (for writes that replace committed tables) orphaned committed edges, and {@code @card},
 * in that order, each table in the order given. The value rules ({@code @range}, {@code @check})
 * are per row: {@link ValueRules}. Every violation is an {@link io.omnigraph.api.InvalidInputException}
 * whose detail names the {@link ConstraintRule} and the {@link Site} of the offending row.
 *
 * <p>Used by the loader and the mutation executor (and, later, by merge and migration). Each
 * caller supplies its pending rows ({@link PendingRows}), the {@link GraphSnapshot} the write is
 * prepared against, and the committed ids the write deletes (they no longer count: a deleted node
 * is no endpoint, a deleted edge no longer counts for {@code @card}, a deleted row holds no
 * {@code @unique} value). Committed rows that pending rows rewrite (same id) are judged by their
 * pending values.
 */
public final class GraphRules {
  private GraphRules() {}

  /**
   * Checks the pending rows of a write across rows.
   *
   * @param tables the tables with pending rows, in checking order
   * @param edgeTypes every edge type of the schema (for the orphan check)
   * @param committed the committed graph the write is prepared against, or null when there is none
   *     (every lookup then finds nothing)
   * @param deleted table key → the committed ids the write deletes
   * @param replacesCommitted true when the pending rows replace the committed rows of their tables
   *     (an overwrite load): those committed rows are then ignored, and committed edges of other
   *     types must not point at replaced nodes that do not survive
   * @throws io.omnigraph.api.InvalidInputException the first violation
   */
  public static void checkPending(List<? extends PendingRows> tables, Collection<EdgeType> edgeTypes,
      GraphSnapshot committed, Function<String, Set<String>> deleted, boolean replacesCommitted) {
    Committed base = committed == null ? null : new Committed(committed, deleted);
    Map<String, PendingRows> byKey = new LinkedHashMap<>();
    tables.forEach(t -> byKey.put(t.tableKey(), t));
    for (PendingRows t : tables) {
      UniqueRule.check(t, replacesCommitted ? null : base);
    }
    for (PendingRows t : tables) {
      EdgeType e = t.edgeType();
      if (e != null) {
        for (boolean src : new boolean[] {true, false}) {
          String nodeType = src ? e.fromType() : e.toType();
          String nodeKey = "node:" + nodeType;
          boolean replaced = replacesCommitted && byKey.containsKey(nodeKey);
          EndpointRule.check(t, byKey.get(nodeKey), nodeType, src, replaced ? null : base);
        }
      }
    }
    if (replacesCommitted && base != null) {
      EndpointRule.checkOrphans(byKey, edgeTypes, base);
    }
    for (PendingRows t : tables) {
      if (t.edgeType() != null && !t.edgeType().cardinality().isUnbounded()) {
        CardinalityRule.checkPending(t, replacesCommitted ? null : base);
      }
    }
  }

  /**
   * Checks {@code @card} for sources with no pending edges of the type, by their committed count
   * (e.g. the sources of deleted edges).
   *
   * @param e an edge type
   * @param sources source node ids, in reporting order
   * @param committed the committed graph the write is prepared against
   * @param deleted table key → the committed ids the write deletes
   * @param site where a violation is reported
   * @throws io.omnigraph.api.InvalidInputException the first source out of bounds
   */
  public static void checkCardinality(EdgeType e, Set<String> sources, GraphSnapshot committed,
      Function<String, Set<String>> deleted, Site site) {
    CardinalityRule.checkCommitted(e, sources, new Committed(committed, deleted), site);
  }
}
