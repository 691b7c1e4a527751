package io.omnigraph.engine.load;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Line framing of an NDJSON load: splits a byte stream into lines without per-byte synchronized
 * reads and enforces the per-line byte limit ({@link LoadRule#LINE_TOO_LONG}). The current line
 * is exposed as a reused buffer, valid until the next {@link #next()}.
 */
final class NdjsonLines {
  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] chunk = new byte[1 << 16];
  private int chunkPos;
  private int chunkLen;
  private boolean eof;
  private byte[] line = new byte[1024];
  private int lineLen;
  private long lineNumber;

  NdjsonLines(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** @return false when the input is exhausted (no further line, not even an empty one) */
  boolean next() throws IOException {
    lineLen = 0;
    if (eof && chunkPos >= chunkLen) {
      return false;
    }
    lineNumber++;
    while (true) {
      if (chunkPos >= chunkLen) {
        chunkLen = in.read(chunk);
        chunkPos = 0;
        if (chunkLen <= 0) {
          chunkLen = 0;
          eof = true;
          return true; // the last line, possibly empty (blank lines are skipped)
        }
      }
      int start = chunkPos;
      int nl = -1;
      for (int i = start; i < chunkLen; i++) {
        if (chunk[i] == '\n') {
          nl = i;
          break;
        }
      }
      int end = nl < 0 ? chunkLen : nl;
      append(start, end - start);
      chunkPos = nl < 0 ? chunkLen : nl + 1;
      if (nl >= 0) {
        return true;
      }
    }
  }

  private void append(int from, int n) {
    if (lineLen + n > maxLineBytes) {
      throw LoadRule.LINE_TOO_LONG.at(lineNumber, null, "line exceeds the maximum of " + maxLineBytes + " bytes");
    }
    if (lineLen + n > line.length) {
      line = Arrays.copyOf(line, Math.max(lineLen + n, Math.min(maxLineBytes, line.length * 2)));
    }
    System.arraycopy(chunk, from, line, lineLen, n);
    lineLen += n;
  }

  boolean isBlank() {
    for (int i = 0; i < lineLen; i++) {
      byte b = line[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  byte[] buffer() {
    return line;
  }

  int length() {
    return lineLen;
  }

  long lineNumber() {
    return lineNumber;
  }
}
