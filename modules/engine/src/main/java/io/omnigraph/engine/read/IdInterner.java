package io.omnigraph.engine.read;

import io.omnigraph.api.InternalErrorException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VarCharVector;

/**
 * Node ids interned to dense ints straight from their UTF-8 bytes (docs/queries.md, "Traversal
 * strategies"): an open-addressing hash table over a byte arena, so building an adjacency hashes
 * the bytes of each edge endpoint in the Arrow batch instead of decoding one Java String per
 * endpoint and boxing it into a map. Memory per distinct id: its bytes, three ints (arena offset,
 * hash, about two table slots) and, once asked for, its String. Not thread-safe while interning;
 * after {@link #freeze} lookups and {@link #id} are safe from any thread.
 */
final class IdInterner {
  private byte[] arena = new byte[1 << 12];
  private int arenaLen;
  /** Per dense id: where its bytes start in the arena; {@code start[n]} is where the next would. */
  private int[] start = new int[1 << 10];
  private int[] hashes = new int[1 << 10];
  /** Slot → dense id + 1 (0: empty); a power of two, at most half full. */
  private int[] table = new int[1 << 11];
  private int n;
  /** The ids as Strings, made on first use (a benign race: equal Strings). */
  private String[] names;
  /** Scratch for one batch's value bytes. */
  private byte[] batchBytes = new byte[1 << 12];

  /** @return how many distinct ids were interned */
  int size() {
    return n;
  }

  /**
   * Interns every value of a non-null string column of one batch.
   *
   * @param out receives the dense id of row {@code i} at {@code out[at + i]}
   */
  void internAll(VarCharVector v, int rows, int[] out, int at) {
    if (rows == 0) {
      return;
    }
    ArrowBuf offsets = v.getOffsetBuffer();
    int first = offsets.getInt(0);
    int last = offsets.getInt((long) rows * 4);
    int len = last - first;
    if (batchBytes.length < len) {
      batchBytes = new byte[Math.max(len, batchBytes.length * 2)];
    }
    v.getDataBuffer().getBytes(first, batchBytes, 0, len);
    int from = 0;
    for (int i = 0; i < rows; i++) {
      int to = offsets.getInt((long) (i + 1) * 4) - first;
      if (v.isNull(i)) {
        throw new InternalErrorException("edge table: a null endpoint in column " + v.getName(), null);
      }
      out[at + i] = intern(batchBytes, from, to - from);
      from = to;
    }
  }

  /** @return the dense id of those bytes, interning them when new */
  int intern(byte[] b, int off, int len) {
    int h = hash(b, off, len);
    int mask = table.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      int d = table[s] - 1;
      if (d < 0) {
        return add(b, off, len, h, s);
      }
      if (hashes[d] == h && same(d, b, off, len)) {
        return d;
      }
    }
  }

  /** @return the dense id of {@code id}, or -1 when it was never interned */
  int find(String id) {
    byte[] b = id.getBytes(StandardCharsets.UTF_8);
    int h = hash(b, 0, b.length);
    int mask = table.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      int d = table[s] - 1;
      if (d < 0) {
        return -1;
      }
      if (hashes[d] == h && same(d, b, 0, b.length)) {
        return d;
      }
    }
  }

  /** @return the id of dense index {@code d} */
  String id(int d) {
    String s = names[d];
    if (s == null) {
      s = new String(arena, start[d], start[d + 1] - start[d], StandardCharsets.UTF_8);
      names[d] = s;
    }
    return s;
  }

  /** Ends interning: trims the arrays; lookups and {@link #id} only from now on. */
  void freeze() {
    arena = Arrays.copyOf(arena, arenaLen);
    start = Arrays.copyOf(start, n + 1);
    hashes = Arrays.copyOf(hashes, n);
    names = new String[n];
    batchBytes = null;
  }

  /** @return the estimated heap bytes held (without Strings not yet made) */
  long bytes() {
    return arena.length + 4L * (start.length + hashes.length + table.length) + 8L * n;
  }

  private int add(byte[] b, int off, int len, int h, int slot) {
    if (n + 2 > start.length) {
      start = Arrays.copyOf(start, start.length * 2);
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
    }
    if (arenaLen + len > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arenaLen + len, arena.length * 2));
    }
    System.arraycopy(b, off, arena, arenaLen, len);
    start[n] = arenaLen;
    arenaLen += len;
    start[n + 1] = arenaLen;
    hashes[n] = h;
    table[slot] = n + 1;
    int d = n++;
    if (2 * n > table.length) {
      rehash();
    }
    return d;
  }

  private void rehash() {
    int[] t = new int[table.length * 2];
    int mask = t.length - 1;
    for (int d = 0; d < n; d++) {
      int s = hashes[d] & mask;
      while (t[s] != 0) {
        s = (s + 1) & mask;
      }
      t[s] = d + 1;
    }
    table = t;
  }

  private boolean same(int d, byte[] b, int off, int len) {
    int at = start[d];
    return start[d + 1] - at == len && Arrays.equals(arena, at, at + len, b, off, off + len);
  }

  /** FNV-1a over the bytes, then MurmurHash3's finaliser so that the low bits (the slot) mix well. */
  static int hash(byte[] b, int off, int len) {
    int h = 0x811c9dc5;
    for (int i = off; i < off + len; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
