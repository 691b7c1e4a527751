package io.omnigraph.engine.read;

import java.util.Arrays;

/**
 * The hydrated destination rows of one CSR expansion by dense node index (docs/queries.md,
 * "Traversal strategies"): an open-addressing map from int to {@link Entity} whose table grows
 * with what it holds (16 slots at first, at most half full), so an expansion reaching five nodes
 * allocates a few hundred bytes, not one reference per node of the CSR. The caller bounds it
 * ({@link #size}, {@link #clear}). Not thread-safe: one per expansion.
 */
final class DestinationMemo {
  private int[] keys = new int[16];
  private Entity[] vals = new Entity[16];
  private int size;

  DestinationMemo() {
    Arrays.fill(keys, -1);
  }

  /** @return the row remembered for dense node {@code k} (0 or more), or null */
  Entity get(int k) {
    int mask = keys.length - 1;
    for (int s = slot(k, mask); ; s = (s + 1) & mask) {
      int at = keys[s];
      if (at == k) {
        return vals[s];
      }
      if (at < 0) {
        return null;
      }
    }
  }

  /** Remembers {@code v} for dense node {@code k} (0 or more), replacing what was there. */
  void put(int k, Entity v) {
    int mask = keys.length - 1;
    for (int s = slot(k, mask); ; s = (s + 1) & mask) {
      int at = keys[s];
      if (at == k) {
        vals[s] = v;
        return;
      }
      if (at < 0) {
        keys[s] = k;
        vals[s] = v;
        if (2 * ++size > keys.length) {
          grow();
        }
        return;
      }
    }
  }

  /** @return how many nodes are remembered */
  int size() {
    return size;
  }

  /** Forgets everything (back to the initial table). */
  void clear() {
    keys = new int[16];
    vals = new Entity[16];
    Arrays.fill(keys, -1);
    size = 0;
  }

  private void grow() {
    int[] oldKeys = keys;
    Entity[] oldVals = vals;
    keys = new int[oldKeys.length * 2];
    vals = new Entity[oldKeys.length * 2];
    Arrays.fill(keys, -1);
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] >= 0) {
        int s = slot(oldKeys[i], mask);
        while (keys[s] >= 0) {
          s = (s + 1) & mask;
        }
        keys[s] = oldKeys[i];
        vals[s] = oldVals[i];
      }
    }
  }

  private static int slot(int k, int mask) {
    int h = k * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }
}
