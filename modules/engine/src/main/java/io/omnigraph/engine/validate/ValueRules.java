package io.omnigraph.engine.validate;

import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * The value rules of one row: {@code @range} (inclusive numeric bounds; NaN and infinities
 * violate) and {@code @check} (an unanchored regular-expression search on a String). A null value
 * is never checked. Values are in the representation of {@link io.omnigraph.engine.value.Scalars} (Integer, Long,
 * Float, Double, String...).
 *
 * <p>One instance per load or mutation (it caches compiled patterns); not thread-safe.
 */
public final class ValueRules {
  private final Map<Constraint.Check, Pattern> patterns = new HashMap<>();

  /**
   * @param c a {@code @range} or {@code @check} constraint
   * @param type the constrained property's type
   * @param value a non-null value
   * @return true if {@code value} satisfies {@code c} (any other constraint kind: true)
   */
  public boolean admits(Constraint c, PropertyType type, Object value) {
    if (c instanceof Constraint.Range r) {
      return rangeViolation(r, type, value) == null;
    }
    if (c instanceof Constraint.Check ch) {
      return pattern(ch).matcher((String) value).find();
    }
    return true;
  }

  /**
   * Checks one row against the type's {@code @range} and {@code @check} constraints, in
   * declaration order.
   *
   * @param typeName the node or edge type
   * @param constraints its constraints
   * @param props its properties
   * @param values one value per property (null = null)
   * @param site where the row came from
   * @throws io.omnigraph.api.InvalidInputException the first violation
   */
  public void checkRow(String typeName, List<Constraint> constraints, List<Property> props, Object[] values, Site site) {
    for (Constraint c : constraints) {
      if (c instanceof Constraint.Range || c instanceof Constraint.Check) {
        int idx = indexOf(props, c.fields().get(0));
        if (values[idx] != null) {
          check(c, typeName, props.get(idx).type(), values[idx], site);
        }
      }
    }
  }

  /**
   * Checks every row of a table: for each {@code @range}/{@code @check} constraint in declaration
   * order, every row in row order.
   *
   * @param t the pending rows
   * @param props the type's properties
   * @param values row {@code k} → its values, one per property
   * @throws io.omnigraph.api.InvalidInputException the first violation
   */
  public void checkRows(PendingRows t, List<Property> props, IntFunction<List<Object>> values) {
    for (Constraint c : t.constraints()) {
      if (!(c instanceof Constraint.Range) && !(c instanceof Constraint.Check)) {
        continue;
      }
      int idx = indexOf(props, c.fields().get(0));
      for (int k = 0; k < t.size(); k++) {
        Object v = values.apply(k).get(idx);
        if (v != null) {
          check(c, t.typeName(), props.get(idx).type(), v, t.site(k));
        }
      }
    }
  }

  private void check(Constraint c, String typeName, PropertyType type, Object value, Site site) {
    if (c instanceof Constraint.Range r) {
      String violation = rangeViolation(r, type, value);
      if (violation != null) {
        throw Violations.of(ConstraintRule.RANGE_VIOLATION, site, r.field(),
            "@range violation on " + typeName + "." + r.field() + ": " + violation);
      }
    } else {
      Constraint.Check ch = (Constraint.Check) c;
      if (!pattern(ch).matcher((String) value).find()) {
        throw Violations.of(ConstraintRule.CHECK_VIOLATION, site, ch.field(),
            "@check violation on " + typeName + "." + ch.field() + ": value '" + value + "' does not match pattern '"
                + ch.pattern() + "'");
      }
    }
  }

  private Pattern pattern(Constraint.Check c) {
    return patterns.computeIfAbsent(c, Constraint.Check::compiled);
  }

  private static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException("no property " + name);
  }

  /**
   * @param c the range
   * @param type the property type
   * @param value a non-null numeric value
   * @return null when {@code value} is within {@code c}, else why not (e.g. {@code value 5 < min 10})
   */
  static String rangeViolation(Constraint.Range c, PropertyType type, Object value) {
    BigDecimal v;
    if (value instanceof Float f) {
      if (f.isNaN()) {
        return "value NaN is not a number";
      }
      if (f.isInfinite()) {
        return "value " + f + " is not finite";
      }
      v = new BigDecimal(f.toString());
    } else if (value instanceof Double d) {
      if (d.isNaN()) {
        return "value NaN is not a number";
      }
      if (d.isInfinite()) {
        return "value " + d + " is not finite";
      }
      v = BigDecimal.valueOf(d);
    } else if (type instanceof PropertyType.Scalar s && s.kind() == ScalarKind.U64) {
      v = new BigDecimal(Long.toUnsignedString((Long) value));
    } else {
      v = new BigDecimal(value.toString());
    }
    if (c.min().isPresent() && v.compareTo(c.min().get()) < 0) {
      return "value " + v.toPlainString() + " < min " + c.min().get().toPlainString();
    }
    if (c.max().isPresent() && v.compareTo(c.max().get()) > 0) {
      return "value " + v.toPlainString() + " > max " + c.max().get().toPlainString();
    }
    return null;
  }
}
