package io.omnigraph.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The parameter values of one query run, in one of the three spellings users have. Values are
 * checked against the query's declared parameter types when the query runs, before any I/O; a
 * value that does not fit (missing, undeclared, mistyped, out of range, null for a non-nullable
 * parameter) is an {@link InvalidInputException} whose validation rule is {@code param_value}.
 */
public sealed interface QueryParams {

  /** @return no parameters */
  static QueryParams none() {
    return new Values(Map.of());
  }

  /**
   * Plain Java values, read like the equivalent JSON: {@link String}, {@link Boolean}, integral and
   * floating {@link Number}s, {@link java.util.Collection}s for lists and vectors; also {@link
   * java.time.LocalDate} for Date, {@link java.time.Instant} / {@link java.time.OffsetDateTime} for
   * DateTime, {@code byte[]} for Blob, {@code float[]} for vectors, and {@code null}.
   *
   * @param values by parameter name (a leading {@code $} is allowed)
   * @return the parameters
   */
  static QueryParams of(Map<String, ?> values) {
    return new Values(new java.util.LinkedHashMap<String, Object>(values));
  }

  /**
   * A JSON object, as given to {@code --params} / {@code --params-json} or in an HTTP body, e.g.
   * {@code {"h": "tolkien", "year": 1954}}. I64/U64 values may be decimal strings.
   *
   * @param json the object's text
   * @return the parameters (parsed when the query runs)
   */
  static QueryParams json(String json) {
    return new Json(json);
  }

  /**
   * {@code name=value} pairs as given to repeated {@code --param}; each value is parsed by its
   * parameter's declared type (strings as written, numbers, {@code true}/{@code false}, dates
   * {@code YYYY-MM-DD}, RFC 3339 date-times, JSON arrays for lists and vectors).
   *
   * @param pairs the pairs, in the order given
   * @return the parameters (parsed when the query runs)
   */
  static QueryParams pairs(List<String> pairs) {
    return new Pairs(pairs);
  }

  /**
   * Java values by name.
   *
   * @param values by parameter name; {@code null} values allowed
   */
  record Values(Map<String, Object> values) implements QueryParams {
    public Values {
      // LinkedHashMap keeps the caller's order and admits null values, which Map.copyOf does not.
      values = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(values, "values")));
    }
  }

  /** @param text a JSON object's text */
  record Json(String text) implements QueryParams {
    public Json {
      Objects.requireNonNull(text, "text");
    }
  }

  /** @param pairs {@code name=value} strings */
  record Pairs(List<String> pairs) implements QueryParams {
    public Pairs {
      pairs = List.copyOf(pairs);
    }
  }
}
