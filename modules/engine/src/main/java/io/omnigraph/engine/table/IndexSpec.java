package io.omnigraph.engine.table;

import java.util.Objects;

/**
 * An index {@link TableWriter#stageCreateIndices} builds (docs/indexes.md, "Which index a property
 * gets"). The name is what makes creation existence-gated: an index of that name already present
 * on the table is never built again.
 */
public sealed interface IndexSpec {
  /** @return the indexed column */
  String column();

  /** @return the index name */
  String name();

  /** @return the kind, as docs/indexes.md and the CLI spell it */
  String kind();

  /**
   * A BTREE scalar index: node {@code id}, edge {@code src}/{@code dst}, enum and orderable scalar
   * properties.
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

    @Override
    public String kind() {
      return "btree";
    }
  }

  /**
   * An inverted (full-text) index on a free-text {@code String} property.
   *
   * @param column the indexed column
   * @param name the index name (default {@code <column>_fts})
   */
  record Inverted(String column, String name) implements IndexSpec {
    public Inverted {
      Objects.requireNonNull(column, "column");
      if (name == null) {
        name = column + "_fts";
      }
    }

    @Override
    public String kind() {
      return "inverted";
    }
  }

  /**
   * An IVF_FLAT vector index (L2) on a {@code Vector(n)} property.
   *
   * @param column the indexed column
   * @param name the index name (default {@code <column>_vec})
   * @param partitions the number of IVF partitions (at least 1, at most the table's rows)
   */
  record Vector(String column, String name, int partitions) implements IndexSpec {
    public Vector {
      Objects.requireNonNull(column, "column");
      if (name == null) {
        name = column + "_vec";
      }
      if (partitions < 1) {
        throw new IllegalArgumentException("a vector index needs at least one partition");
      }
    }

    @Override
    public String kind() {
      return "vector";
    }
  }
}
