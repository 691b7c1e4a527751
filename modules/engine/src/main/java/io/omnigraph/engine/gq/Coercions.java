package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.BoolLit;
import io.omnigraph.engine.gq.QueryAst.DateLit;
import io.omnigraph.engine.gq.QueryAst.DateTimeLit;
import io.omnigraph.engine.gq.QueryAst.FloatLit;
import io.omnigraph.engine.gq.QueryAst.IntLit;
import io.omnigraph.engine.gq.QueryAst.ListLit;
import io.omnigraph.engine.gq.QueryAst.Literal;
import io.omnigraph.engine.gq.QueryAst.StringLit;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Scalars;
import io.omnigraph.engine.value.Utf16;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code .gq} side of value conversion: literals written for a column, and parameter values
 * converted to a column's type, each failure reported as the query error its users see. The
 * conversions themselves and the value representation are {@link Scalars}'.
 */
public final class Coercions {
  private Coercions() {}

  // ---- literals (check time) ------------------------------------------------------------

  /**
   * Converts a literal written for a column into the column's representation.
   *
   * @param lit the literal
   * @param column the target column
   * @param target how to name the column in messages, e.g. {@code Book.year}
   * @return the value
   * @throws QueryException T3 when the literal does not fit the column's type
   */
  static Object literal(Literal lit, ColumnRef column, String target) throws QueryException {
    PropertyType type = column.type();
    if (type instanceof PropertyType.EnumOf e) {
      if (!(lit instanceof StringLit s)) {
        throw mismatch(lit, target, type);
      }
      if (!e.values().contains(s.value())) {
        throw new QueryException(QueryException.Code.T3, lit.pos(),
            "invalid enum value '" + s.value() + "' for " + target + " (expected: " + String.join(", ", e.values()) + ")");
      }
      return s.value();
    }
    if (type instanceof PropertyType.VectorOf v) {
      if (!(lit instanceof ListLit list)) {
        throw mismatch(lit, target, type);
      }
      if (list.items().size() != v.dimension()) {
        throw new QueryException(QueryException.Code.T3, lit.pos(),
            "vector literal for " + target + " has " + list.items().size() + " values, expected " + v.dimension());
      }
      float[] out = new float[v.dimension()];
      for (int i = 0; i < out.length; i++) {
        out[i] = (Float) scalarLiteral(list.items().get(i), ScalarKind.F32, target + " item");
      }
      return out;
    }
    if (type instanceof PropertyType.ListOf l) {
      if (!(lit instanceof ListLit list)) {
        throw new QueryException(QueryException.Code.T3, lit.pos(),
            target + " is a list " + type.spelling() + "; write a list literal [..] (got " + describeLiteral(lit) + ")");
      }
      List<Object> out = new ArrayList<>(list.items().size());
      for (Literal item : list.items()) {
        out.add(scalarLiteral(item, l.item(), target + " item"));
      }
      return List.copyOf(out);
    }
    return scalarLiteral(lit, ((PropertyType.Scalar) type).kind(), target);
  }

  private static Object scalarLiteral(Literal lit, ScalarKind k, String target) throws QueryException {
    PropertyType type = new PropertyType.Scalar(k);
    if (lit instanceof ListLit) {
      throw new QueryException(QueryException.Code.T3, lit.pos(),
          target + " has type " + k.spelling() + "; a list literal does not fit (nested or misplaced list)");
    }
    switch (k) {
      case STRING -> {
        if (lit instanceof StringLit s) {
          return requireWellFormed(s.value(), lit, target);
        }
      }
      case BOOL -> {
        if (lit instanceof BoolLit b) {
          return b.value();
        }
      }
      case I32, I64, U32, U64 -> {
        if (lit instanceof IntLit i) {
          Object v = Scalars.integral(i.value(), k);
          if (v == null) {
            throw new QueryException(QueryException.Code.T3, lit.pos(),
                "integer " + i.value() + " is out of range for " + target + " (" + k.spelling() + ")");
          }
          return v;
        }
        if (lit instanceof FloatLit) {
          throw new QueryException(QueryException.Code.T3, lit.pos(),
              target + " has integer type " + k.spelling() + "; a decimal literal does not fit");
        }
      }
      case F32, F64 -> {
        BigDecimal d = lit instanceof IntLit i ? new BigDecimal(i.value()) : lit instanceof FloatLit f ? f.value() : null;
        if (d != null) {
          Object v = Scalars.floating(d, k);
          if (v == null) {
            throw new QueryException(QueryException.Code.T3, lit.pos(),
                "number " + d.toPlainString() + " is not finite as " + k.spelling() + " for " + target);
          }
          return v;
        }
      }
      case DATE -> {
        if (lit instanceof DateLit d) {
          Integer days = Scalars.parseDate(d.text());
          if (days == null) {
            throw new QueryException(QueryException.Code.T3, lit.pos(),
                "date(\"" + d.text() + "\") is not a valid date (expected \"YYYY-MM-DD\")");
          }
          return days;
        }
        if (lit instanceof StringLit s) {
          throw new QueryException(QueryException.Code.T3, lit.pos(),
              target + " has type Date; write date(\"" + s.value() + "\") instead of a string");
        }
      }
      case DATE_TIME -> {
        if (lit instanceof DateTimeLit d) {
          Long ms = Scalars.parseDateTime(d.text());
          if (ms == null) {
            throw new QueryException(QueryException.Code.T3, lit.pos(),
                "datetime(\"" + d.text() + "\") is not a valid date-time (expected RFC 3339, e.g. \"2024-05-01T12:00:00Z\")");
          }
          return ms;
        }
        if (lit instanceof StringLit s) {
          throw new QueryException(QueryException.Code.T3, lit.pos(),
              target + " has type DateTime; write datetime(\"" + s.value() + "\") instead of a string");
        }
      }
      case BLOB -> throw new QueryException(QueryException.Code.T3, lit.pos(),
          target + " has type Blob; Blob values can only be passed as a Blob parameter (\"base64:<data>\")");
      default -> throw new IllegalStateException("unhandled scalar " + k);
    }
    throw mismatch(lit, target, type);
  }

