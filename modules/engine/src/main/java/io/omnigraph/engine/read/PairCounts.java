package io.omnigraph.engine.read;

import java.util.Arrays;

/**
 * The (row, destination) pairs a counting one-hop CSR expansion has seen per destination
 * (docs/queries.md, "Traversal strategies"), by dense node index, with the destinations in the
 * order their first pair arrived: an open-addressing map from node to ordinal whose table grows
 * with the destinations it holds (16 slots at first, at most half full). Its memory is in
 * proportion to the distinct destinations (the aggregate's groups at most), never to the CSR's
 * nodes: a per-node array cost every aggregate execution 8 bytes per node of the edge table.
 * Not thread-safe: one per expansion.
 */
final class PairCounts {
  private int[] keys = new int[16];
  private int[] ordinalOf = new int[16];
  /** By ordinal: the node and its pair count. */
  private int[] nodes = new int[8];
  private long[] counts = new long[8];
  private int size;

  PairCounts() {
    Arrays.fill(keys, -1);
  }

  /** Counts one more pair for dense node {@code k} (0 or more). */
  void add(int k) {
    int mask = keys.length - 1;
    for (int s = slot(k, mask); ; s = (s + 1) & mask) {
      int at = keys[s];
      if (at == k) {
        counts[ordinalOf[s]]++;
        return;
      }
      if (at < 0) {
        if (size == nodes.length) {
          nodes = Arrays.copyOf(nodes, size * 2);
          counts = Arrays.copyOf(counts, size * 2);
        }
        keys[s] = k;
        ordinalOf[s] = size;
        nodes[size] = k;
        counts[size] = 1;
        if (2 * ++size > keys.length) {
          grow();
        }
        return;
      }
    }
  }

  /** @return how many destinations have pairs */
  int size() {
    return size;
  }

  /** @return the dense node of the {@code i}-th destination by first pair */
  int node(int i) {
    return nodes[i];
  }

  /** @return the pairs counted for the {@code i}-th destination by first pair */
  long count(int i) {
    return counts[i];
  }

  /** @return the slots of the hash table (tests: memory follows the destinations, not the CSR) */
  int capacity() {
    return keys.length;
  }

  private void grow() {
    int[] oldKeys = keys;
    int[] oldOrdinals = ordinalOf;
    keys = new int[oldKeys.length * 2];
    ordinalOf = new int[oldKeys.length * 2];
    Arrays.fill(keys, -1);
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] >= 0) {
        int s = slot(oldKeys[i], mask);
        while (keys[s] >= 0) {
          s = (s + 1) & mask;
        }
        keys[s] = oldKeys[i];
        ordinalOf[s] = oldOrdinals[i];
      }
    }
  }

  private static int slot(int k, int mask) {
    int h = k * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }
}
