package io.omnigraph.engine.table;

import java.util.Objects;

/** An index {@link TableWriter#stageCreateIndices} builds. */
public sealed interface IndexSpec {
  /** @return the indexed column */
  String column();

  /**
   * A BTREE scalar index.
   *
   * @param column the indexed column
   * @param name the index name (default {@code <column>_idx})
   */
  record BTree(String column, String name) implements IndexSpec {
    public BTree {
      Objects.requireNonNull(column, "column");
      if (name == null) {
        name = column + "_idx";
      }
    }
  }
}
