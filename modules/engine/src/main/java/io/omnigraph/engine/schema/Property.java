package io.omnigraph.engine.schema;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A declared property of an interface, node or edge type.
 *
 * @param name property name (case-sensitive)
 * @param type the type without nullability
 * @param nullable whether {@code null} / absence is allowed ({@code T?})
 * @param annotations annotations written on the property (including {@code @key} etc. before
 *     desugaring, so the source can be reproduced)
 * @param fromInterface the interface that injected this property, empty if declared directly
 * @param pos where the property name was written
 */
public record Property(
    String name,
    PropertyType type,
    boolean nullable,
    List<Annotation> annotations,
    Optional<String> fromInterface,
    SourcePos pos) {
  public Property {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    annotations = List.copyOf(annotations);
    Objects.requireNonNull(fromInterface, "fromInterface");
    Objects.requireNonNull(pos, "pos");
  }

  /** @return the type as written in source, with {@code ?} when nullable */
  public String typeSpelling() {
    return type.spelling() + (nullable ? "?" : "");
  }

  /** @return true if declared on the type itself rather than injected from an interface */
  public boolean declaredDirectly() {
    return fromInterface.isEmpty();
  }

  /**
   * @param annotationName name without {@code @}
   * @return the first annotation of that name
   */
  public Optional<Annotation> annotation(String annotationName) {
    return annotations.stream().filter(a -> a.name().equals(annotationName)).findFirst();
  }
}
