package io.omnigraph.engine.plan;

import io.omnigraph.engine.value.ArrowValues;
import java.util.Objects;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One row of an Arrow batch as {@link RowFilter.RowValues}, so a filter can be evaluated over
 * pending (not yet committed) batches exactly as Lance evaluates its rendering over committed
 * ones. Reads the comparable column types of a node or edge table (Utf8, Boolean, Int32/64,
 * UInt32/64, Float32/64, Date32, Date64) into the value representation ({@link ArrowValues#getComparable}).
 *
 * <p>Usage: {@code ArrowRowValues row = new ArrowRowValues(batch); for (i...) { row.at(i);
 * filter.matches(row); }} — the instance is a cursor and not thread-safe.
 */
public final class ArrowRowValues implements RowFilter.RowValues {
  private final VectorSchemaRoot batch;
  private int index;

  /** @param batch the batch whose rows are read */
  public ArrowRowValues(VectorSchemaRoot batch) {
    this.batch = Objects.requireNonNull(batch, "batch");
  }

  /**
   * @param row a row index of the batch
   * @return this cursor, positioned on that row
   */
  public ArrowRowValues at(int row) {
    if (row < 0 || row >= batch.getRowCount()) {
      throw new IndexOutOfBoundsException("row " + row + " of " + batch.getRowCount());
    }
    this.index = row;
    return this;
  }

  /**
   * @throws IllegalArgumentException if the batch has no such column or its type cannot be compared
   */
  @Override
  public Object get(String column) {
    FieldVector v = batch.getVector(column);
    if (v == null) {
      throw new IllegalArgumentException("the batch has no column '" + column + "'");
    }
    return ArrowValues.getComparable(v, index);
  }
}
