package io.omnigraph.engine.schema;

import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One physical Lance table of a compiled schema.
 *
 * @param kind {@link SchemaIr.DeclKind#NODE} or {@link SchemaIr.DeclKind#EDGE}
 * @param typeName the node or edge type name
 * @param tableKey {@code node:<Type>} or {@code edge:<Type>}
 * @param stableTableId the type's stable id (non-zero)
 * @param tableIncarnationId the table incarnation id (non-zero)
 * @param arrowSchema the Arrow schema of the table (see {@link ArrowSchemas})
 */
public record TableSpec(
    SchemaIr.DeclKind kind,
    String typeName,
    String tableKey,
    long stableTableId,
    long tableIncarnationId,
    Schema arrowSchema) {
  public TableSpec {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(tableKey, "tableKey");
    Objects.requireNonNull(arrowSchema, "arrowSchema");
    if (kind == SchemaIr.DeclKind.INTERFACE) {
      throw new IllegalArgumentException("interfaces have no table");
    }
    if (stableTableId == 0 || tableIncarnationId == 0) {
      throw new IllegalArgumentException("table ids must be non-zero");
    }
  }

  /** @return the canonical relative dataset path {@code nodes|edges/{sid:016x}-{inc:016x}} */
  public String path() {
    return (kind == SchemaIr.DeclKind.NODE ? "nodes/" : "edges/")
        + String.format("%016x-%016x", stableTableId, tableIncarnationId);
  }
}
