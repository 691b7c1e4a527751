package io.omnigraph.engine.read;

import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Scalars;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Value semantics of read queries (docs/queries.md, "Values and comparisons"): comparison of
 * engine-representation values across numeric kinds, and conversion to the public Java types of
 * {@link io.omnigraph.api.QueryResult}.
 *
 * <p>Numbers compare exactly by value across kinds (an I32 3 equals an F64 3.0; a U64 above
 * 2^63 is larger than every I64); floats follow IEEE total order within float kinds (NaN above
 * every number); strings compare by code point; Dates and DateTimes chronologically.
 */
final class ReadValues {
  private static final BigDecimal TWO_64 = new BigDecimal(BigInteger.ONE.shiftLeft(64));

  private ReadValues() {}

  /** The scalar kind of a type (enum → STRING), or null for lists and vectors. */
  static ScalarKind kind(PropertyType t) {
    if (t instanceof PropertyType.Scalar s) {
      return s.kind();
    }
    if (t instanceof PropertyType.EnumOf) {
      return ScalarKind.STRING;
    }
    return null;
  }

  /**
   * Compares two non-null scalar values.
   *
   * @return negative, zero or positive
   * @throws IllegalArgumentException when the kinds cannot be compared
   */
  static int compare(ScalarKind ka, Object a, ScalarKind kb, Object b) {
    if (ka == kb) {
      return compareSame(ka, a, b);
    }
    if (ka.isNumeric() && kb.isNumeric()) {
      boolean fa = ka == ScalarKind.F32 || ka == ScalarKind.F64;
      boolean fb = kb == ScalarKind.F32 || kb == ScalarKind.F64;
      if (fa && fb) {
        return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
      }
      if (!fa && !fb) {
        return integer(ka, a).compareTo(integer(kb, b));
      }
      // exactly one float
      double d = ((Number) (fa ? a : b)).doubleValue();
      BigInteger i = integer(fa ? kb : ka, fa ? b : a);
      int c;
      if (Double.isNaN(d) || d == Double.POSITIVE_INFINITY) {
        c = 1;
      } else if (d == Double.NEGATIVE_INFINITY) {
        c = -1;
      } else {
        c = new BigDecimal(d).compareTo(new BigDecimal(i));
      }
      return fa ? c : -c;
    }
    throw new IllegalArgumentException("cannot compare " + ka.spelling() + " with " + kb.spelling());
  }

  /** @return a numeric value as a double (sum and avg accumulate in F64) */
  static double integerOrDouble(ScalarKind k, Object v) {
    if (k == ScalarKind.U64) {
      return integer(k, v).doubleValue();
    }
    return ((Number) v).doubleValue();
  }

  static BigInteger integer(ScalarKind k, Object v) {
    long l = ((Number) v).longValue();
    if (k == ScalarKind.U64 && l < 0) {
      return new BigInteger(Long.toUnsignedString(l));
    }
    return BigInteger.valueOf(l);
  }

  private static int compareSame(ScalarKind k, Object a, Object b) {
    return io.omnigraph.engine.value.ValueOrder.compare(k, a, b);
  }

  static int compareCodePoints(String a, String b) {
    return io.omnigraph.engine.value.ValueOrder.compareCodePoints(a, b);
  }

  /**
   * Converts a value exactly to a column kind's representation, for pushing a comparison into a
   * Lance scan.
   *
   * @return the converted value, or null when it has no exact equal in that kind
   */
  static Object exactIn(ScalarKind target, ScalarKind from, Object v) {
    if (target == from) {
      return v;
    }
    if (!target.isNumeric() || !from.isNumeric()) {
      return null;
    }
    BigDecimal d;
    if (from == ScalarKind.F32 || from == ScalarKind.F64) {
      double x = ((Number) v).doubleValue();
      if (Double.isNaN(x) || Double.isInfinite(x)) {
        return target == ScalarKind.F64 ? (Object) x : target == ScalarKind.F32 ? (Object) (float) x : null;
      }
      d = new BigDecimal(x);
    } else {
      d = new BigDecimal(integer(from, v));
    }
    switch (target) {
      case F64 -> {
        double x = d.doubleValue();
        return new BigDecimal(x).compareTo(d) == 0 ? x : null;
      }
      case F32 -> {
        float x = d.floatValue();
        return !Float.isInfinite(x) && new BigDecimal(x).compareTo(d) == 0 ? x : null;
      }
      default -> {
        BigInteger i;
        try {
          i = d.toBigIntegerExact();
        } catch (ArithmeticException e) {
          return null;
        }
        return switch (target) {
          case I32 -> i.bitLength() < 32 ? (Object) i.intValue() : null;
          case I64 -> i.bitLength() < 64 ? (Object) i.longValue() : null;
          case U32 -> i.signum() >= 0 && i.bitLength() <= 32 ? (Object) i.longValue() : null;
          case U64 -> i.signum() >= 0 && new BigDecimal(i).compareTo(TWO_64) < 0 ? (Object) i.longValue() : null;
          default -> null;
        };
      }
    }
  }

  /**
   * @param type the value's type
   * @param v an engine-representation value, or null
   * @return the public Java value (see {@link io.omnigraph.api.QueryResult})
   */
  static Object toApi(PropertyType type, Object v) {
    if (v == null) {
      return null;
    }
    if (type instanceof PropertyType.VectorOf) {
      return ((float[]) v).clone();
    }
    if (type instanceof PropertyType.ListOf l) {
      List<Object> out = new ArrayList<>();
      for (Object o : (List<?>) v) {
        out.add(scalarToApi(l.item(), o));
      }
      return java.util.Collections.unmodifiableList(out);
    }
    return scalarToApi(kind(type), v);
  }

  static Object scalarToApi(ScalarKind k, Object v) {
    if (v == null) {
      return null;
    }
    return switch (k) {
      case U64 -> integer(ScalarKind.U64, v);
      case DATE -> LocalDate.ofEpochDay((Integer) v);
      case DATE_TIME -> Instant.ofEpochMilli((Long) v);
      case BLOB -> throw new IllegalStateException("Blob values are never read values");
      default -> v;
    };
  }

  /** Writes a public Java value as JSON. */
  static void json(com.fasterxml.jackson.core.JsonGenerator g, Object v) throws java.io.IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Integer i) {
      g.writeNumber(i);
    } else if (v instanceof Long l) {
      g.writeNumber(l);
    } else if (v instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (v instanceof Float f) {
      if (Float.isFinite(f)) {
        g.writeNumber(f);
      } else {
        g.writeString(nonFinite(f));
      }
    } else if (v instanceof Double d) {
      if (Double.isFinite(d)) {
        g.writeNumber(d);
      } else {
        g.writeString(nonFinite(d));
      }
    } else if (v instanceof LocalDate d) {
      g.writeString(d.toString());
    } else if (v instanceof Instant t) {
      g.writeString(Scalars.formatDateTime(t.toEpochMilli()));
    } else if (v instanceof float[] f) {
      g.writeStartArray();
      for (float x : f) {
        json(g, x);
      }
      g.writeEndArray();
    } else if (v instanceof List<?> l) {
      g.writeStartArray();
      for (Object o : l) {
        json(g, o);
      }
      g.writeEndArray();
    } else {
      throw new IllegalStateException("unexpected result value " + v.getClass());
    }
  }

  private static String nonFinite(double d) {
    return Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
  }
}
