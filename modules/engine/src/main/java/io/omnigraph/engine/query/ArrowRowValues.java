package io.omnigraph.engine.query;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One row of an Arrow batch as {@link RowFilter.RowValues}, so a filter can be evaluated over
 * pending (not yet committed) batches exactly as Lance evaluates its rendering over committed
 * ones. Reads the comparable column types of a node or edge table (Utf8, Boolean, Int32/64,
 * UInt32/64, Float32/64, Date32, Date64) into the {@link Coercions} representation.
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
    if (v.isNull(index)) {
      return null;
    }
    if (v instanceof VarCharVector s) {
      return new String(s.get(index), StandardCharsets.UTF_8);
    }
    if (v instanceof BitVector b) {
      return b.get(index) != 0;
    }
    if (v instanceof IntVector i) {
      return i.get(index);
    }
    if (v instanceof BigIntVector l) {
      return l.get(index);
    }
    if (v instanceof UInt4Vector u) {
      return Integer.toUnsignedLong(u.get(index));
    }
    if (v instanceof UInt8Vector u) {
      return u.get(index);
    }
    if (v instanceof Float4Vector f) {
      return f.get(index);
    }
    if (v instanceof Float8Vector d) {
      return d.get(index);
    }
    if (v instanceof DateDayVector d) {
      return d.get(index);
    }
    if (v instanceof DateMilliVector d) {
      return d.get(index);
    }
    throw new IllegalArgumentException("column '" + column + "' of Arrow type " + v.getField().getType() + " cannot be compared");
  }
}
