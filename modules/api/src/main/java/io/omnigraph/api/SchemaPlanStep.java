package io.omnigraph.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a {@link SchemaPlan} (docs/schema-migration.md, "Plan steps"). A step is a tagged
 * object: {@link #kind()} is one of the snake_case kinds below, and {@link #fields()} holds the
 * step's other members in a fixed order, each value a {@code String} or a {@code List<String>}.
 *
 * <table>
 *   <caption>step kinds and their fields</caption>
 *   <tr><td>{@code add_type}</td><td>{@code type_kind}, {@code name}</td></tr>
 *   <tr><td>{@code rename_type}</td><td>{@code type_kind}, {@code from}, {@code to}</td></tr>
 *   <tr><td>{@code add_property}</td><td>{@code type_kind}, {@code type_name}, {@code property_name},
 *       {@code property_type}</td></tr>
 *   <tr><td>{@code rename_property}</td><td>{@code type_kind}, {@code type_name}, {@code from},
 *       {@code to}</td></tr>
 *   <tr><td>{@code add_constraint}</td><td>{@code type_kind}, {@code type_name}, {@code constraint}</td></tr>
 *   <tr><td>{@code extend_enum}</td><td>{@code type_kind}, {@code type_name}, {@code property_name},
 *       {@code added_values}</td></tr>
 *   <tr><td>{@code update_type_metadata}</td><td>{@code type_kind}, {@code name}, {@code annotations}</td></tr>
 *   <tr><td>{@code update_property_metadata}</td><td>{@code type_kind}, {@code type_name},
 *       {@code property_name}, {@code annotations}</td></tr>
 *   <tr><td>{@code drop_type}</td><td>{@code type_kind}, {@code name}, {@code mode}</td></tr>
 *   <tr><td>{@code drop_property}</td><td>{@code type_kind}, {@code type_name}, {@code property_name},
 *       {@code mode}</td></tr>
 *   <tr><td>{@code unsupported_change}</td><td>{@code entity}, {@code reason}, {@code code}</td></tr>
 * </table>
 *
 * @param kind the step kind
 * @param fields the step's members in order (values: {@code String} or {@code List<String>})
 */
public record SchemaPlanStep(String kind, Map<String, Object> fields) {
  /** The kind of a step that makes a plan unsupported. */
  public static final String UNSUPPORTED_CHANGE = "unsupported_change";

  public SchemaPlanStep {
    Objects.requireNonNull(kind, "kind");
    LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
    fields.forEach((k, v) -> {
      Objects.requireNonNull(v, k);
      if (v instanceof List<?> l) {
        copy.put(k, List.copyOf(l.stream().map(Object::toString).toList()));
      } else if (v instanceof String) {
        copy.put(k, v);
      } else {
        throw new IllegalArgumentException("step field " + k + " must be a String or a List<String>");
      }
    });
    fields = Collections.unmodifiableMap(copy);
  }

  /** @return whether this step is an {@code unsupported_change} */
  public boolean unsupported() {
    return UNSUPPORTED_CHANGE.equals(kind);
  }

  /** @return the string field {@code name}, or {@code null} when absent or a list */
  public String field(String name) {
    return fields.get(name) instanceof String s ? s : null;
  }

  /** @return one line for people, e.g. {@code add_property node Person.age I32?} */
  public String describe() {
    StringBuilder b = new StringBuilder(kind);
    fields.forEach((k, v) -> b.append(' ').append(k).append('=').append(v instanceof List<?> l ? String.join(",",
        l.stream().map(Object::toString).toList()) : v));
    return b.toString();
  }
}
