package io.omnigraph.engine.read;

import java.util.Arrays;

/**
 * Dense node indexes numbered 0, 1, 2, … in the order they were first added: an open-addressing
 * table from node to ordinal that grows with the nodes it holds (16 slots at first, at most half
 * full), so its memory is in proportion to the distinct nodes added, never to the nodes of the CSR
 * they come from (docs/queries.md, "Traversal strategies"). The per-expansion maps of this package
 * keep their values in arrays indexed by the ordinal ({@link DestinationMemo}, {@link PairCounts}).
 * Not thread-safe.
 */
final class NodeOrdinals {
  private int[] keys;
  private int[] ordinalOf;
  /** By ordinal: the node. */
  private int[] nodes;
  private int size;

  NodeOrdinals() {
    clear();
  }

  /** @return the ordinal of dense node {@code k} (0 or more), or -1 when it was not added */
  int ordinal(int k) {
    int s = slotOf(k);
    return keys[s] == k ? ordinalOf[s] : -1;
  }

  /**
   * Adds dense node {@code k} (0 or more) if it is new.
   *
   * @return its ordinal; a new node's is the previous {@link #size}
   */
  int add(int k) {
    int s = slotOf(k);
    if (keys[s] == k) {
      return ordinalOf[s];
    }
    if (size == nodes.length) {
      nodes = Arrays.copyOf(nodes, size * 2);
    }
    int ordinal = size;
    keys[s] = k;
    ordinalOf[s] = ordinal;
    nodes[ordinal] = k;
    if (2 * ++size > keys.length) {
      grow();
    }
    return ordinal;
  }

  /** @return how many nodes were added */
  int size() {
    return size;
  }

  /** @return the node with ordinal {@code i} */
  int node(int i) {
    return nodes[i];
  }

  /** @return the slots of the hash table (tests: memory follows the nodes added, not the CSR) */
  int capacity() {
    return keys.length;
  }

  /** Forgets every node (back to the initial table). */
  void clear() {
    keys = new int[16];
    ordinalOf = new int[16];
    nodes = new int[8];
    Arrays.fill(keys, -1);
    size = 0;
  }

  private void grow() {
    int[] oldKeys = keys;
    int[] oldOrdinals = ordinalOf;
    keys = new int[oldKeys.length * 2];
    ordinalOf = new int[oldKeys.length * 2];
    Arrays.fill(keys, -1);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] >= 0) {
        int s = slotOf(oldKeys[i]);
        keys[s] = oldKeys[i];
        ordinalOf[s] = oldOrdinals[i];
      }
    }
  }

  /** @return the slot holding {@code k}, or the empty slot where it would go */
  private int slotOf(int k) {
    int mask = keys.length - 1;
    int s = slot(k, mask);
    while (keys[s] != k && keys[s] >= 0) {
      s = (s + 1) & mask;
    }
    return s;
  }

  private static int slot(int k, int mask) {
    int h = k * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }
}
