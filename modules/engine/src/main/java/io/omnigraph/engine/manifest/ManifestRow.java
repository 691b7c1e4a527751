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
  /** The one row naming the schema accepted at a manifest version (written by schema apply). */
  public static final String GRAPH_SCHEMA = "graph_schema";

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

  /** @return the tombstone hiding {@code id} from version {@code version} on (a dropped table) */
  static ManifestRow tombstone(TableIdentity id, String tableKey, long version) {
    return new ManifestRow(String.format("table_tombstone:%s:%020d", id, version), TABLE_TOMBSTONE, null, "{}",
        tableKey, id.stableTableId(), id.incarnationId(), version, null, null);
  }

  /** @return the row naming the accepted schema (one per manifest; replaced by each schema apply) */
  static ManifestRow graphSchema(String schemaIrHash, String commitId) {
    String meta = ManifestStore.JSON.createObjectNode().put("schema_ir_hash", schemaIrHash).put("commit_id", commitId)
        .toString();
    return new ManifestRow(GRAPH_SCHEMA, GRAPH_SCHEMA, null, meta, "", null, null, null, null, null);
  }

  /** @return the identity of a table, table_version or tombstone row */
  TableIdentity identity() {
    return new TableIdentity(stableTableId, incarnationId);
  }
}
