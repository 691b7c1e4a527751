package io.omnigraph.engine.plan;

import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Representation;
import java.util.List;
import java.util.Objects;

/**
 * A predicate over the rows of one table: the {@code where} of an update or delete, and the
 * compound filters the executor builds from them (an edge cascade {@code src IN (...) OR dst IN
 * (...)}, a pending-row shadow {@code NOT (id IN (...))}).
 *
 * <p>A filter has two equivalent readings, and the executor may use either: {@link
 * #evaluate(RowValues)} over in-memory rows (pending Arrow batches), and {@link
 * io.omnigraph.engine.table.LanceFilter#of(RowFilter)}, a Lance/DataFusion SQL filter for committed rows. Both use SQL
 * three-valued logic — a comparison with a null column value or a null constant is {@link
 * Truth#UNKNOWN}, and a row is selected only when the filter is {@link Truth#TRUE} — and the same
 * ordering as Arrow's comparison kernels: strings by code point (UTF-8 byte order), unsigned 64-bit
 * integers unsigned, floats by IEEE total order ({@code -0.0 < 0.0}, NaN equal to itself and above
 * every number).
 *
 * <p>Only scalar and enum columns can be compared; constants must already be in the column's
 * in-memory representation ({@link io.omnigraph.engine.value.Scalars}); constructors reject anything else, so a filter that
 * exists can always be rendered and evaluated.
 */
