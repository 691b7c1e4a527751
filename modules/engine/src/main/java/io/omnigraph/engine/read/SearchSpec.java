package io.omnigraph.engine.read;

import java.util.Map;
import java.util.Set;

/**
 * One full-text search of a query ({@code search}, {@code match_text}, {@code fuzzy} or {@code
 * bm25} on a node variable's String property; docs/queries.md, "Search"). The executor computes it
 * once per run, before rows flow: the ids of the matching rows and, for {@code bm25}, their
 * relevance. Expressions read the result through {@link #matches} and {@link #score}.
 */
final class SearchSpec {
  final Binding binding;
  final String column;
  /** The query text; null (a null parameter) matches nothing. */
  final String query;
  /** 0 for exact tokens, else the maximum edits per token ({@code fuzzy}). */
  final int maxEdits;
  /** As written, for plans. */
  final String text;
  /** How the run computed it ({@code inverted index} or {@code in memory}), for plans and tests. */
  String strategy;
  private Map<String, Double> scores;

  SearchSpec(Binding binding, String column, String query, int maxEdits, String text) {
    this.binding = binding;
    this.column = column;
    this.query = query;
    this.maxEdits = maxEdits;
    this.text = text;
  }

  boolean sameAs(Binding b, String col, String q, int edits) {
    return binding == b && column.equals(col) && java.util.Objects.equals(query, q) && maxEdits == edits;
  }

  /** Sets the run's result: relevance by id of every matching row. */
  void result(Map<String, Double> byId) {
    this.scores = byId;
  }

  boolean computed() {
    return scores != null;
  }

  /** @return whether the row {@code id} matches */
  boolean matches(String id) {
    return scores.containsKey(id);
  }

  /** @return the BM25 relevance of row {@code id}, or null when it does not match */
  Double score(String id) {
    return scores.get(id);
  }

  Set<String> ids() {
    return scores.keySet();
  }
}
