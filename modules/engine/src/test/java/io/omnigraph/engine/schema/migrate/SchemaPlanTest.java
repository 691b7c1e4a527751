package io.omnigraph.engine.schema.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.SchemaPlan;
import io.omnigraph.api.SchemaPlanStep;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.Ulid;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every plan step and every unsupported change of docs/schema-migration.md, planned without I/O. */
class SchemaPlanTest {
  static final String BASE = """
      interface Named {
        name: String
      }
      node Person implements Named @description("a person") {
        slug: String @key
        age: I32?
        mood: enum(happy, sad)?
        score: F64?
        @range(score, 0..10)
      }
      node Place {
        code: String @key
      }
      edge Visited: Person -> Place @card(0..5) {
        year: I32?
      }
      """;

  static CompiledSchema accepted() throws Exception {
    return SchemaCompiler.compileForInit(BASE, Ulid.generate());
  }

  static SchemaPlanner.Planned planned(String desired, boolean hard) throws Exception {
    return SchemaMigration.plan(accepted(), desired, hard);
  }

  static SchemaPlan plan(String desired) throws Exception {
    return planned(desired, false).plan();
  }

  static String edit(String from, String to) {
    if (!BASE.contains(from)) {
      throw new IllegalArgumentException(from);
    }
    return BASE.replace(from, to);
  }

  static SchemaPlanStep only(SchemaPlan p) {
    assertThat(p.steps()).hasSize(1);
    return p.steps().get(0);
  }

  static void unsupported(String desired, String code, String reasonPart) throws Exception {
    SchemaPlan p = plan(desired);
    assertThat(p.supported()).isFalse();
    assertThat(p.unsupportedChanges()).anySatisfy(s -> {
      assertThat(s.field("code")).isEqualTo(code);
      assertThat(s.field("reason")).contains(reasonPart);
      assertThat(s.field("entity")).isNotBlank();
    });
  }

  @Test
  void theSameSchemaPlansNothing() throws Exception {
    SchemaPlan p = plan(BASE);
    assertThat(p.supported()).isTrue();
    assertThat(p.steps()).isEmpty();
    assertThat(p.desiredIdentity()).isEqualTo(p.acceptedIdentity());
    assertThat(planned(BASE, false).tables()).isEmpty();
  }

  @Test
  void addTypeCreatesItsTable() throws Exception {
    SchemaPlanner.Planned pl = planned(BASE + "node Thing { label: String? }\nedge Likes: Person -> Thing\n", false);
    assertThat(pl.plan().steps()).extracting(SchemaPlanStep::kind, s -> s.field("name"))
        .containsExactly(org.assertj.core.groups.Tuple.tuple("add_type", "Thing"),
            org.assertj.core.groups.Tuple.tuple("add_type", "Likes"));
    assertThat(pl.tables()).extracting(t -> t.action() + " " + t.after().tableKey())
        .containsExactly("CREATE node:Thing", "CREATE edge:Likes");
    assertThat(plan(BASE + "interface Aged { born: I32? }\n").steps().get(0).fields())
        .containsExactly(Map.entry("type_kind", "interface"), Map.entry("name", "Aged"));
  }

  @Test
  void renameTypeKeepsItsTableAndIsMetadataOnly() throws Exception {
    String desired = edit("node Place {", "node Location @rename_from(\"Place\") {")
        .replace("Person -> Place", "Person -> Location");
    SchemaPlanner.Planned pl = planned(desired, false);
    SchemaPlanStep s = only(pl.plan());
    assertThat(s.kind()).isEqualTo("rename_type");
    assertThat(s.fields()).containsEntry("from", "Place").containsEntry("to", "Location");
    assertThat(pl.tables()).extracting(t -> t.action() + " " + t.before().tableKey() + ">" + t.after().tableKey())
        .containsExactly("RENAME node:Place>node:Location");
    assertThat(pl.tables().get(0).after().path()).isEqualTo(pl.tables().get(0).before().path());
  }

  @Test
  void renamePropertyRewritesTheTable() throws Exception {
    SchemaPlanner.Planned pl = planned(edit("age: I32?", "years: I32? @rename_from(\"age\")"), false);
    SchemaPlanStep s = only(pl.plan());
    assertThat(s.kind()).isEqualTo("rename_property");
    assertThat(s.fields()).containsEntry("type_name", "Person").containsEntry("from", "age").containsEntry("to", "years");
    assertThat(pl.tables()).extracting(t -> t.action() + " " + t.after().tableKey()).containsExactly("REWRITE node:Person");
  }