public sealed interface RowFilter
    permits RowFilter.Compare, RowFilter.In, RowFilter.And, RowFilter.Or, RowFilter.Not, RowFilter.Constant,
        RowFilter.Text, RowFilter.ListHas {

  /** SQL truth values. */
  enum Truth {
    TRUE,
    FALSE,
    UNKNOWN;

    static Truth of(boolean b) {
      return b ? TRUE : FALSE;
    }

    Truth not() {
      return this == TRUE ? FALSE : this == FALSE ? TRUE : UNKNOWN;
    }
  }

  /** Column values of one row, in the engine's in-memory representation (null for SQL null). */
  @FunctionalInterface
  interface RowValues {
    /**
     * @param column a physical column name the filter refers to
     * @return the row's value of that column, or null
     */
    Object get(String column);
  }

  /**
   * @param row the row
   * @return the filter's truth value on that row
   */
  Truth evaluate(RowValues row);

  /**
   * @param row the row
   * @return whether the row is selected ({@link #evaluate(RowValues)} is TRUE)
   */
  default boolean matches(RowValues row) {
    return evaluate(row) == Truth.TRUE;
  }

  /**
   * {@code column op value}.
   *
   * @param column a scalar or enum column (not Blob)
   * @param op the comparison
   * @param value the constant in the column's representation, or null (never matches)
   */
  record Compare(ColumnRef column, CompOp op, Object value) implements RowFilter {
    public Compare {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(op, "op");
      requireComparable(column);
      if (value != null) {
        Representation.require(column.name(), column.type(), value);
      }
    }

    @Override
    public Truth evaluate(RowValues row) {
      Object v = row.get(column.name());
      if (v == null || value == null) {
        return Truth.UNKNOWN;
      }
      Representation.require(column.name(), column.type(), v);
      int c = compare(column.scalarKind(), v, value);
      return Truth.of(switch (op) {
        case EQ -> c == 0;
        case NE -> c != 0;
        case LT -> c < 0;
        case LE -> c <= 0;
        case GT -> c > 0;
        case GE -> c >= 0;
      });
    }
  }

  /**
   * {@code column IN (v1, v2, ...)}; an empty set is FALSE.
   *
   * @param column a scalar or enum column (not Blob)
   * @param values non-null constants in the column's representation
   */
  record In(ColumnRef column, List<Object> values) implements RowFilter {
    public In {
      Objects.requireNonNull(column, "column");
      requireComparable(column);
      values = List.copyOf(values);
      values.forEach(v -> Representation.require(column.name(), column.type(), v));
    }

    @Override
    public Truth evaluate(RowValues row) {
      Object v = row.get(column.name());
      if (v == null) {
        return values.isEmpty() ? Truth.FALSE : Truth.UNKNOWN;
      }
      Representation.require(column.name(), column.type(), v);
      for (Object candidate : values) {
        if (compare(column.scalarKind(), v, candidate) == 0) {
          return Truth.TRUE;
        }
      }
      return Truth.FALSE;
    }
  }

  /**
   * {@code column contains value} (exact, case-sensitive substring) or {@code column starts_with
   * value} (exact prefix) on a String column (read queries, docs/queries.md "Property matches and
   * filters").
   *
   * @param column a String column
   * @param prefix true for starts_with, false for contains
   * @param value the non-null text
   */
  record Text(ColumnRef column, boolean prefix, String value) implements RowFilter {
    public Text {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(value, "value");
      if (column.scalarKind() != ScalarKind.STRING) {
        throw new IllegalArgumentException("column '" + column.name() + "' is not a String column");
      }
    }

    @Override
    public Truth evaluate(RowValues row) {
      Object v = row.get(column.name());
      if (v == null) {
        return Truth.UNKNOWN;
      }
      return Truth.of(prefix ? ((String) v).startsWith(value) : ((String) v).contains(value));
    }
  }

  /**
   * List membership: some element of the list {@code column} equals {@code value} (null elements
   * never match).
   *
   * @param column a list column
   * @param item the element kind
   * @param value the non-null constant in the element kind's representation
   */
  record ListHas(ColumnRef column, ScalarKind item, Object value) implements RowFilter {
    public ListHas {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(item, "item");
      Objects.requireNonNull(value, "value");
      if (!(column.type() instanceof io.omnigraph.engine.schema.PropertyType.ListOf l) || l.item() != item
          || item == ScalarKind.BLOB) {
        throw new IllegalArgumentException("column '" + column.name() + "' is not a list of " + item);
      }
    }

    @Override
    public Truth evaluate(RowValues row) {
      Object v = row.get(column.name());
      if (v == null) {
        return Truth.UNKNOWN;
      }
      boolean unknown = false;
      for (Object e : (List<?>) v) {
        if (e == null) {
          unknown = true;
        } else if (compare(item, e, value) == 0) {
          return Truth.TRUE;
        }
      }
      return unknown ? Truth.UNKNOWN : Truth.FALSE;
    }
  }

  /**
   * Conjunction; empty is TRUE.
   *
   * @param parts the conjuncts
   */
  record And(List<RowFilter> parts) implements RowFilter {
    public And {
      parts = List.copyOf(parts);
    }

    @Override
    public Truth evaluate(RowValues row) {
      Truth result = Truth.TRUE;
      for (RowFilter p : parts) {
        Truth t = p.evaluate(row);
        if (t == Truth.FALSE) {
          return Truth.FALSE;
        }
        if (t == Truth.UNKNOWN) {
          result = Truth.UNKNOWN;
        }
      }
      return result;
    }
  }

  /**
   * Disjunction; empty is FALSE.
   *
   * @param parts the disjuncts
   */
  record Or(List<RowFilter> parts) implements RowFilter {
    public Or {
      parts = List.copyOf(parts);
    }

    @Override
    public Truth evaluate(RowValues row) {
      Truth result = Truth.FALSE;
      for (RowFilter p : parts) {
        Truth t = p.evaluate(row);
        if (t == Truth.TRUE) {
          return Truth.TRUE;
        }
        if (t == Truth.UNKNOWN) {
          result = Truth.UNKNOWN;
        }
      }
      return result;
    }
  }

  /**
   * Negation (NOT UNKNOWN is UNKNOWN).
   *
   * @param inner the negated filter
   */
  record Not(RowFilter inner) implements RowFilter {
    public Not {
      Objects.requireNonNull(inner, "inner");
    }

    @Override
    public Truth evaluate(RowValues row) {
      return inner.evaluate(row).not();
    }
  }

  /**
   * A constant TRUE or FALSE.
   *
   * @param value the truth value
   */
  record Constant(boolean value) implements RowFilter {
    @Override
    public Truth evaluate(RowValues row) {
      return Truth.of(value);
    }
  }

  private static void requireComparable(ColumnRef column) {
    ScalarKind k = column.scalarKind();
    if (k == null || k == ScalarKind.BLOB) {
      throw new IllegalArgumentException("column '" + column.name() + "' of type " + column.type().spelling() + " cannot be compared");
    }
  }

  /** Arrow kernel ordering of two non-null values of the same representation. */
  private static int compare(ScalarKind k, Object a, Object b) {
    return io.omnigraph.engine.value.ValueOrder.compare(k, a, b);
  }

  private static int compareCodePoints(String a, String b) {
    return io.omnigraph.engine.value.ValueOrder.compareCodePoints(a, b);
  }
}
