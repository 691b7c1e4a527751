package io.omnigraph.engine.schema;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A constraint on a node or edge type, after desugaring property-level {@code @key}, {@code
 * @unique} and {@code @index}. Field names refer to properties of the owning type; on edges the
 * system names {@code src} and {@code dst} may appear in {@link Unique} and {@link Index}.
 */
public sealed interface Constraint
    permits Constraint.Key, Constraint.Unique, Constraint.Index, Constraint.Range, Constraint.Check {

  /** @return the fields the constraint applies to, in order */
  List<String> fields();

  /** @return the constraint name as written in source, e.g. {@code key} */
  String name();

  /**
   * Physical identity of a node or edge type: the id is derived from these members (at most one
   * per type). On an edge the members start with {@code src, dst} (docs/edge-keys.md). Implies an
   * index on the member list for a one-member node key.
   *
   * @param fields key members in declaration order of the constraint
   */
  record Key(List<String> fields) implements Constraint {
    public Key {
      fields = List.copyOf(fields);
    }

    @Override
    public String name() {
      return "key";
    }
  }

  /**
   * Tuple uniqueness across a type; rows with any null member are exempt.
   *
   * @param fields members
   */
  record Unique(List<String> fields) implements Constraint {
    public Unique {
      fields = List.copyOf(fields);
    }

    @Override
    public String name() {
      return "unique";
    }
  }

  /**
   * Index intent (the physical index is built later by the engine).
   *
   * @param fields members
   */
  record Index(List<String> fields) implements Constraint {
    public Index {
      fields = List.copyOf(fields);
    }

    @Override
    public String name() {
      return "index";
    }
  }

  /**
   * Inclusive numeric bounds on one property (nodes only); open bounds allowed, NaN violates,
   * null is skipped.
   *
   * @param field the property
   * @param min inclusive lower bound, empty = open
   * @param max inclusive upper bound, empty = open
   */
  record Range(String field, Optional<BigDecimal> min, Optional<BigDecimal> max) implements Constraint {
    public Range {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(min, "min");
      Objects.requireNonNull(max, "max");
    }

    @Override
    public List<String> fields() {
      return List.of(field);
    }

    @Override
    public String name() {
      return "range";
    }
  }

  /**
   * A regular expression a String property must match somewhere (unanchored search semantics),
   * nodes only; null is skipped.
   *
   * @param field the property
   * @param pattern the regular expression source
   */
  record Check(String field, String pattern) implements Constraint {
    public Check {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(pattern, "pattern");
    }

    @Override
    public List<String> fields() {
      return List.of(field);
    }

    @Override
    public String name() {
      return "check";
    }

    /** @return the compiled pattern (validated at compile time, so this never fails) */
    public Pattern compiled() {
      return Pattern.compile(pattern);
    }
  }
}
