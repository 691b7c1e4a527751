package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.SchemaInfo;
import org.junit.jupiter.api.Test;

/**
 * The schema is the accepted source, per branch head; a plan names its steps and writes nothing;
 * unsupported changes and applies are typed refusals; ensure-indices builds what is missing once.
 *
 * <p>The tests of the graph contract group {@code Schema}, bound by {@link GraphContract.Schema}.
 */
abstract class SchemaGuarantees extends GraphContractGroup {

  SchemaGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void theSchemaIsTheAcceptedSource() {
    Graph g = create(SCHEMA);
    SchemaInfo s = g.schema();
    assertThat(s.source()).isEqualTo(SCHEMA);
    assertThat(s.identity()).startsWith("sha256:");
    assertThat(s.tableKeys()).containsExactly("edge:Wrote", "node:Author", "node:Book");
    assertThat(s.irJson()).contains("Author");
  }

  @Test
  public void theSchemaOfABranchIsTheSchemaOfItsHead() {
    Graph g = create(SCHEMA);
    String genesis = g.commits().get(0).id();
    String wider = SCHEMA.replace("born: I32?", "born: I32?\n    city: String?");
    g.applySchema(wider, io.omnigraph.api.SchemaApplyOptions.defaults());
    g.createBranch("old", genesis); // forked before the schema change
    g.createBranch("new", null);
    assertThat(g.schema(null)).isEqualTo(g.schema());
    assertThat(g.schema("main").source()).isEqualTo(wider);
    assertThat(g.schema("new")).isEqualTo(g.schema("main"));
    assertThat(g.schema("old").source()).isEqualTo(SCHEMA);
    assertThat(g.schema("old").identity()).isNotEqualTo(g.schema("main").identity());
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.schema("nope")), 404, "not_found");
  }

  @Test
  public void aSchemaPlanNamesItsStepsAndWritesNothing() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    int before = g.commits().size();
    io.omnigraph.api.SchemaPlan plan = g.planSchema(SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String?\n"));
    assertThat(plan.supported()).isTrue();
    assertThat(plan.acceptedIdentity()).isEqualTo(g.schema().identity());
    assertThat(plan.desiredIdentity()).isNotEqualTo(plan.acceptedIdentity());
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.steps().get(0).kind()).isEqualTo("add_property");
    assertThat(plan.steps().get(0).fields()).containsEntry("type_name", "Author").containsEntry("property_name", "nick")
        .containsEntry("property_type", "String?");
    io.omnigraph.api.SchemaPlan bad = g.planSchema(SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String\n"));
    assertThat(bad.supported()).isFalse();
    assertThat(bad.unsupportedChanges()).singleElement().satisfies(st -> {
      assertThat(st.field("code")).isNotBlank();
      assertThat(st.field("reason")).isNotBlank();
      assertThat(st.field("entity")).contains("nick");
    });
    io.omnigraph.api.SchemaPlan same = g.planSchema(SCHEMA);
    assertThat(same.empty()).isTrue();
    assertThat(same.desiredIdentity()).isEqualTo(same.acceptedIdentity());
    assertKind(catchThrowableOfType(InvalidInputException.class, () -> g.planSchema("node {")), 400, "bad_request");
    assertThat(g.commits()).hasSize(before);
    assertThat(g.schema().source()).isEqualTo(SCHEMA);
  }

  /** docs/edge-keys.md: an edge's key cannot be added or removed by a migration (its rows' ids derive from it). */
  @Test
  public void addingOrRemovingAnEdgeKeyIsAnUnsupportedChange() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String keyed = SCHEMA.replace("edge Wrote: Author -> Book\n", "edge Wrote: Author -> Book {\n  @key(src, dst)\n}\n");
    assertThat(keyed).isNotEqualTo(SCHEMA);
    io.omnigraph.api.SchemaPlan add = g.planSchema(keyed);
    assertThat(add.supported()).isFalse();
    assertThat(add.unsupportedChanges()).singleElement().satisfies(st -> assertThat(st.field("entity")).contains("Wrote"));
    Graph k = create(keyed);
    io.omnigraph.api.SchemaPlan remove = k.planSchema(SCHEMA);
    assertThat(remove.supported()).isFalse();
    assertThat(remove.unsupportedChanges()).singleElement().satisfies(st -> assertThat(st.field("entity")).contains("Wrote"));
  }

  @Test
  public void applyingTheAcceptedSchemaChangesNothingAndRefusalsAreTyped() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    int before = g.commits().size();
    io.omnigraph.api.SchemaApplyResult same = g.applySchema(SCHEMA, io.omnigraph.api.SchemaApplyOptions.defaults()
        .withActor(actor()));
    assertThat(same.applied()).isFalse();
    assertThat(same.commitId()).isNull();
    assertThat(same.steps()).isEmpty();
    assertThat(same.schemaIdentity()).isEqualTo(g.schema().identity());
    InvalidInputException unsupported = catchThrowableOfType(InvalidInputException.class, () -> g.applySchema(
        SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String\n"), io.omnigraph.api.SchemaApplyOptions.defaults()));
    assertKind(unsupported, 400, "bad_request");
    assertThat(unsupported.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("unsupported_schema_change"));
    g.createBranch("dev", null);
    ConflictException branches = catchThrowableOfType(ConflictException.class, () -> g.applySchema(
        SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String?\n"), io.omnigraph.api.SchemaApplyOptions.defaults()));
    assertKind(branches, 409, "conflict");
    assertThat(branches.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("schema_apply_branches"));
    assertThat(g.commits()).hasSize(before);
    assertThat(g.schema().source()).isEqualTo(SCHEMA);
  }

  @Test
  public void ensureIndicesBuildsWhatIsMissingOnceAsOneCommit() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    int before = g.commits().size();
    io.omnigraph.api.EnsureIndicesResult first = g.ensureIndices();
    assertThat(first.created()).isPositive();
    assertThat(first.commitId()).isEqualTo(g.commits().get(0).id());
    assertThat(g.commits()).hasSize(before + 1);
    assertThat(first.indexes()).anySatisfy(i -> {
      assertThat(i.table()).isEqualTo("edge:Wrote");
      assertThat(i.column()).isEqualTo("src");
    });
    io.omnigraph.api.EnsureIndicesResult again = g.ensureIndices();
    assertThat(again.created()).isZero();
    assertThat(again.commitId()).isNull();
    assertThat(again.indexes()).allSatisfy(i -> assertThat(i.state()).isNotEqualTo("created"));
    assertThat(g.commits()).hasSize(before + 1);
  }
}
