package io.omnigraph.testkit.fault;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The start line and headers of one HTTP/1.1 message, kept as the raw bytes that arrived so the
 * proxy can forward them verbatim (a re-serialized head could break a request signature).
 */
final class HttpHead {
  private static final int MAX_HEAD_BYTES = 1 << 20;

  final byte[] raw;
  final String startLine;
  final List<Map.Entry<String, String>> headers;

  private HttpHead(byte[] raw, String startLine, List<Map.Entry<String, String>> headers) {
    this.raw = raw;
    this.startLine = startLine;
    this.headers = headers;
  }

  /**
   * Reads one head, up to and including the empty line.
   *
   * @return the head, or {@code null} when the stream ended cleanly before its first byte
   * @throws EOFException when the stream ends inside the head
   */
  static HttpHead read(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
    int state = 0; // counts the bytes of "\r\n\r\n" seen so far
    while (state < 4) {
      int b;
      try {
        b = in.read();
      } catch (java.net.SocketException e) {
        if (buf.size() == 0) {
          return null; // the peer reset an idle keep-alive connection: same as a clean close
        }
        throw e;
      }
      if (b < 0) {
        if (buf.size() == 0) {
          return null;
        }
        throw new EOFException("connection closed inside an HTTP head after " + buf.size() + " bytes");
      }
      buf.write(b);
      if (buf.size() > MAX_HEAD_BYTES) {
        throw new IOException("HTTP head larger than " + MAX_HEAD_BYTES + " bytes");
      }
      state = switch (state) {
        case 0, 2 -> b == '\r' ? state + 1 : 0;
        case 1, 3 -> b == '\n' ? state + 1 : (b == '\r' ? 1 : 0);
        default -> throw new IllegalStateException();
      };
    }
    byte[] raw = buf.toByteArray();
    String text = new String(raw, 0, raw.length - 4, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r\n", -1);
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon <= 0) {
        throw new IOException("malformed HTTP header line: " + lines[i]);
      }
      headers.add(Map.entry(lines[i].substring(0, colon), lines[i].substring(colon + 1).trim()));
    }
    return new HttpHead(raw, lines[0], List.copyOf(headers));
  }

  /** @return the first value of a header (case-insensitive), or {@code null} */
  String header(String name) {
    for (Map.Entry<String, String> h : headers) {
      if (h.getKey().equalsIgnoreCase(name)) {
        return h.getValue();
      }
    }
    return null;
  }

  /** @return whether a comma-separated header lists {@code token} (case-insensitive) */
  boolean headerHasToken(String name, String token) {
    for (Map.Entry<String, String> h : headers) {
      if (h.getKey().equalsIgnoreCase(name)) {
        for (String t : h.getValue().split(",")) {
          if (t.trim().equalsIgnoreCase(token)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  String[] startLineParts() throws IOException {
    String[] parts = startLine.split(" ", 3);
    if (parts.length < 2) {
      throw new IOException("malformed HTTP start line: " + startLine);
    }
    return parts;
  }

  /** @return the status code of a response head */
  int status() throws IOException {
    String[] parts = startLineParts();
    try {
      return Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("malformed HTTP status line: " + startLine, e);
    }
  }

  String version() throws IOException {
    String[] parts = startLineParts();
    return parts[0].startsWith("HTTP/") ? parts[0] : parts.length == 3 ? parts[2] : "HTTP/1.1";
  }

  boolean isChunked() {
    String te = header("Transfer-Encoding");
    return te != null && te.toLowerCase(Locale.ROOT).trim().endsWith("chunked");
  }

  /** @return the Content-Length, or {@code -1} when absent */
  long contentLength() throws IOException {
    String cl = header("Content-Length");
    if (cl == null) {
      return -1;
    }
    try {
      long n = Long.parseLong(cl.trim());
      if (n < 0) {
        throw new IOException("negative Content-Length: " + cl);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IOException("malformed Content-Length: " + cl, e);
    }
  }

  /**
   * Copies a message body framed by this head from {@code in} to {@code out} verbatim (chunk
   * framing included). {@code out} may be {@code null} to discard.
   *
   * @param untilEof whether the body is delimited by the end of the stream (responses only)
   * @return the number of payload bytes (without chunk framing)
   */
  long copyBody(InputStream in, OutputStream out, boolean untilEof) throws IOException {
    if (isChunked()) {
      return copyChunked(in, out);
    }
    long n = contentLength();
    if (n >= 0) {
      copyExactly(in, out, n);
      return n;
    }
    if (!untilEof) {
      return 0;
    }
    byte[] buf = new byte[16384];
    long total = 0;
    for (int r; (r = in.read(buf)) >= 0; ) {
      if (out != null) {
        out.write(buf, 0, r);
      }
      total += r;
    }
    return total;
  }

  private static long copyChunked(InputStream in, OutputStream out) throws IOException {
    long total = 0;
    while (true) {
      byte[] sizeLine = readLine(in);
      write(out, sizeLine);
      String s = new String(sizeLine, StandardCharsets.ISO_8859_1).trim();
      int semi = s.indexOf(';');
      String hex = (semi < 0 ? s : s.substring(0, semi)).trim();
      long size;
      try {
        size = Long.parseLong(hex, 16);
      } catch (NumberFormatException e) {
        throw new IOException("malformed chunk size line: " + s, e);
      }
      if (size == 0) {
        // trailers, then the empty line
        while (true) {
          byte[] trailer = readLine(in);
          write(out, trailer);
          if (trailer.length == 2) {
            return total;
          }
        }
      }
      copyExactly(in, out, size);
      total += size;
      byte[] crlf = readLine(in);
      if (crlf.length != 2) {
        throw new IOException("chunk data not followed by CRLF");
      }
      write(out, crlf);
    }
  }

  private static void write(OutputStream out, byte[] b) throws IOException {
    if (out != null) {
      out.write(b);
    }
  }

  /** Reads one line including its CRLF. */
  private static byte[] readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(32);
    int prev = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed inside chunked framing");
      }
      line.write(b);
      if (prev == '\r' && b == '\n') {
        return line.toByteArray();
      }
      if (line.size() > 65536) {
        throw new IOException("chunk framing line too long");
      }
      prev = b;
    }
  }

  private static void copyExactly(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buf = new byte[16384];
    long left = n;
    while (left > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, left));
      if (r < 0) {
        throw new EOFException("connection closed with " + left + " of " + n + " body bytes missing");
      }
      if (out != null) {
        out.write(buf, 0, r);
      }
      left -= r;
    }
  }
}
