package io.omnigraph.engine.load;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** An append-only column of strings kept as UTF-8 bytes in one arena (edge endpoints of a load). */
final class Utf8Column {
  private byte[] bytes = new byte[4096];
  private int used;
  private int[] ends = new int[256];
  private int size;

  void add(byte[] b, int off, int len) {
    if (size == ends.length) {
      ends = Arrays.copyOf(ends, size * 2);
    }
    if (used + len > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(used + len, bytes.length * 2));
    }
    System.arraycopy(b, off, bytes, used, len);
    used += len;
    ends[size++] = used;
  }

  int size() {
    return size;
  }

  int start(int i) {
    return i == 0 ? 0 : ends[i - 1];
  }

  int length(int i) {
    return ends[i] - start(i);
  }

  byte[] arena() {
    return bytes;
  }

  String get(int i) {
    return new String(bytes, start(i), length(i), StandardCharsets.UTF_8);
  }

  /** @return a copy holding rows {@code order[0], order[1], ...} of this column */
  Utf8Column select(int[] order, int n) {
    Utf8Column out = new Utf8Column();
    for (int i = 0; i < n; i++) {
      out.add(bytes, start(order[i]), length(order[i]));
    }
    return out;
  }
}
