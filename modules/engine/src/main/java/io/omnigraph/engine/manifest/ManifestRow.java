package io.omnigraph.engine.manifest;

import java.util.Objects;

/**
 * One row of the {@code __manifest} dataset (docs/on-disk-layout.md, "__manifest"). Nullable columns are
 * {@code null} here when absent.
 */
public record ManifestRow(String objectId, String objectType, String location, String metadata, String tableKey,
    Long stableTableId, Long incarnationId, Long tableVersion, String tableBranch, Long rowCount) {

  public static final String TABLE = "table";
  public static final String TABLE_VERSION = "table_version";
  public static final String TABLE_TOMBSTONE = "table_tombstone";
  public static final String GRAPH_COMMIT = "graph_commit";
  public static final String GRAPH_HEAD = "graph_head";

  public ManifestRow {
    Objects.requireNonNull(objectId, "objectId");
    Objects.requireNonNull(objectType, "objectType");
    Objects.requireNonNull(tableKey, "tableKey");
  }

  /** @return the registration row binding {@code id} to {@code tableKey} and its canonical path */
  static ManifestRow table(TableIdentity id, String tableKey) {
    return new ManifestRow("table:" + id, TABLE, id.canonicalPath(tableKey), null, tableKey,
        id.stableTableId(), id.incarnationId(), null, null, null);
  }

  /** @return the immutable "version {@code version} of {@code id} is published" row */
  static ManifestRow tableVersion(TableIdentity id, String tableKey, long version, long rowCount, String metadataJson) {
    return tableVersion(id, tableKey, version, rowCount, metadataJson, null);
  }

  /** A table_version row of a version living on the native ref {@code tableBranch} ({@code null} = main). */
  static ManifestRow tableVersion(TableIdentity id, String tableKey, long version, long rowCount, String metadataJson,
      String tableBranch) {
    return new ManifestRow(String.format("table_version:%s:%020d", id, version), TABLE_VERSION, null, metadataJson,
        tableKey, id.stableTableId(), id.incarnationId(), version, tableBranch, rowCount);
  }

  /** @return the identity of a table, table_version or tombstone row */
  TableIdentity identity() {
    return new TableIdentity(stableTableId, incarnationId);
  }
}
