package io.omnigraph.engine.load;

import java.nio.charset.StandardCharsets;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A compact insertion-ordered set of ids (UTF-8 bytes in one arena, an open-addressing table of
 * entry numbers), each entry mapped to the physical row that currently holds it. It replaces a
 * {@code Map<String, Integer>} per table: about 3 ints plus the id bytes per entry, no per-entry
 * objects.
 */
final class IdIndex {
  private byte[] bytes = new byte[4096];
  private int used;
  private int[] starts = new int[257]; // entry k spans starts[k] .. starts[k + 1]
  private int[] hashes = new int[256];
  private int[] rows = new int[256];
  private int size;
  private int[] table = new int[512]; // entry number + 1; 0 = empty
  private int mask = table.length - 1;

  /** @return number of entries */
  int size() {
    return size;
  }

  static int hash(byte[] b, int off, int len) {
    int h = 0x9747b28c;
    for (int i = off; i < off + len; i++) {
      h = 31 * h + b[i];
    }
    // murmur3's finalizer: similar ids (item-000001, item-000002, ...) must not fill neighbouring slots
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }

  /**
   * @return the entry number holding these bytes, or -1
   */
  int find(byte[] b, int off, int len, int hash) {
    int slot = hash & mask;
    while (true) {
      int e = table[slot];
      if (e == 0) {
        return -1;
      }
      int k = e - 1;
      if (hashes[k] == hash && equalsAt(k, b, off, len)) {
        return k;
      }
      slot = (slot + 1) & mask;
    }
  }

  private boolean equalsAt(int k, byte[] b, int off, int len) {
    int s = starts[k];
    return starts[k + 1] - s == len && Arrays.equals(bytes, s, s + len, b, off, off + len);
  }

  /**
   * Adds an id known to be absent (see {@link #find}).
   *
   * @return its entry number
   */
  int add(byte[] b, int off, int len, int hash, int row) {
    if (size + 1 >= hashes.length) {
      int n = hashes.length * 2;
      hashes = Arrays.copyOf(hashes, n);
      rows = Arrays.copyOf(rows, n);
      starts = Arrays.copyOf(starts, n + 1);
    }
    if (used + len > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(used + len, bytes.length * 2));
    }
    System.arraycopy(b, off, bytes, used, len);
    int k = size++;
    starts[k] = used;
    used += len;
    starts[k + 1] = used;
    hashes[k] = hash;
    rows[k] = row;
    if (size * 2 > table.length) {
      rehash();
    } else {
      place(k);
    }
    return k;
  }

  private void place(int k) {
    int slot = hashes[k] & mask;
    while (table[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    table[slot] = k + 1;
  }

  private void rehash() {
    table = new int[table.length * 2];
    mask = table.length - 1;
    for (int k = 0; k < size; k++) {
      place(k);
    }
  }

  /** @return the physical row currently holding entry {@code k} */
  int row(int k) {
    return rows[k];
  }

  void setRow(int k, int row) {
    rows[k] = row;
  }

  /** @return entry {@code k} as a string */
  String id(int k) {
    return new String(bytes, starts[k], starts[k + 1] - starts[k], StandardCharsets.UTF_8);
  }

  boolean contains(String id) {
    byte[] b = id.getBytes(StandardCharsets.UTF_8);
    return find(b, 0, b.length, hash(b, 0, b.length)) >= 0;
  }

  /** @return true if the bytes at {@code off..off+len} of {@code b} are an entry */
  boolean containsBytes(byte[] b, int off, int len) {
    return find(b, off, len, hash(b, off, len)) >= 0;
  }

  /** @return an unmodifiable live set view of the ids, in insertion order */
  java.util.Set<String> asSet() {
    return new AbstractSet<>() {
      @Override
      public boolean contains(Object o) {
        return o instanceof String s && IdIndex.this.contains(s);
      }

      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<String> iterator() {
        return new Iterator<>() {
          private int k;

          @Override
          public boolean hasNext() {
            return k < size;
          }

          @Override
          public String next() {
            if (k >= size) {
              throw new NoSuchElementException();
            }
            return id(k++);
          }
        };
      }
    };
  }
}
