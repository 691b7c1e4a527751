package io.omnigraph.engine.read;

import io.omnigraph.engine.schema.EdgeType;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** One operator of a read plan's pipeline (docs/queries.md, "Execution"). */
sealed interface Op {

  /**
   * Scans a node table (with the binding's pushed filter and projection) and joins each row: the
   * pipeline's source when first, otherwise a cross join with a separate component, whose scan
   * is read once per query.
   */
  record Scan(Binding binding) implements Op {}

  /** The direction a traversal follows edges from the bound side. */
  enum Dir {
    /** from {@code src} to {@code dst} */
    OUT,
    /** from {@code dst} to {@code src} */
    IN,
    /** both ways (undirected, same-type edges) */
    BOTH
  }

  /**
   * Follows an edge type from a bound variable.
   *
   * @param from the bound side
   * @param to the other side (bound already when {@code closing})
   * @param edge the edge type
   * @param dir the direction from {@code from}
   * @param minHops at least 1
   * @param maxHops at least minHops (1 for cross-type edges)
   * @param edgeVar the edge binding, or null
   * @param closing whether {@code to} was bound before (the traversal checks reachability)
   */
  record Expand(Binding from, Binding to, EdgeType edge, Dir dir, int minHops, int maxHops, Binding edgeVar,
      boolean closing) implements Op {
    boolean sameType() {
      return edge.fromType().equals(edge.toType());
    }
  }

  /**
   * A predicate over bound variables evaluated in memory.
   *
   * @param test the predicate over a row's slots
   * @param text as written
   */
  record Filter(Predicate<Entity[]> test, String text) implements Op {}

  /**
   * {@code not { … }}: keeps the rows for which the inner pipeline, seeded with the row, yields
   * nothing.
   *
   * @param inner the inner pipeline
   * @param outer the outer bindings the block reads
   */
  record AntiJoin(List<Op> inner, Set<Binding> outer) implements Op {}
}
