package io.omnigraph.engine.schema.migrate;

import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.SchemaApplyOptions;
import io.omnigraph.api.SchemaApplyResult;
import io.omnigraph.engine.index.GraphAccess;
import io.omnigraph.engine.schema.CompiledSchema;

/** The SchemaApply writer (docs/schema-migration.md, "Apply"). */
final class SchemaApply {
  private SchemaApply() {}

  static SchemaApplyResult run(GraphAccess g, CompiledSchema accepted, SchemaPlanner.Planned planned,
      SchemaApplyOptions options) {
    throw new InvalidInputException("schema apply of a non-empty plan is not available yet in this build", null);
  }
}
