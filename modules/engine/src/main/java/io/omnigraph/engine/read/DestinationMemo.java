package io.omnigraph.engine.read;

import java.util.Arrays;

/**
 * The hydrated destination rows of one CSR expansion by dense node index (docs/queries.md,
 * "Traversal strategies"): a map from node to {@link Entity} over {@link NodeOrdinals}, so an
 * expansion reaching five nodes allocates a few hundred bytes, not one reference per node of the
 * CSR. The caller bounds it ({@link #size}, {@link #clear}). Not thread-safe: one per expansion.
 */
final class DestinationMemo {
  private final NodeOrdinals nodes = new NodeOrdinals();
  /** By ordinal: the remembered row. */
  private Entity[] vals = new Entity[8];

  /** @return the row remembered for dense node {@code k} (0 or more), or null */
  Entity get(int k) {
    int ordinal = nodes.ordinal(k);
    return ordinal < 0 ? null : vals[ordinal];
  }

  /** Remembers {@code v} for dense node {@code k} (0 or more), replacing what was there. */
  void put(int k, Entity v) {
    int ordinal = nodes.add(k);
    if (ordinal == vals.length) {
      vals = Arrays.copyOf(vals, ordinal * 2);
    }
    vals[ordinal] = v;
  }

  /** @return how many nodes are remembered */
  int size() {
    return nodes.size();
  }

  /** Forgets everything (back to the initial table). */
  void clear() {
    nodes.clear();
    vals = new Entity[8];
  }
}
