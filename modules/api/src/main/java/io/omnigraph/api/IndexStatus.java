package io.omnigraph.api;

import java.util.Objects;

/**
 * One index the schema calls for on one table, and what {@link Graph#ensureIndices} found or did
 * (docs/indexes.md).
 *
 * @param table the table key ({@code node:T} / {@code edge:E})
 * @param column the indexed column
 * @param kind {@code btree}, {@code inverted} or {@code vector}
 * @param name the Lance index name
 * @param state {@code created} (built by this call), {@code present} (already there; never rebuilt)
 *     or {@code deferred} (not built now; {@code reason} says why)
 * @param reason why a deferred index was not built, otherwise {@code null}
 */
public record IndexStatus(String table, String column, String kind, String name, String state, String reason) {
  public IndexStatus {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
  }
}
