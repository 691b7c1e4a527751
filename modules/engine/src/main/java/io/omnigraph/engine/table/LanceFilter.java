package io.omnigraph.engine.table;

import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Utf16;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A Lance scan or delete filter (DataFusion SQL text), and the one place in the engine that writes
 * such text. A value can only be made by rendering a {@link RowFilter} ({@link #of}) or a string
 * {@code IN} list ({@link #in}), so every filter that reaches Lance went through the same quoting.
 *
 * <p>What Lance's filter parser accepts, and how the rendering stays inside it:
 * <ul>
 *   <li>Column names are identifiers ({@code [A-Za-z_][A-Za-z0-9_]*}, anything else is refused).
 *       A {@link RowFilter}'s columns are always back-quoted, since a property may be named like a
 *       SQL keyword; the system columns of {@link #in} ({@code id}, {@code src}, {@code dst}) are
 *       not keywords and are written bare.
 *   <li>String constants are single-quoted with every {@code '} doubled; nothing else is an escape
 *       (a backslash is an ordinary character). lance-java hands the filter to native code as JNI
 *       "modified UTF-8", in which U+0000 and every character outside the Basic Multilingual Plane
 *       (a surrogate pair in Java) are not valid UTF-8 and make the whole filter fail ("invalid
 *       utf-8 sequence"). Those characters are spelled {@code chr(<code point>)} and concatenated
 *       with {@code ||}; DataFusion folds the expression back into one constant before the scan. A
 *       string with an unpaired surrogate is not a sequence of Unicode scalar values and is refused.
 *   <li>Every other constant is cast to its column's exact Arrow type, so the comparison happens at
 *       the column's width (an F32 column with an F32 constant) and narrow indexes stay usable.
 *   <li>A comparison with a null constant renders as a NULL boolean, which under SQL three-valued
 *       logic selects nothing, exactly as {@link RowFilter#evaluate} says.
 * </ul>
 * A filter made by {@link #of} selects in Lance exactly the rows {@link RowFilter#matches} selects.
 */
public final class LanceFilter {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final List<String> SYSTEM_COLUMNS = List.of("id", "src", "dst");

  private final String sql;

  private LanceFilter(String sql) {
    this.sql = sql;
  }

  /**
   * @param filter a filter over one table's columns
   * @return the filter rendered for Lance
   * @throws IllegalArgumentException if a string constant has an unpaired surrogate or a column name
   *     is not an identifier
   */
  public static LanceFilter of(RowFilter filter) {
    StringBuilder b = new StringBuilder();
    render(filter, b);
    return new LanceFilter(b.toString());
  }

  /**
   * @param column a system column: {@code id}, {@code src} or {@code dst} (written bare)
   * @param values the strings to select; empty selects nothing
   * @return {@code column IN ('v1', 'v2', ...)}
   * @throws IllegalArgumentException if a value has an unpaired surrogate or the column is not a
   *     system column
   */
  public static LanceFilter in(String column, Collection<String> values) {
    if (!SYSTEM_COLUMNS.contains(column)) {
      throw new IllegalArgumentException("'" + column + "' is not a system column (id, src, dst)");
    }
    if (values.isEmpty()) {
      return new LanceFilter("FALSE");
    }
    StringBuilder b = new StringBuilder(column).append(" IN (");
    boolean first = true;
    for (String v : values) {
      if (!first) {
        b.append(", ");
      }
      first = false;
      b.append(quote(v));
    }
    return new LanceFilter(b.append(')').toString());
  }

  /** @return the filter text to hand to Lance */
  public String sql() {
    return sql;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LanceFilter f && f.sql.equals(sql);
  }

  @Override
  public int hashCode() {
    return sql.hashCode();
  }

  @Override
  public String toString() {
    return sql;
  }

  private static void render(RowFilter f, StringBuilder b) {
    if (f instanceof RowFilter.Compare c) {
      if (c.value() == null) {
        b.append("CAST(NULL AS BOOLEAN)");
        return;
      }
      b.append('(').append(quotedIdentifier(c.column().name())).append(' ').append(c.op().symbol()).append(' ');
      literal(c.column(), c.value(), b);
      b.append(')');
    } else if (f instanceof RowFilter.In in) {
      if (in.values().isEmpty()) {
        b.append("FALSE");
        return;
      }
      b.append('(').append(quotedIdentifier(in.column().name())).append(" IN (");
      for (int i = 0; i < in.values().size(); i++) {
        if (i > 0) {
          b.append(", ");
        }
        literal(in.column(), in.values().get(i), b);
      }
      b.append("))");
    } else if (f instanceof RowFilter.Text t) {
      // strpos is 1-based (0: absent), so an empty needle is found in every non-null value
      b.append(t.prefix() ? "starts_with(" : "(strpos(").append(quotedIdentifier(t.column().name())).append(", ")
          .append(quote(t.value())).append(t.prefix() ? ")" : ") > 0)");
    } else if (f instanceof RowFilter.ListHas h) {
      b.append("array_has(").append(quotedIdentifier(h.column().name())).append(", ");
      literal(new io.omnigraph.engine.gq.ColumnRef(h.column().name(), new io.omnigraph.engine.schema.PropertyType.Scalar(h.item()),
          true), h.value(), b);
      b.append(')');
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

  /** A property may be named like a SQL keyword, so plan columns are always back-quoted. */
  private static String quotedIdentifier(String name) {
    requireIdentifier(name);
    return "`" + name + "`";
  }

  private static void requireIdentifier(String name) {
    if (!IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException("column name '" + name + "' is not an identifier");
    }
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
   * @return {@code s} as a string constant: single-quoted runs with each {@code '} doubled, U+0000
   *     and characters outside the BMP as {@code chr(n)}, joined with {@code ||} and parenthesized
   *     when there is more than one part
   * @throws IllegalArgumentException if {@code s} has an unpaired surrogate
   */
  static String quote(String s) {
    String problem = Utf16.problem(s);
    if (problem != null) {
      throw new IllegalArgumentException("string constant " + problem);
    }
    StringBuilder b = new StringBuilder();
    StringBuilder run = new StringBuilder();
    int parts = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp == 0 || cp > 0xFFFF) {
        if (run.length() > 0 || parts == 0) {
          parts = appendPart(b, parts, quoted(run));
          run.setLength(0);
        }
        parts = appendPart(b, parts, "chr(" + cp + ")");
      } else {
        run.appendCodePoint(cp);
      }
    }
    if (parts == 0) {
      return quoted(run);
    }
    if (run.length() > 0) {
      appendPart(b, parts, quoted(run));
    }
    return "(" + b + ")";
  }

  private static String quoted(CharSequence run) {
    return "'" + run.toString().replace("'", "''") + "'";
  }

  private static int appendPart(StringBuilder b, int parts, String part) {
    if (parts > 0) {
      b.append(" || ");
    }
    b.append(part);
    return parts + 1;
  }
}
