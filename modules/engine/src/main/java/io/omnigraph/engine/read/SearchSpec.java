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
  /** The query text's expression (a literal or a parameter, read when the plan runs). */
  private final Val queryVal;
  /** 0 for exact tokens, else the maximum edits per token ({@code fuzzy}). */
  final int maxEdits;
  /** As written, for plans. */
  final String text;
  /** How the run computed it ({@code inverted index} or {@code in memory}), for plans and tests. */
  String strategy;
  private Map<String, Double> scores;

  SearchSpec(Binding binding, String column, Val queryVal, int maxEdits, String text) {
    this.binding = binding;
    this.column = column;
    this.queryVal = queryVal;
    this.maxEdits = maxEdits;
    this.text = text;
  }

  /** @return the query text of this execution; null (a null parameter) matches nothing */
  String query() {
    return (String) queryVal.fn().apply(ReadPlanner.NO_SLOTS);
  }

  /** Whether a search of {@code col} of {@code b} with the query written as {@code queryText} is this one. */
  boolean sameAs(Binding b, String col, String queryText, int edits) {
    return binding == b && column.equals(col) && queryVal.text().equals(queryText) && maxEdits == edits;
  }

  /** Forgets the previous execution's result (the plan is about to run again). */
  void reset() {
    scores = null;
    strategy = null;
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