  @Test
  void addNullablePropertyIsSupportedARequiredOneIsNot() throws Exception {
    SchemaPlanStep s = only(plan(edit("age: I32?", "age: I32?\n  nick: String?")));
    assertThat(s.kind()).isEqualTo("add_property");
    assertThat(s.fields()).containsEntry("property_name", "nick").containsEntry("property_type", "String?");
    unsupported(edit("age: I32?", "age: I32?\n  nick: String"), SchemaPlanner.REQUIRED_PROPERTY_ADDED, "required");
  }

  @Test
  void addIndexIsSupportedOtherConstraintsAreNot() throws Exception {
    SchemaPlanner.Planned pl = planned(edit("age: I32?", "age: I32? @index"), false);
    SchemaPlanStep s = only(pl.plan());
    assertThat(s.kind()).isEqualTo("add_constraint");
    assertThat(s.field("constraint")).isEqualTo("@index(age)");
    assertThat(pl.tables()).isEmpty();
    unsupported(edit("age: I32?", "age: I32? @unique"), SchemaPlanner.CONSTRAINT_ADDED, "@unique(age)");
    unsupported(edit("age: I32?", "age: I32?\n  @range(age, 0..200)"), SchemaPlanner.CONSTRAINT_ADDED, "@range");
    unsupported(edit("  @range(score, 0..10)\n", ""), SchemaPlanner.CONSTRAINT_REMOVED, "removing @range");
  }

  @Test
  void widenEnumIsMetadataOnlyNarrowingIsNot() throws Exception {
    SchemaPlanner.Planned pl = planned(edit("enum(happy, sad)", "enum(happy, sad, calm)"), false);
    SchemaPlanStep s = only(pl.plan());
    assertThat(s.kind()).isEqualTo("extend_enum");
    assertThat(s.fields().get("added_values")).isEqualTo(List.of("calm"));
    assertThat(pl.tables()).isEmpty();
    unsupported(edit("enum(happy, sad)", "enum(happy)"), SchemaPlanner.PROPERTY_TYPE_CHANGED, "enum(happy, sad)?");
    unsupported(edit("mood: enum(happy, sad)?", "mood: String?"), SchemaPlanner.PROPERTY_TYPE_CHANGED, "String?");
    unsupported(edit("age: I32?", "age: I64?"), SchemaPlanner.PROPERTY_TYPE_CHANGED, "I32? to I64?");
    unsupported(edit("age: I32?", "age: I32"), SchemaPlanner.NULLABILITY_CHANGED, "nullability");
  }

  @Test
  void descriptionAndInstructionAreMetadata() throws Exception {
    SchemaPlan p = plan(edit("@description(\"a person\")", "@description(\"someone\") @instruction(\"be nice\")")
        .replace("age: I32?", "age: I32? @description(\"years\")"));
    assertThat(p.supported()).isTrue();
    assertThat(p.steps()).extracting(SchemaPlanStep::kind)
        .containsExactly("update_type_metadata", "update_property_metadata");
    assertThat(p.steps().get(0).fields().get("annotations")).isEqualTo(List.of("@description", "@instruction"));
    assertThat(p.steps().get(1).fields()).containsEntry("property_name", "age");
    assertThat(planned(edit("@description(\"a person\")", ""), false).tables()).isEmpty();
    unsupported(edit("@description(\"a person\")", "@color(\"red\")"), SchemaPlanner.ANNOTATION_CHANGED, "@color");
  }

  @Test
  void dropsAreSoftUnlessDataLossIsAllowed() throws Exception {
    String desired = edit("  score: F64?\n  @range(score, 0..10)\n", "").replace("edge Visited: Person -> Place @card(0..5) {\n"
        + "  year: I32?\n}\n", "");
    SchemaPlanner.Planned soft = planned(desired, false);
    assertThat(soft.plan().supported()).isTrue();
    assertThat(soft.plan().steps()).extracting(SchemaPlanStep::kind, s -> s.field("mode"))
        .containsExactly(org.assertj.core.groups.Tuple.tuple("drop_property", "soft"),
            org.assertj.core.groups.Tuple.tuple("drop_type", "soft"));
    assertThat(soft.tables()).extracting(t -> t.action() + " " + t.before().tableKey())
        .containsExactly("REWRITE node:Person", "DROP edge:Visited");
    assertThat(planned(desired, true).plan().steps()).extracting(s -> s.field("mode")).containsOnly("hard");
  }

