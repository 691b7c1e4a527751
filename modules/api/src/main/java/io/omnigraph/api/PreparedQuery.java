package io.omnigraph.api;

import java.util.List;

/**
 * A read query parsed and type-checked once by {@link Graph#prepareQuery}, to be run many times
 * with different parameters through {@link Graph#query(PreparedQuery, QueryParams, QueryOptions)}.
 * Immutable and thread-safe.
 */
public interface PreparedQuery {
  /** @return the query's name */
  String queryName();

  /** @return the result columns, in projection order */
  List<QueryResult.Column> columns();
}
