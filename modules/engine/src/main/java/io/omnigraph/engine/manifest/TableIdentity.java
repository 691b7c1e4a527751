package io.omnigraph.engine.manifest;

/**
 * The stable identity of one table incarnation: the schema IR's type id and table incarnation id,
 * both non-zero. Display form {@code <sid:016x>:<inc:016x>}.
 */
public record TableIdentity(long stableTableId, long incarnationId) {
  public TableIdentity {
    if (stableTableId == 0 || incarnationId == 0) {
      throw new IllegalArgumentException("table identity ids must be non-zero");
    }
  }

  /** @return the canonical relative path of the table's dataset for {@code tableKey} */
  public String canonicalPath(String tableKey) {
    String dir;
    if (tableKey.startsWith("node:")) {
      dir = "nodes/";
    } else if (tableKey.startsWith("edge:")) {
      dir = "edges/";
    } else {
      throw new IllegalArgumentException("table key must start with node: or edge:, got " + tableKey);
    }
    return dir + String.format("%016x-%016x", stableTableId, incarnationId);
  }

  @Override
  public String toString() {
    return String.format("%016x:%016x", stableTableId, incarnationId);
  }
}
