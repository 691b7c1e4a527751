package io.omnigraph.engine.value;

import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.util.Arrays;
import java.util.List;

/** Whether a Java object is a value of a property type in the engine's representation ({@link Scalars}). */
public final class Representation {
  private Representation() {}

  /**
   * @param type a property type
   * @param value a non-null object
   * @return whether {@code value} is in {@code type}'s representation
   */
  public static boolean isValue(PropertyType type, Object value) {
    if (type instanceof PropertyType.EnumOf e) {
      return value instanceof String s && e.values().contains(s);
    }
    if (type instanceof PropertyType.VectorOf v) {
      return value instanceof float[] f && f.length == v.dimension();
    }
    if (type instanceof PropertyType.ListOf l) {
      if (!(value instanceof List<?> list)) {
        return false;
      }
      for (Object item : list) {
        if (item == null || !isScalar(l.item(), item)) {
          return false;
        }
      }
      return true;
    }
    return isScalar(((PropertyType.Scalar) type).kind(), value);
  }

  private static boolean isScalar(ScalarKind k, Object v) {
    return switch (k) {
      case STRING -> v instanceof String;
      case BOOL -> v instanceof Boolean;
      case I32, DATE -> v instanceof Integer;
      case I64, U64, DATE_TIME -> v instanceof Long;
      case U32 -> v instanceof Long l && l >= 0 && l <= 0xffff_ffffL;
      case F32 -> v instanceof Float;
      case F64 -> v instanceof Double;
      case BLOB -> v instanceof byte[];
    };
  }

  /**
   * @param column the column name, for the message
   * @param type the column's type
   * @param value a non-null value
   * @throws IllegalArgumentException if {@code value} is not in {@code type}'s representation (a
   *     programming error, not a user error)
   */
  public static void require(String column, PropertyType type, Object value) {
    if (!isValue(type, value)) {
      throw new IllegalArgumentException(
          "value " + describe(value) + " (" + value.getClass().getSimpleName() + ") is not a "
              + type.spelling() + " value for column '" + column + "'");
    }
  }

  /**
   * @param v a value
   * @return a short spelling for messages (at most 80 characters)
   */
  public static String describe(Object v) {
    String s;
    if (v instanceof float[] f) {
      s = Arrays.toString(f);
    } else if (v instanceof byte[] b) {
      s = "<" + b.length + " bytes>";
    } else {
      s = String.valueOf(v);
    }
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }
}
