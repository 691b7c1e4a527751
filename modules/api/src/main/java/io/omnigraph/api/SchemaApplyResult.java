package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Graph#applySchema} did.
 *
 * @param uri the graph root
 * @param applied {@code true} when a graph commit accepted the new schema; {@code false} when the
 *     desired schema equals the accepted one (nothing to do, no commit)
 * @param commitId the graph commit that accepted the schema, or {@code null} when nothing was applied
 * @param schemaIdentity the identity hash of the schema accepted now
 * @param steps the applied plan's steps (drops carry the mode they were applied with)
 */
public record SchemaApplyResult(String uri, boolean applied, String commitId, String schemaIdentity,
    List<SchemaPlanStep> steps) {
  public SchemaApplyResult {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(schemaIdentity, "schemaIdentity");
    steps = List.copyOf(steps);
  }

  /** @return the number of steps applied */
  public int stepCount() {
    return steps.size();
  }
}
