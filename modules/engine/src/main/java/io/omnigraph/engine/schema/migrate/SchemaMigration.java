package io.omnigraph.engine.schema.migrate;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.SchemaApplyOptions;
import io.omnigraph.api.SchemaApplyResult;
import io.omnigraph.api.SchemaPlan;
import io.omnigraph.api.SchemaPlanStep;
import io.omnigraph.engine.index.GraphAccess;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.SchemaException;
import io.omnigraph.engine.snapshot.SchemaFiles;
import io.omnigraph.engine.table.NativeBranch;
import java.util.List;
import java.util.Objects;

/**
 * {@code schema plan} and {@code schema apply} (docs/schema-migration.md): the entry points the
 * graph handle delegates to.
 */
public final class SchemaMigration {
  /** Rule of the refusal of a plan with an unsupported change. */
  public static final String UNSUPPORTED_RULE = "unsupported_schema_change";
  /** Rule of the refusal while branches other than main exist. */
  public static final String BRANCHES_RULE = "schema_apply_branches";

  private SchemaMigration() {}

  /**
   * Plans {@code pgText} against the schema accepted at main's head.
   *
   * @throws InvalidInputException the text does not compile or a rename hint names nothing
   */
  public static SchemaPlanner.Planned plan(CompiledSchema accepted, String pgText, boolean hardDrops) {
    Objects.requireNonNull(pgText, "pgText");
    CompiledSchema desired;
    try {
      desired = SchemaCompiler.compileAgainst(pgText, accepted.ir());
    } catch (SchemaException e) {
      throw SchemaFiles.invalid(e);
    }
    return SchemaPlanner.plan(accepted, desired, hardDrops);
  }

  /** @return the public plan of {@code pgText} against main's head */
  public static SchemaPlan plan(GraphAccess g, String pgText) {
    CompiledSchema accepted = g.snapshots().schemaAt(g.snapshots().latest());
    return plan(accepted, pgText, false).plan();
  }

  /**
   * Plans and applies {@code pgText}.
   *
   * @return what was applied
   */
  public static SchemaApplyResult apply(GraphAccess g, String pgText, SchemaApplyOptions options) {
    Objects.requireNonNull(options, "options");
    CompiledSchema accepted = g.snapshots().schemaAt(g.snapshots().latest());
    SchemaPlanner.Planned planned = plan(accepted, pgText, options.allowDataLoss());
    requireSupported(planned.plan());
    requireOnlyMain(g);
    if (planned.plan().empty()) {
      return new SchemaApplyResult(g.root().uri(), false, null, accepted.ir().hash(), List.of());
    }
    return SchemaApply.run(g, accepted, planned, options);
  }

  /** @throws InvalidInputException the plan has an unsupported change (the first one is reported) */
  static void requireSupported(SchemaPlan plan) {
    if (plan.supported()) {
      return;
    }
    List<SchemaPlanStep> bad = plan.unsupportedChanges();
    SchemaPlanStep first = bad.get(0);
    String code = first.field("code");
    throw new InvalidInputException((code == null ? "" : "[" + code + "] ") + first.field("reason") + " ("
        + first.field("entity") + ")" + (bad.size() > 1 ? "; and " + (bad.size() - 1) + " more unsupported change(s),"
            + " see 'omnigraph schema plan'" : ""),
        new ErrorDetail.Validation(null, null, first.field("entity"), UNSUPPORTED_RULE));
  }

  /** @throws ConflictException the graph has a branch other than main */
  static void requireOnlyMain(GraphAccess g) {
    List<String> names = g.snapshots().liveBranches().stream().map(NativeBranch::name).sorted().toList();
    if (!names.isEmpty()) {
      throw new ConflictException("schema apply requires a graph with only main; found non-main branches: "
          + String.join(", ", names) + " (merge or delete them first)",
          new ErrorDetail.Validation(null, null, "branches", BRANCHES_RULE));
    }
  }
}
