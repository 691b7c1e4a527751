package io.omnigraph.engine.schema;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An edge type: one Lance table {@code edge:<name>} with system columns {@code id, src, dst}.
 *
 * @param name type name (looked up case-insensitively)
 * @param fromType source node type
 * @param toType target node type
 * @param cardinality allowed outgoing edges per source node
 * @param annotations type-level annotations
 * @param properties declared properties in source order
 * @param constraints desugared {@code @unique} / {@code @index} constraints
 * @param pos where the name was written
 */
public record EdgeType(
    String name,
    String fromType,
    String toType,
    Cardinality cardinality,
    List<Annotation> annotations,
    List<Property> properties,
    List<Constraint> constraints,
    SourcePos pos) {
  public EdgeType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fromType, "fromType");
    Objects.requireNonNull(toType, "toType");
    Objects.requireNonNull(cardinality, "cardinality");
    annotations = List.copyOf(annotations);
    properties = List.copyOf(properties);
    constraints = List.copyOf(constraints);
    Objects.requireNonNull(pos, "pos");
  }

  /** @return the Lance table key {@code edge:<name>} */
  public String tableKey() {
    return "edge:" + name;
  }

  /**
   * @return the edge key ({@code @key(src, dst[, p...])}; members start with {@code src, dst}),
   *     if the type is keyed (docs/edge-keys.md)
   */
  public Optional<Constraint.Key> key() {
    return constraints.stream()
        .filter(Constraint.Key.class::isInstance)
        .map(Constraint.Key.class::cast)
        .findFirst();
  }

  /**
   * @param propertyName a property name
   * @return the property of that exact name
   */
  public Optional<Property> property(String propertyName) {
    return properties.stream().filter(p -> p.name().equals(propertyName)).findFirst();
  }
}
