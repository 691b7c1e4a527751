package io.omnigraph.engine.schema;

import java.util.List;
import java.util.Objects;

/**
 * An interface: a reusable property list that node types implement. Catalog metadata only.
 *
 * @param name type name
 * @param properties declared properties in source order
 * @param pos where the name was written
 */
public record InterfaceType(String name, List<Property> properties, SourcePos pos) {
  public InterfaceType {
    Objects.requireNonNull(name, "name");
    properties = List.copyOf(properties);
    Objects.requireNonNull(pos, "pos");
  }
}
