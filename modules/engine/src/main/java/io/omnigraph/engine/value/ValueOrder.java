package io.omnigraph.engine.value;

import io.omnigraph.engine.schema.ScalarKind;

/**
 * The one ordering of two non-null values of the same scalar kind in the engine's in-memory
 * representation, as Arrow's comparison kernels order them: strings by code point (UTF-8 byte
 * order), unsigned 64-bit integers unsigned, floats by IEEE total order ({@code -0.0 < 0.0}, NaN
 * equal to itself and above every number). Shared by update/delete filters ({@code plan/RowFilter})
 * and read queries ({@code read/ReadValues}).
 */
public final class ValueOrder {
  private ValueOrder() {}

  /** @return the order of {@code a} and {@code b}, both of kind {@code k} */
  public static int compare(ScalarKind k, Object a, Object b) {
    return switch (k) {
      case STRING -> compareCodePoints((String) a, (String) b);
      case BOOL -> Boolean.compare((Boolean) a, (Boolean) b);
      case I32, DATE -> Integer.compare((Integer) a, (Integer) b);
      case I64, U32, DATE_TIME -> Long.compare((Long) a, (Long) b);
      case U64 -> Long.compareUnsigned((Long) a, (Long) b);
      case F32 -> Float.compare((Float) a, (Float) b);
      case F64 -> Double.compare((Double) a, (Double) b);
      case BLOB -> throw new IllegalArgumentException("Blob values cannot be compared");
    };
  }

  /** @return the code-point (UTF-8 byte) order of two strings */
  public static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }
}
