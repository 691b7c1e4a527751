package io.omnigraph.testkit.fault;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One request that passed through a {@link FaultProxy}, as the client sent it.
 *
 * @param sequence 1-based arrival order across all connections
 * @param method the HTTP method
 * @param target the raw request target (path and query, still percent-encoded)
 * @param headers the request headers in arrival order (names as sent)
 * @param bodyBytes the number of body bytes received from the client (0 when none was sent)
 * @param status the status relayed to the client, or {@code -1} when none was (reset, dropped,
 *     upstream failure)
 * @param fault the fault applied, or {@code null} when the request was forwarded normally
 */
public record RecordedRequest(long sequence, String method, String target, List<Map.Entry<String, String>> headers,
    long bodyBytes, int status, Fault fault) {
  public RecordedRequest {
    headers = List.copyOf(headers);
  }

  /** @return the path part of the target (before {@code ?}) */
  public String path() {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  /** @return the query part of the target (after {@code ?}), or {@code ""} */
  public String query() {
    int q = target.indexOf('?');
    return q < 0 ? "" : target.substring(q + 1);
  }

  /** @return the first value of a header (case-insensitive name), if present */
  public Optional<String> header(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return headers.stream().filter(h -> h.getKey().toLowerCase(Locale.ROOT).equals(n)).map(Map.Entry::getValue)
        .findFirst();
  }

  @Override
  public String toString() {
    return "#" + sequence + " " + method + " " + target + " -> " + (status < 0 ? "no response" : status)
        + (fault == null ? "" : " [" + fault + "]");
  }
}
