package io.omnigraph.engine.schema;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An annotation such as {@code @description("text")} or {@code @embed("blurb", model="m")}.
 * Unknown annotation names are kept as metadata without effect.
 *
 * @param name the annotation name without {@code @}
 * @param value the single positional argument, if any
 * @param keywordArgs keyword arguments in source order (only {@code @embed} uses one: {@code model})
 * @param pos where the {@code @} was written
 */
public record Annotation(
    String name, Optional<Literal> value, Map<String, Literal> keywordArgs, SourcePos pos) {
  public Annotation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    keywordArgs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(keywordArgs));
    Objects.requireNonNull(pos, "pos");
  }

  /** @return the positional argument if it is a string literal */
  public Optional<String> stringValue() {
    return value.filter(Literal.Str.class::isInstance).map(l -> ((Literal.Str) l).value());
  }

  /** Well-known annotation names. */
  public static final String DESCRIPTION = "description";
  /** Well-known annotation names. */
  public static final String INSTRUCTION = "instruction";
  /** Well-known annotation names. */
  public static final String EMBED = "embed";
  /** Well-known annotation names. */
  public static final String RENAME_FROM = "rename_from";
}
