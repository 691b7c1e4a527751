package io.omnigraph.engine.validate;

import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import java.util.List;
import java.util.Set;

/**
 * The pending rows of one table — what a load read or a mutation wrote, not yet committed — as
 * the graph rules read them: one live row per id, in row order {@code k = 0 .. size()-1} (the
 * order in which violations are looked for, so the first row at fault is the one reported).
 */
public interface PendingRows {
  /** @return {@code node:T} or {@code edge:E} */
  String tableKey();

  /** @return the node type, or null for an edge table */
  NodeType nodeType();

  /** @return the edge type, or null for a node table */
  EdgeType edgeType();

  /** @return the number of live rows */
  int size();

  /** @return the id of row {@code k} */
  String id(int k);

  /** @return where row {@code k} came from */
  Site site(int k);

  /** @return true if a live row has this id */
  boolean containsId(String id);

  /** @return the ids of the live rows */
  Set<String> idSet();

  /** @return the {@code src} ({@code src == true}) or {@code dst} node id of edge row {@code k} */
  String endpoint(int k, boolean src);

  /**
   * @return true if the endpoint of edge row {@code k} is a live row of {@code nodes}
   *     (implementations may answer without materializing the id)
   */
  default boolean endpointIn(int k, boolean src, PendingRows nodes) {
    return nodes.containsId(endpoint(k, src));
  }

  /**
   * @param c the index of a {@code @unique} constraint among the type's {@code @unique}
   *     constraints, in declaration order
   * @param k a row
   * @return the row's values at the constraint's columns (values compare with {@code equals}), or
   *     null if any member is null (nulls never collide)
   */
  List<Object> uniqueTuple(int c, int k);

  /** @return the node or edge type's name */
  default String typeName() {
    return nodeType() != null ? nodeType().name() : edgeType().name();
  }

  /** @return the type's constraints, in declaration order */
  default List<Constraint> constraints() {
    return nodeType() != null ? nodeType().constraints() : edgeType().constraints();
  }

  /** @return the type's {@code @unique} constraints, in declaration order */
  default List<Constraint.Unique> uniques() {
    return constraints().stream().filter(Constraint.Unique.class::isInstance).map(Constraint.Unique.class::cast).toList();
  }
}
