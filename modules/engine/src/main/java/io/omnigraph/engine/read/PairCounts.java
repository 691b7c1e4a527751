package io.omnigraph.engine.read;

import java.util.Arrays;

/**
 * The (row, destination) pairs a counting one-hop CSR expansion has seen per destination
 * (docs/queries.md, "Traversal strategies"), by dense node index, with the destinations in the
 * order their first pair arrived ({@link NodeOrdinals}). Its memory is in proportion to the
 * distinct destinations (the aggregate's groups at most), never to the CSR's nodes: a per-node
 * array cost every aggregate execution 8 bytes per node of the edge table. Not thread-safe: one
 * per expansion.
 */
final class PairCounts {
  private final NodeOrdinals destinations = new NodeOrdinals();
  /** By ordinal: the destination's pair count. */
  private long[] counts = new long[8];

  /** Counts one more pair for dense node {@code k} (0 or more). */
  void add(int k) {
    int ordinal = destinations.add(k);
    if (ordinal == counts.length) {
      counts = Arrays.copyOf(counts, ordinal * 2);
    }
    counts[ordinal]++;
  }

  /** @return how many destinations have pairs */
  int size() {
    return destinations.size();
  }

  /** @return the dense node of the {@code i}-th destination by first pair */
  int node(int i) {
    return destinations.node(i);
  }

  /** @return the pairs counted for the {@code i}-th destination by first pair */
  long count(int i) {
    return counts[i];
  }

  /** @return the slots of the hash table (tests: memory follows the destinations, not the CSR) */
  int capacity() {
    return destinations.capacity();
  }
}
