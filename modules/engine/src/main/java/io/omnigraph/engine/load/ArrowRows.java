package io.omnigraph.engine.load;

import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Converts validated {@link TableRows} into Arrow batches with the table's exact schema
 * (language.md §1.9 column order: {@code id}[, {@code src}, {@code dst}], then properties).
 */
public final class ArrowRows {
  private ArrowRows() {}

  /**
   * Copies the rows of one table into new batches of at most {@code maxRowsPerBatch} rows; the
   * caller owns (and must close) every returned root.
   *
   * @param rows the table's validated rows (retained, not streamed)
   * @param allocator where the vectors are allocated
   * @param maxRowsPerBatch at most this many rows per batch (at least 1)
   * @return batches in row order; one empty batch if {@code rows} is empty (a valid zero-row overwrite)
   */
  public static List<VectorSchemaRoot> toBatches(TableRows rows, BufferAllocator allocator, int maxRowsPerBatch) {
    if (maxRowsPerBatch < 1) {
      throw new IllegalArgumentException("maxRowsPerBatch must be at least 1");
    }
    List<VectorSchemaRoot> out = new ArrayList<>();
    try {
      for (VectorSchemaRoot src : rows.batches()) {
        for (int from = 0; from < src.getRowCount(); from += maxRowsPerBatch) {
          int count = Math.min(src.getRowCount() - from, maxRowsPerBatch);
          List<Integer> select = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            select.add(from + i);
          }
          out.add(io.omnigraph.engine.table.ArrowBatches.select(src, select, allocator));
        }
      }
      if (out.isEmpty()) {
        VectorSchemaRoot empty = VectorSchemaRoot.create(rows.spec().arrowSchema(), allocator);
        out.add(empty);
        empty.allocateNew();
        empty.setRowCount(0);
      }
      return out;
    } catch (RuntimeException e) {
      out.forEach(VectorSchemaRoot::close);
      throw e;
    }
  }

  /**
   * Writes one cell (growing the vector as needed), so other writers (the mutation executor's
   * pending rows) build batches exactly as the loader does.
   *
   * @param v a column with the Arrow type {@link io.omnigraph.engine.schema.ArrowSchemas} gives {@code type}
   * @param type the property type
   * @param i row index
   * @param value the value in {@link Values}' representation, or {@code null}
   */
  public static void setValue(FieldVector v, PropertyType type, int i, Object value) {
    if (value == null) {
      setNullCell(v, i);
      return;
    }
    if (type instanceof PropertyType.VectorOf) {
      FixedSizeListVector f = (FixedSizeListVector) v;
      float[] arr = (float[]) value;
      int start = f.startNewValue(i);
      Float4Vector data = (Float4Vector) f.getDataVector();
      for (int k = 0; k < arr.length; k++) {
        data.setSafe(start + k, arr[k]);
      }
      return;
    }
    if (type instanceof PropertyType.ListOf l) {
      ListVector lv = (ListVector) v;
      List<?> items = (List<?>) value;
      int start = lv.startNewValue(i);
      FieldVector data = lv.getDataVector();
      for (int k = 0; k < items.size(); k++) {
        setScalar(data, l.item(), start + k, items.get(k));
      }
      lv.endValue(i, items.size());
      return;
    }
    ScalarKind k = type instanceof PropertyType.Scalar s ? s.kind() : ScalarKind.STRING;
    setScalar(v, k, i, value);
  }

  /** Marks cell {@code i} null, for every vector type a property can have. */
  static void setNullCell(FieldVector v, int i) {
    if (v instanceof ListVector l) {
      l.setNull(i);
    } else if (v instanceof FixedSizeListVector f) {
      f.setNull(i);
    } else {
      setNull(v, i);
    }
  }

  private static void setNull(FieldVector v, int i) {
    // Fixed-width and variable-width vectors all expose setNull on their concrete classes.
    if (v instanceof VarCharVector x) {
      x.setNull(i);
    } else if (v instanceof BitVector x) {
      x.setNull(i);
    } else if (v instanceof IntVector x) {
      x.setNull(i);
    } else if (v instanceof BigIntVector x) {
      x.setNull(i);
    } else if (v instanceof UInt4Vector x) {
      x.setNull(i);
    } else if (v instanceof UInt8Vector x) {
      x.setNull(i);
    } else if (v instanceof Float4Vector x) {
      x.setNull(i);
    } else if (v instanceof Float8Vector x) {
      x.setNull(i);
    } else if (v instanceof DateDayVector x) {
      x.setNull(i);
    } else if (v instanceof DateMilliVector x) {
      x.setNull(i);
    } else if (v instanceof LargeVarBinaryVector x) {
      x.setNull(i);
    } else {
      throw new IllegalStateException("no null setter for " + v.getClass().getSimpleName());
    }
  }

  /**
   * Reads one cell back into the loader's value representation (see {@link Values}), so values
   * read from committed tables compare equal to values the loader produced (e.g. for {@code
   * @unique} lookups in a {@link io.omnigraph.engine.validate.CommittedGraphView}).
   *
   * @param v a column with the Arrow type {@link io.omnigraph.engine.schema.ArrowSchemas} gives
   *     {@code type}
   * @param type the property type
   * @param i row index
   * @return the value, or {@code null} for a null cell
   */
  public static Object value(FieldVector v, PropertyType type, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (type instanceof PropertyType.VectorOf vec) {
      FixedSizeListVector f = (FixedSizeListVector) v;
      Float4Vector data = (Float4Vector) f.getDataVector();
      float[] out = new float[vec.dimension()];
      for (int k = 0; k < out.length; k++) {
        out[k] = data.get(i * out.length + k);
      }
      return out;
    }
    if (type instanceof PropertyType.ListOf l) {
      ListVector lv = (ListVector) v;
      int start = lv.getOffsetBuffer().getInt((long) i * ListVector.OFFSET_WIDTH);
      int end = lv.getOffsetBuffer().getInt((long) (i + 1) * ListVector.OFFSET_WIDTH);
      List<Object> out = new ArrayList<>(end - start);
      for (int k = start; k < end; k++) {
        out.add(scalarValue(lv.getDataVector(), l.item(), k));
      }
      return List.copyOf(out);
    }
    return scalarValue(v, type instanceof PropertyType.Scalar s ? s.kind() : ScalarKind.STRING, i);
  }

  private static Object scalarValue(FieldVector v, ScalarKind k, int i) {
    return switch (k) {
      case STRING -> new String(((VarCharVector) v).get(i), StandardCharsets.UTF_8);
      case BOOL -> ((BitVector) v).get(i) != 0;
      case I32 -> ((IntVector) v).get(i);
      case I64 -> ((BigIntVector) v).get(i);
      case U32 -> Integer.toUnsignedLong(((UInt4Vector) v).get(i));
      case U64 -> ((UInt8Vector) v).get(i);
      case F32 -> ((Float4Vector) v).get(i);
      case F64 -> ((Float8Vector) v).get(i);
      case DATE -> ((DateDayVector) v).get(i);
      case DATE_TIME -> ((DateMilliVector) v).get(i);
      case BLOB -> ((LargeVarBinaryVector) v).get(i);
    };
  }

  private static void setScalar(FieldVector v, ScalarKind k, int i, Object value) {
    switch (k) {
      case STRING -> ((VarCharVector) v).setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
      case BOOL -> ((BitVector) v).setSafe(i, ((Boolean) value) ? 1 : 0);
      case I32 -> ((IntVector) v).setSafe(i, (Integer) value);
      case I64 -> ((BigIntVector) v).setSafe(i, (Long) value);
      case U32 -> ((UInt4Vector) v).setSafe(i, (int) (long) (Long) value);
      case U64 -> ((UInt8Vector) v).setSafe(i, (Long) value);
      case F32 -> ((Float4Vector) v).setSafe(i, (Float) value);
      case F64 -> ((Float8Vector) v).setSafe(i, (Double) value);
      case DATE -> ((DateDayVector) v).setSafe(i, (Integer) value);
      case DATE_TIME -> ((DateMilliVector) v).setSafe(i, (Long) value);
      case BLOB -> ((LargeVarBinaryVector) v).setSafe(i, (byte[]) value);
    }
  }
}
