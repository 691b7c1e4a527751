package io.omnigraph.engine.schema;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node type: one Lance table {@code node:<name>}.
 *
 * @param name type name
 * @param annotations type-level annotations
 * @param implementsList implemented interfaces in source order
 * @param properties directly declared properties in source order, then interface-injected ones
 * @param constraints desugared constraints (property-level first, in property order, then body
 *     constraints in source order; duplicates removed)
 * @param pos where the name was written
 */
public record NodeType(
    String name,
    List<Annotation> annotations,
    List<String> implementsList,
    List<Property> properties,
    List<Constraint> constraints,
    SourcePos pos) {
  public NodeType {
    Objects.requireNonNull(name, "name");
    annotations = List.copyOf(annotations);
    implementsList = List.copyOf(implementsList);
    properties = List.copyOf(properties);
    constraints = List.copyOf(constraints);
    Objects.requireNonNull(pos, "pos");
  }

  /** @return the Lance table key {@code node:<name>} */
  public String tableKey() {
    return "node:" + name;
  }

  /** @return the {@code @key} constraint, if the type is keyed */
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
