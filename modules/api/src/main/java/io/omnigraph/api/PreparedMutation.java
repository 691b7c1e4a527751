package io.omnigraph.api;

/**
 * A mutation query parsed and type-checked once by {@link Graph#prepareMutation}, to be run many
 * times with different parameters through {@link Graph#mutate(PreparedMutation, QueryParams,
 * MutationOptions)}. Immutable and thread-safe; valid for graphs with the schema it was checked
 * against.
 */
public interface PreparedMutation {
  /** @return the query's name */
  String queryName();
}
