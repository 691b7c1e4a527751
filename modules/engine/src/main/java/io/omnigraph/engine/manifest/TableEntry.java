package io.omnigraph.engine.manifest;

import java.util.Objects;

/**
 * A table as the manifest currently publishes it.
 *
 * @param identity the table's stable identity
 * @param tableKey {@code node:T} or {@code edge:T}
 * @param path the dataset path relative to the graph root
 * @param version the published Lance version
 * @param branch the native Lance ref the version lives on ({@code null} = main)
 * @param rowCount the entity count at that version
 */
public record TableEntry(TableIdentity identity, String tableKey, String path, long version, String branch,
    long rowCount) {
  public TableEntry {
    Objects.requireNonNull(identity);
    Objects.requireNonNull(tableKey);
    Objects.requireNonNull(path);
  }
}
