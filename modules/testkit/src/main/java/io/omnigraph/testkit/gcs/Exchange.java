package io.omnigraph.testkit.gcs;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/** One HTTP request as the API handlers see it: decoded path, query, body, and reply helpers. */
final class Exchange {
  static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

  final HttpExchange http;
  final String method;
  /** The raw (still percent-encoded) path. */
  final String rawPath;
  final Map<String, String> query;
  private byte[] body;
  private boolean replied;

  Exchange(HttpExchange http) {
    this.http = http;
    this.method = http.getRequestMethod().toUpperCase(Locale.ROOT);
    this.rawPath = http.getRequestURI().getRawPath();
    this.query = parseQuery(http.getRequestURI().getRawQuery());
  }

  String header(String name) {
    return http.getRequestHeaders().getFirst(name);
  }

  String param(String name) {
    return query.get(name);
  }

  Long longParam(String name) {
    String v = query.get(name);
    if (v == null || v.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw GcsError.badRequest("Invalid value for " + name + ": " + v);
    }
  }

  Long longHeader(String name) {
    String v = header(name);
    if (v == null || v.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw GcsError.badRequest("Invalid value for header " + name + ": " + v);
    }
  }

  /** @return the whole request body, inflated when it was sent with {@code Content-Encoding: gzip} */
  byte[] body() throws IOException {
    if (body == null) {
      try (InputStream in = http.getRequestBody()) {
        byte[] raw = in.readAllBytes();
        String enc = header("Content-Encoding");
        if (enc != null && enc.trim().equalsIgnoreCase("gzip")) {
          try (InputStream gz = new GZIPInputStream(new java.io.ByteArrayInputStream(raw))) {
            raw = gz.readAllBytes();
          }
        }
        body = raw;
      }
    }
    return body;
  }

  boolean replied() {
    return replied;
  }

  void reply(int status, String contentType, byte[] payload) throws IOException {
    replied = true;
    if (contentType != null) {
      http.getResponseHeaders().set("Content-Type", contentType);
    }
    boolean noBody = method.equals("HEAD") || status == 204 || status == 304 || (status >= 100 && status < 200);
    if (noBody) {
      http.sendResponseHeaders(status, -1);
      http.close();
      return;
    }
    http.sendResponseHeaders(status, payload.length == 0 ? -1 : payload.length);
    try (OutputStream out = http.getResponseBody()) {
      out.write(payload);
    }
  }

  /**
   * Answers a HEAD request with the headers a GET would carry, including the real
   * {@code Content-Length} (the JDK server allows setting it by hand for HEAD).
   */
  void replyHead(int status, long contentLength) throws IOException {
    replied = true;
    http.getResponseHeaders().set("Content-Length", Long.toString(contentLength));
    http.sendResponseHeaders(status, -1);
    http.close();
  }

  void replyText(int status, String contentType, String text) throws IOException {
    reply(status, contentType, text.getBytes(StandardCharsets.UTF_8));
  }

  void setHeader(String name, String value) {
    http.getResponseHeaders().set(name, value);
  }

  static String rfc1123(Instant t) {
    return RFC_1123.format(t);
  }

  /**
   * Decodes percent escapes only. Unlike {@link java.net.URLDecoder}, {@code +} stays a plus:
   * the GCS clients escape a literal plus as {@code %2B} and never mean a space by {@code +}.
   */
  static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length()) {
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi >= 0 && lo >= 0) {
          out.write((hi << 4) | lo);
          i += 2;
          continue;
        }
      }
      byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
      if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
        b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
        i++;
      }
      out.write(b, 0, b.length);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Parses a raw query as form data: {@code +} is a space, then percent escapes are decoded. Both
   * clients escape a literal plus as {@code %2B}; object_store's form encoder sends a space as
   * {@code +}.
   */
  static Map<String, String> parseQuery(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      q.putIfAbsent(percentDecode(k.replace('+', ' ')), percentDecode(v.replace('+', ' ')));
    }
    return q;
  }
}