  private static String requireWellFormed(String s, Literal lit, String target) throws QueryException {
    String problem = Utf16.problem(s);
    if (problem != null) {
      throw new QueryException(QueryException.Code.T3, lit.pos(), "string for " + target + " " + problem);
    }
    return s;
  }

  private static QueryException mismatch(Literal lit, String target, PropertyType type) {
    return new QueryException(QueryException.Code.T3, lit.pos(),
        target + " has type " + type.spelling() + "; " + describeLiteral(lit) + " does not fit");
  }

  static String describeLiteral(Literal lit) {
    if (lit instanceof StringLit s) {
      return "string \"" + s.value() + "\"";
    }
    if (lit instanceof IntLit i) {
      return "integer " + i.value();
    }
    if (lit instanceof FloatLit f) {
      return "number " + f.value().toPlainString();
    }
    if (lit instanceof BoolLit b) {
      return "bool " + b.value();
    }
    if (lit instanceof DateLit d) {
      return "date(\"" + d.text() + "\")";
    }
    if (lit instanceof DateTimeLit d) {
      return "datetime(\"" + d.text() + "\")";
    }
    return "a list literal";
  }

  // ---- parameters (check and bind time) ---------------------------------------------------

  /**
   * @param param the declared parameter type
   * @param column the column the parameter's value is written to or compared with
   * @return null if a value of the parameter's type can be converted to the column's type, else why not
   */
  static String paramIncompatibility(PropertyType param, ColumnRef column) {
    PropertyType col = column.type();
    boolean ok;
    if (col instanceof PropertyType.EnumOf) {
      ok = param instanceof PropertyType.Scalar s && s.kind() == ScalarKind.STRING;
    } else if (col instanceof PropertyType.VectorOf v) {
      ok = (param instanceof PropertyType.VectorOf pv && pv.dimension() == v.dimension())
          || (param instanceof PropertyType.ListOf pl && pl.item().isNumeric());
    } else if (col instanceof PropertyType.ListOf l) {
      ok = param instanceof PropertyType.ListOf pl && scalarConvertible(pl.item(), l.item());
    } else {
      ok = param instanceof PropertyType.Scalar s && scalarConvertible(s.kind(), ((PropertyType.Scalar) col).kind());
    }
    return ok ? null : "a " + param.spelling() + " parameter cannot be used for a " + col.spelling() + " column";
  }

  private static boolean scalarConvertible(ScalarKind from, ScalarKind to) {
    if (from == to) {
      return true;
    }
    if (to.isInteger()) {
      return from.isInteger();
    }
    if (to == ScalarKind.F32 || to == ScalarKind.F64) {
      return from.isNumeric();
    }
    return false;
  }

  /**
   * Converts a bound parameter value (in the representation of the parameter's declared type) to
   * the representation of a column, range- and set-checking it.
   *
   * @param value a non-null value of {@code paramType}
   * @param paramType the declared parameter type
   * @param column the target column ({@link #paramIncompatibility} returned null for it)
   * @param what how to describe the use in messages, e.g. {@code param 'y' for Book.year}
   * @return the value in the column's representation
   * @throws QueryException PARAM_VALUE when the value does not fit the column
   */
  public static Object paramToColumn(Object value, PropertyType paramType, ColumnRef column, String what) throws QueryException {
    PropertyType col = column.type();
    if (col instanceof PropertyType.EnumOf e) {
      String s = (String) value;
      if (!e.values().contains(s)) {
        throw QueryException.param(what + ": invalid enum value '" + s + "' (expected: " + String.join(", ", e.values()) + ")");
      }
      return s;
    }
    if (col instanceof PropertyType.VectorOf v) {
      if (value instanceof float[] f) {
        return f;
      }
      List<?> list = (List<?>) value;
      if (list.size() != v.dimension()) {
        throw QueryException.param(what + ": vector needs " + v.dimension() + " values, got " + list.size());
      }
      ScalarKind item = ((PropertyType.ListOf) paramType).item();
      float[] out = new float[v.dimension()];
      for (int i = 0; i < out.length; i++) {
        out[i] = (Float) scalarToScalar(list.get(i), item, ScalarKind.F32, what);
      }
      return out;
    }
    if (col instanceof PropertyType.ListOf l) {
      ScalarKind item = ((PropertyType.ListOf) paramType).item();
      List<Object> out = new ArrayList<>();
      for (Object o : (List<?>) value) {
        out.add(scalarToScalar(o, item, l.item(), what));
      }
      return List.copyOf(out);
    }
    return scalarToScalar(value, ((PropertyType.Scalar) paramType).kind(), ((PropertyType.Scalar) col).kind(), what);
  }

  private static Object scalarToScalar(Object v, ScalarKind from, ScalarKind to, String what) throws QueryException {
    Object out = Scalars.widenOrNarrow(v, from, to);
    if (out == null) {
      throw QueryException.param(what + ": value " + (from.isInteger() ? Scalars.integerValue(v, from) : v)
          + (from.isInteger() ? " is out of range for " + to.spelling() : " is not finite as " + to.spelling()));
    }
    return out;
  }
}
