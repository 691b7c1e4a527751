package io.omnigraph.engine.schema;

import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The type of a property, without nullability (see {@link Property#nullable()}). A closed set:
 * scalar, list of scalar, enum, fixed-dimension float vector.
 */
public sealed interface PropertyType
    permits PropertyType.Scalar, PropertyType.ListOf, PropertyType.EnumOf, PropertyType.VectorOf {

  /** @return the source spelling, e.g. {@code [String]}, {@code Vector(8)}, {@code enum(a, b)} */
  String spelling();

  /**
   * A scalar base type.
   *
   * @param kind the base type
   */
  record Scalar(ScalarKind kind) implements PropertyType {
    public Scalar {
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String spelling() {
      return kind.spelling();
    }
  }

  /**
   * A list whose items are a base type (never an enum, vector or list; never Blob).
   *
   * @param item the item type
   */
  record ListOf(ScalarKind item) implements PropertyType {
    public ListOf {
      Objects.requireNonNull(item, "item");
    }

    @Override
    public String spelling() {
      return "[" + item.spelling() + "]";
    }
  }

  /**
   * A string restricted to a value set. The set is sorted and deduplicated, so the order in which
   * values are written is not significant.
   *
   * @param values the allowed values, sorted, at least one
   */
  record EnumOf(List<String> values) implements PropertyType {
    public EnumOf {
      SortedSet<String> sorted = new TreeSet<>(values);
      if (sorted.isEmpty()) {
        throw new IllegalArgumentException("an enum needs at least one value");
      }
      values = List.copyOf(sorted);
    }

    @Override
    public String spelling() {
      return values.stream().collect(Collectors.joining(", ", "enum(", ")"));
    }
  }

  /**
   * A fixed-dimension vector of 32-bit floats.
   *
   * @param dimension number of elements, at least 1
   */
  record VectorOf(int dimension) implements PropertyType {
    public VectorOf {
      if (dimension < 1) {
        throw new IllegalArgumentException("Vector dimension must be greater than zero");
      }
    }

    @Override
    public String spelling() {
      return "Vector(" + dimension + ")";
    }
  }
}
