package io.omnigraph.api;

import java.util.Objects;

/**
 * The outcome of type-checking one query of a {@code .gq} file ({@link Graph#checkQueries}).
 *
 * @param queryName the query, or {@code null} for an error of the file as a whole (a syntax error
 *     stops parsing, so the file's queries are not listed)
 * @param kind {@code read} or {@code mutation}, or {@code null} when the file did not parse
 * @param rule the error's stable rule ({@code T1}…{@code T24}, {@code syntax}, …), or {@code null} when the query is fine
 * @param line 1-based line of the error, or {@code null}
 * @param column 1-based column of the error, or {@code null}
 * @param message the error message, or {@code null} when the query is fine
 */
public record QueryDiagnostic(String queryName, String kind, String rule, Long line, Long column, String message) {
  public QueryDiagnostic {
    if ((rule == null) != (message == null)) {
      throw new IllegalArgumentException("rule and message go together");
    }
  }

  /** @return whether the query type-checked */
  public boolean ok() {
    return rule == null;
  }

  /** @return a checked query's diagnostic */
  public static QueryDiagnostic ok(String queryName, String kind) {
    return new QueryDiagnostic(Objects.requireNonNull(queryName), kind, null, null, null, null);
  }
}
