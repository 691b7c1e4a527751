package io.omnigraph.testkit.fault;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Building blocks of whole-target patterns for {@link FaultRule}s: a quoted literal, an optional
 * query, a required query parameter, and an object name as the SDKs percent-encode it into one
 * path segment. The per-backend request catalogs ({@link S3Requests}, {@link GcsRequests},
 * {@link AzureRequests}) are made of these.
 */
final class RequestTargets {
  /** Any query, or none. */
  static final String ANY_QUERY = "(\\?.*)?";
  /** One path segment: no {@code /}, no {@code ?}. */
  static final String SEGMENT = "[^/?]+";

  private RequestTargets() {}

  /** @return {@code literal} as a pattern that matches exactly it */
  static String quote(String literal) {
    return Pattern.quote(literal);
  }

  /**
   * @return a lookahead (to be placed right after the {@code ?}) requiring a query parameter
   *     {@code name} whose whole value matches {@code valueRegex}
   */
  static String param(String name, String valueRegex) {
    return "(?=(.*&)?" + quote(name) + "=" + valueRegex + "(&|$))";
  }

  /**
   * @return a pattern for {@code name} percent-encoded the way the Azure and GCS SDKs put an object
   *     name into one path segment: every byte outside RFC 3986's unreserved set as {@code %XX}
   *     ({@code /} too), hex digits in either case
   */
  static String encodedName(String name) {
    return "(?i:" + quote(percentEncode(name)) + ")";
  }

  /**
   * @return a pattern for a listing's {@code prefix} query value: {@code prefix} with each {@code /}
   *     sent raw or as {@code %2F} (the SDKs differ), other characters percent-encoded as in
   *     {@link #encodedName}, hex digits in either case
   */
  static String listPrefix(String prefix) {
    StringBuilder b = new StringBuilder("(?i:");
    String[] parts = prefix.split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        b.append("(/|%2F)");
      }
      if (!parts[i].isEmpty()) {
        b.append(quote(percentEncode(parts[i])));
      }
    }
    return b.append(')').toString();
  }

  static String percentEncode(String s) {
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
          || c == '_' || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return b.toString();
  }
}
