package io.omnigraph.testkit.gcs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits a {@code multipart/related} body (the JSON API's {@code uploadType=multipart}) into its
 * parts. Works on bytes, never on a decoded string, because the media part is binary.
 */
final class MultipartRelated {
  record Part(Map<String, String> headers, byte[] content) {}

  private MultipartRelated() {}

  static String boundary(String contentType) {
    if (contentType == null) {
      throw GcsError.badRequest("multipart upload without Content-Type");
    }
    for (String param : contentType.split(";")) {
      String p = param.trim();
      if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
        String b = p.substring("boundary=".length());
        if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
          b = b.substring(1, b.length() - 1);
        }
        return b;
      }
    }
    throw GcsError.badRequest("multipart upload without boundary: " + contentType);
  }

  static List<Part> parse(byte[] body, String boundary) {
    byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    List<Part> parts = new ArrayList<>();
    int pos = indexOf(body, delimiter, 0);
    if (pos < 0) {
      throw GcsError.badRequest("multipart body has no boundary line");
    }
    while (true) {
      int after = pos + delimiter.length;
      if (after + 1 < body.length && body[after] == '-' && body[after + 1] == '-') {
        return parts; // closing delimiter
      }
      int headersStart = skipLineBreak(body, after);
      int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), headersStart);
      if (headersEnd < 0) {
        throw GcsError.badRequest("multipart part without header terminator");
      }
      Map<String, String> headers = new LinkedHashMap<>();
      String head = new String(body, headersStart, headersEnd - headersStart, StandardCharsets.ISO_8859_1);
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
      }
      int contentStart = headersEnd + 4;
      byte[] next = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
      int contentEnd = indexOf(body, next, contentStart);
      if (contentEnd < 0) {
        throw GcsError.badRequest("multipart part is not terminated by the boundary");
      }
      parts.add(new Part(headers, Arrays.copyOfRange(body, contentStart, contentEnd)));
      pos = contentEnd + 2;
    }
  }

  private static int skipLineBreak(byte[] b, int i) {
    if (i + 1 < b.length && b[i] == '\r' && b[i + 1] == '\n') {
      return i + 2;
    }
    if (i < b.length && b[i] == '\n') {
      return i + 1;
    }
    return i;
  }

  static int indexOf(byte[] hay, byte[] needle, int from) {
    outer:
    for (int i = Math.max(0, from); i <= hay.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
