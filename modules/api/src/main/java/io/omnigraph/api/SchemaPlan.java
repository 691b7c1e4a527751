package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Graph#planSchema} found between the accepted schema and a desired {@code .pg}
 * (docs/schema-migration.md). Nothing is written by planning.
 *
 * @param supported {@code true} when no step is an {@code unsupported_change}: {@link Graph#applySchema}
 *     would apply the plan
 * @param steps the steps in a fixed order (types, then properties, constraints, metadata, drops;
 *     unsupported changes where they were found)
 * @param acceptedIdentity the identity hash of the accepted schema
 * @param desiredIdentity the identity hash the graph would accept after applying (equal to
 *     {@code acceptedIdentity} when there is nothing to do)
 */
public record SchemaPlan(boolean supported, List<SchemaPlanStep> steps, String acceptedIdentity,
    String desiredIdentity) {
  public SchemaPlan {
    steps = List.copyOf(steps);
    Objects.requireNonNull(acceptedIdentity, "acceptedIdentity");
    Objects.requireNonNull(desiredIdentity, "desiredIdentity");
  }

  /** @return the {@code unsupported_change} steps, each with its entity, reason and code */
  public List<SchemaPlanStep> unsupportedChanges() {
    return steps.stream().filter(SchemaPlanStep::unsupported).toList();
  }

  /** @return whether applying would change nothing */
  public boolean empty() {
    return steps.isEmpty();
  }
}