  @Test
  void everyOtherUnsupportedChangeHasAReasonAndCode() throws Exception {
    // Interfaces take no annotations, so a renamed interface is a removed one plus a new one.
    unsupported(edit("interface Named {", "interface Titled {").replace("implements Named", "implements Titled"),
        SchemaPlanner.INTERFACE_REMOVED, "removing an interface");
    unsupported(edit("interface Named {\n  name: String\n}\n", "").replace("implements Named", "")
        .replace("slug: String @key", "slug: String @key\n  name: String"), SchemaPlanner.INTERFACE_REMOVED,
        "removing an interface");
    unsupported(edit("node Person implements Named", "interface Other { x: I32? }\nnode Person implements Named, Other"),
        SchemaPlanner.IMPLEMENTS_CHANGED, "implements");
    unsupported(edit("Person -> Place", "Place -> Person"), SchemaPlanner.EDGE_SHAPE_CHANGED, "endpoints");
    unsupported(edit("@card(0..5)", "@card(0..6)"), SchemaPlanner.EDGE_SHAPE_CHANGED, "cardinality");
  }

  @Test
  void embedAndProvenanceChangesAreUnsupported() throws Exception {
    String withEmbed = "node Doc {\n  text: String\n  other: String\n  v: Vector(2)? @embed(\"text\")\n}\n";
    CompiledSchema a = SchemaCompiler.compileForInit(withEmbed, Ulid.generate());
    SchemaPlan p = SchemaMigration.plan(a, withEmbed.replace("@embed(\"text\")", "@embed(\"other\")"), false).plan();
    assertThat(p.unsupportedChanges()).singleElement().satisfies(s ->
        assertThat(s.field("code")).isEqualTo(SchemaPlanner.EMBED_CHANGED));
    // name injected by the interface, then declared directly.
    SchemaPlan q = plan(edit("slug: String @key", "slug: String @key\n  name: String"));
    assertThat(q.unsupportedChanges()).anySatisfy(s -> assertThat(s.field("code")).isEqualTo(
        SchemaPlanner.PROVENANCE_CHANGED));
  }

  @Test
  void aTypeWithABlobIsNotRewritten() throws Exception {
    String pg = "node Doc {\n  slug: String @key\n  body: Blob?\n}\n";
    CompiledSchema a = SchemaCompiler.compileForInit(pg, Ulid.generate());
    SchemaPlan p = SchemaMigration.plan(a, pg.replace("body: Blob?", "body: Blob?\n  note: String?"), false).plan();
    assertThat(p.unsupportedChanges()).singleElement().satisfies(s ->
        assertThat(s.field("code")).isEqualTo(SchemaPlanner.BLOB_REWRITE));
    // Metadata-only changes of such a type stay supported.
    assertThat(SchemaMigration.plan(a, pg.replace("node Doc {", "node Doc @description(\"d\") {"), false).plan()
        .supported()).isTrue();
  }

  @Test
  void applyRefusesAnUnsupportedPlanWithTheCodeAndRule() throws Exception {
    SchemaPlan p = plan(edit("age: I32?", "age: I64?"));
    assertThatThrownBy(() -> SchemaMigration.requireSupported(p)).isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("[" + SchemaPlanner.PROPERTY_TYPE_CHANGED + "] ")
        .satisfies(e -> assertThat(((InvalidInputException) e).detail()).contains(
            new ErrorDetail.Validation(null, null, "node Person.age", SchemaMigration.UNSUPPORTED_RULE)));
  }

  @Test
  void aRenameHintNamingNothingIsAnIdentityError() {
    assertThatThrownBy(() -> plan(edit("age: I32?", "years: I32? @rename_from(\"agee\")")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("agee")
        .satisfies(e -> assertThat(((InvalidInputException) e).detail()).get().isInstanceOf(ErrorDetail.Validation.class));
  }
}
