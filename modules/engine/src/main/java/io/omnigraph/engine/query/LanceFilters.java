package io.omnigraph.engine.query;

import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigDecimal;
import java.util.List;
import java.util.StringJoiner;

/**
 * Renders a {@link RowFilter} as a Lance scan filter (DataFusion SQL) that selects exactly the rows
 * {@link RowFilter#matches} selects.
 *
 * <p>Safety: column names are always back-quoted (property names match {@code
 * [a-z_][A-Za-z0-9_]*}, so they cannot contain a back-quote, but may collide with SQL keywords);
 * string constants are single-quoted with every {@code '} doubled and nothing else interpreted
 * (characters outside the Basic Multilingual Plane and U+0000 are spelled {@code chr(n)}, see
 * {@link #quote}); a string with an unpaired surrogate is refused (it cannot cross into Lance's native code as
 * UTF-8). Every constant is cast to its column's exact Arrow type, so the comparison happens at the
 * column's width (an F32 column is compared with an F32 constant, not widened to F64) and narrow
 * indexes stay usable. A comparison with a null constant renders as a NULL boolean, which under
 * SQL three-valued logic selects nothing, as {@link RowFilter#evaluate} says.
 */
public final class LanceFilters {
  private LanceFilters() {}

  /**
   * @param filter a filter
   * @return the SQL filter text
   * @throws IllegalArgumentException if a string constant is not well-formed UTF-16
   */
  public static String render(RowFilter filter) {
    StringBuilder b = new StringBuilder();
    render(filter, b);
    return b.toString();
  }

  private static void render(RowFilter f, StringBuilder b) {
    if (f instanceof RowFilter.Compare c) {
      if (c.value() == null) {
        b.append("CAST(NULL AS BOOLEAN)");
        return;
      }
      b.append('(').append(column(c.column())).append(' ').append(c.op().symbol()).append(' ');
      literal(c.column(), c.value(), b);
      b.append(')');
    } else if (f instanceof RowFilter.In in) {
      if (in.values().isEmpty()) {
        b.append("FALSE");
        return;
      }
      b.append('(').append(column(in.column())).append(" IN (");
      StringJoiner j = new StringJoiner(", ");
      for (Object v : in.values()) {
        StringBuilder item = new StringBuilder();
        literal(in.column(), v, item);
        j.add(item);
      }
      b.append(j).append("))");
    } else if (f instanceof RowFilter.And and) {
      junction(and.parts(), " AND ", "TRUE", b);
    } else if (f instanceof RowFilter.Or or) {
      junction(or.parts(), " OR ", "FALSE", b);
    } else if (f instanceof RowFilter.Not not) {
      b.append("(NOT ");
      render(not.inner(), b);
      b.append(')');
    } else {
      b.append(((RowFilter.Constant) f).value() ? "TRUE" : "FALSE");
    }
  }

  private static void junction(List<RowFilter> parts, String op, String empty, StringBuilder b) {
    if (parts.isEmpty()) {
      b.append(empty);
      return;
    }
    b.append('(');
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        b.append(op);
      }
      render(parts.get(i), b);
    }
    b.append(')');
  }

  private static String column(ColumnRef c) {
    return "`" + c.name() + "`";
  }

  private static void literal(ColumnRef column, Object v, StringBuilder b) {
    ScalarKind k = column.scalarKind();
    switch (k) {
      case STRING -> b.append(quote((String) v));
      case BOOL -> b.append((Boolean) v ? "TRUE" : "FALSE");
      case I32 -> b.append("CAST(").append((int) (Integer) v).append(" AS INT)");
      case I64 -> {
        long l = (Long) v;
        // Long.MIN_VALUE has no positive counterpart, so it cannot be written as -(literal).
        b.append("CAST(").append(l == Long.MIN_VALUE ? "-9223372036854775807 - 1" : Long.toString(l)).append(" AS BIGINT)");
      }
      case U32 -> b.append("CAST(").append((long) (Long) v).append(" AS INT UNSIGNED)");
      // A bare literal above the signed 64-bit range is read as a Float64 (and then fails to cast back),
      // so unsigned 64-bit constants are cast from their decimal text.
      case U64 -> b.append("CAST('").append(Long.toUnsignedString((Long) v)).append("' AS BIGINT UNSIGNED)");
      case F32 -> b.append("CAST(").append(floatText((double) (Float) v)).append(" AS FLOAT)");
      case F64 -> b.append("CAST(").append(floatText((Double) v)).append(" AS DOUBLE)");
      case DATE -> b.append("CAST(").append((int) (Integer) v).append(" AS DATE)");
      case DATE_TIME -> b.append("arrow_cast(").append((long) (Long) v).append(", 'Date64')");
      case BLOB -> throw new IllegalArgumentException("Blob values cannot be rendered");
    }
  }

  /**
   * An exact decimal spelling that DataFusion reads as a Float64 (it always has a decimal point;
   * F32 values are exactly representable as F64, so the cast back to F32 is exact). Non-finite
   * values are cast from their string names.
   */
  private static String floatText(double d) {
    if (Double.isNaN(d)) {
      return "'NaN'";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "'Infinity'" : "'-Infinity'";
    }
    if (d == 0.0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    String s = new BigDecimal(Double.toString(d)).toPlainString();
    return s.contains(".") ? s : s + ".0";
  }

  /**
   * @param s a string
   * @return {@code s} as a SQL string literal: single-quoted, each {@code '} doubled
   * @throws IllegalArgumentException if {@code s} has an unpaired surrogate
   */
  public static String quote(String s) {
    String problem = Coercions.utf16Problem(s);
    if (problem != null) {
      throw new IllegalArgumentException("string constant " + problem);
    }
    // lance-java hands the filter to native code as JNI "modified UTF-8", in which supplementary
    // characters (surrogate pairs) and U+0000 are not valid UTF-8 and make the whole filter fail.
    // Such characters are therefore spelled chr(<code point>) and concatenated; DataFusion folds
    // the constant expression back into one literal before the scan.
    StringBuilder b = new StringBuilder();
    StringBuilder run = new StringBuilder();
    int parts = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp == 0 || cp > 0xFFFF) {
        if (run.length() > 0 || parts == 0) {
          parts = appendPart(b, parts, "'" + run.toString().replace("'", "''") + "'");
          run.setLength(0);
        }
        parts = appendPart(b, parts, "chr(" + cp + ")");
      } else {
        run.appendCodePoint(cp);
      }
    }
    if (parts == 0) {
      return "'" + run.toString().replace("'", "''") + "'";
    }
    if (run.length() > 0) {
      appendPart(b, parts, "'" + run.toString().replace("'", "''") + "'");
    }
    return "(" + b + ")";
  }

  private static int appendPart(StringBuilder b, int parts, String part) {
    if (parts > 0) {
      b.append(" || ");
    }
    b.append(part);
    return parts + 1;
  }
}
