package io.omnigraph.engine.value;

import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * The one conversion between Arrow cells and the engine's value representation ({@link Scalars}),
 * used by the loader's table rows, the mutation executor's pending rows, and every reader of
 * committed rows, so a value written and read back compares equal to the value that was written.
 * Column vectors have the Arrow type {@link io.omnigraph.engine.schema.ArrowSchemas} gives their
 * property type.
 */
public final class ArrowValues {
  private ArrowValues() {}

  /**
   * @param type a property type
   * @return its Arrow type name as messages spell it, e.g. {@code Int32}
   */
  public static String typeName(PropertyType type) {
    if (type instanceof PropertyType.EnumOf) {
      return "Utf8";
    }
    if (type instanceof PropertyType.VectorOf v) {
      return "FixedSizeList(" + v.dimension() + " x Float32)";
    }
    if (type instanceof PropertyType.ListOf l) {
      return "List(" + typeName(l.item()) + ")";
    }
    return typeName(((PropertyType.Scalar) type).kind());
  }

  /**
   * @param k a scalar kind
   * @return its Arrow type name as messages spell it, e.g. {@code Date64}
   */
  public static String typeName(ScalarKind k) {
    return switch (k) {
      case STRING -> "Utf8";
      case BLOB -> "LargeBinary";
      case BOOL -> "Boolean";
      case I32 -> "Int32";
      case I64 -> "Int64";
      case U32 -> "UInt32";
      case U64 -> "UInt64";
      case F32 -> "Float32";
      case F64 -> "Float64";
      case DATE -> "Date32";
      case DATE_TIME -> "Date64";
    };
  }

  /**
   * Writes one cell, growing the vector as needed.
   *
   * @param v the column
   * @param type the property type
   * @param i row index
   * @param value the value in the representation, or {@code null}
   */
  public static void set(FieldVector v, PropertyType type, int i, Object value) {
    if (value == null) {
      setNull(v, i);
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

  /**
   * Marks cell {@code i} null, for every vector type a property can have.
   *
   * @param v the column
   * @param i row index
   */
  public static void setNull(FieldVector v, int i) {
    // Every vector type a property can have exposes setNull on its concrete class.
    if (v instanceof ListVector x) {
      x.setNull(i);
    } else if (v instanceof FixedSizeListVector x) {
      x.setNull(i);
    } else if (v instanceof VarCharVector x) {
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
   * Reads one cell.
   *
   * @param v the column
   * @param type the property type
   * @param i row index
   * @return the value in the representation, or {@code null} for a null cell
   */
  public static Object get(FieldVector v, PropertyType type, int i) {
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
        out.add(getScalar(lv.getDataVector(), l.item(), k));
      }
      return List.copyOf(out);
    }
    return getScalar(v, type instanceof PropertyType.Scalar s ? s.kind() : ScalarKind.STRING, i);
  }

  /**
   * Reads one cell of a comparable column (Utf8, Boolean, Int32/64, UInt32/64, Float32/64, Date32,
   * Date64) by its vector type alone, for readers that have a batch but no property types.
   *
   * @param v the column
   * @param i row index
   * @return the value in the representation, or {@code null} for a null cell
   * @throws IllegalArgumentException if the column's type cannot be compared
   */
  public static Object getComparable(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    ScalarKind k = comparableKind(v);
    if (k == null) {
      throw new IllegalArgumentException(
          "column '" + v.getName() + "' of Arrow type " + v.getField().getType() + " cannot be compared");
    }
    return getScalar(v, k, i);
  }

  private static ScalarKind comparableKind(FieldVector v) {
    if (v instanceof VarCharVector) {
      return ScalarKind.STRING;
    } else if (v instanceof BitVector) {
      return ScalarKind.BOOL;
    } else if (v instanceof IntVector) {
      return ScalarKind.I32;
    } else if (v instanceof BigIntVector) {
      return ScalarKind.I64;
    } else if (v instanceof UInt4Vector) {
      return ScalarKind.U32;
    } else if (v instanceof UInt8Vector) {
      return ScalarKind.U64;
    } else if (v instanceof Float4Vector) {
      return ScalarKind.F32;
    } else if (v instanceof Float8Vector) {
      return ScalarKind.F64;
    } else if (v instanceof DateDayVector) {
      return ScalarKind.DATE;
    } else if (v instanceof DateMilliVector) {
      return ScalarKind.DATE_TIME;
    }
    return null;
  }

  private static Object getScalar(FieldVector v, ScalarKind k, int i) {
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
