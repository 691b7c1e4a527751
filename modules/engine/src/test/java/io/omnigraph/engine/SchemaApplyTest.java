package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.SchemaApplyOptions;
import io.omnigraph.api.SchemaApplyResult;
import io.omnigraph.api.SchemaPlanStep;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graph.applySchema on real Lance tables: every supported step keeps existing data (docs/schema-migration.md). */
class SchemaApplyTest {
  static final String SCHEMA = """
      node Person {
        slug: String @key
        age: I32?
        mood: enum(happy, sad)?
      }
      node Place {
        code: String @key
      }
      edge Visited: Person -> Place {
        year: I32?
      }
      """;
  static final String DATA = """
      {"type":"Person","data":{"slug":"ann","age":31,"mood":"happy"}}
      {"type":"Person","data":{"slug":"bob","mood":"sad"}}
      {"type":"Place","data":{"code":"ber"}}
      {"edge":"Visited","from":"ann","to":"ber","data":{"year":2020}}
      """;

  @TempDir Path dir;
  Graph graph;
  String uri;

  @BeforeEach
  void init() {
    uri = dir.resolve("g").toString();
    graph = Omnigraph.init(uri, SCHEMA);
    load(graph, LoadMode.MERGE, DATA);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  SchemaApplyResult apply(String pg) {
    return graph.applySchema(pg, SchemaApplyOptions.defaults());
  }

  static String withoutEdgeIds(String export) {
    return export.replaceAll("\"id\":\"[0-9A-Z]{26}\",?", "");
  }

  String exportCommit(Graph g, String commit) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.exportCommit(out, commit);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void applyingTheAcceptedSchemaChangesNothing() {
    int commits = graph.commits().size();
    SchemaApplyResult r = apply(SCHEMA);
    assertThat(r.applied()).isFalse();
    assertThat(r.commitId()).isNull();
    assertThat(graph.commits()).hasSize(commits);
  }

  @Test
  void addNullablePropertyKeepsRowsAndTheNewPropertyIsWritable() {
    String before = export(graph);
    String pg = SCHEMA.replace("age: I32?", "age: I32?\n  nick: String?");
    SchemaApplyResult r = apply(pg);
    assertThat(r.applied()).isTrue();
    assertThat(r.steps()).extracting(SchemaPlanStep::kind).containsExactly("add_property");
    assertThat(graph.commits().get(0).id()).isEqualTo(r.commitId());
    assertThat(export(graph)).isEqualTo(before);
    assertThat(graph.schema().source()).isEqualTo(pg);
    graph.mutate("query nick($s: String, $n: String) { update Person set { nick: $n } where slug = $s }", "nick",
        QueryParams.of(Map.of("s", "ann", "n", "annie")), MutationOptions.defaults());
    assertThat(export(graph)).contains("\"nick\":\"annie\"");
    // A new handle sees the new schema and the same rows.
    String now = export(graph);
    graph.close();
    graph = Omnigraph.open(uri);
    assertThat(graph.schema().source()).isEqualTo(pg);
    assertThat(export(graph)).isEqualTo(now);
  }

  @Test
  void renamePropertyKeepsItsValues() {
    String before = export(graph);
    apply(SCHEMA.replace("age: I32?", "years: I32? @rename_from(\"age\")"));
    assertThat(export(graph)).isEqualTo(before.replace("\"age\":", "\"years\":"));
  }

  @Test
  void renameTypeKeepsItsRowsAndTable() {
    String before = export(graph);
    String pg = SCHEMA.replace("node Place {", "node Location @rename_from(\"Place\") {")
        .replace("Person -> Place", "Person -> Location");
    SchemaApplyResult r = apply(pg);
    assertThat(r.steps()).extracting(SchemaPlanStep::kind).containsExactly("rename_type");
    assertThat(graph.schema().tableKeys()).contains("node:Location").doesNotContain("node:Place");
    assertThat(export(graph)).isEqualTo(before.replace("\"type\":\"Place\"", "\"type\":\"Location\""));
    load(graph, LoadMode.MERGE, "{\"type\":\"Location\",\"data\":{\"code\":\"par\"}}\n");
    assertThat(export(graph)).contains("\"code\":\"par\"");
  }

  @Test
  void addTypeCreatesAnEmptyTableThatTakesRows() {
    String before = export(graph);
    apply(SCHEMA + "node Thing {\n  label: String @key\n}\nedge Owns: Person -> Thing\n");
    assertThat(graph.schema().tableKeys()).contains("node:Thing", "edge:Owns");
    assertThat(export(graph)).isEqualTo(before);
    load(graph, LoadMode.MERGE, "{\"type\":\"Thing\",\"data\":{\"label\":\"pen\"}}\n"
        + "{\"edge\":\"Owns\",\"from\":\"ann\",\"to\":\"pen\"}\n");
    assertThat(export(graph)).contains("\"label\":\"pen\"").contains("\"edge\":\"Owns\"");
  }

  @Test
  void indexEnumAndMetadataStepsAreMetadataOnly() {
    String before = export(graph);
    String pg = SCHEMA.replace("age: I32?", "age: I32? @index @description(\"years\")")
        .replace("enum(happy, sad)", "enum(happy, sad, calm)").replace("node Place {", "node Place @description(\"x\") {");
    SchemaApplyResult r = apply(pg);
    assertThat(r.steps()).extracting(SchemaPlanStep::kind).containsExactlyInAnyOrder("add_constraint", "extend_enum",
        "update_type_metadata", "update_property_metadata");
    assertThat(export(graph)).isEqualTo(before);
    load(graph, LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"slug\":\"cid\",\"mood\":\"calm\"}}\n");
    assertThat(export(graph)).contains("\"mood\":\"calm\"");
  }

  @Test
  void softDropsKeepHistoryReadable() {
    String genesisData = graph.commits().get(0).id();
    String before = export(graph);
    String pg = SCHEMA.replace("  mood: enum(happy, sad)?\n", "").replace("edge Visited: Person -> Place {\n"
        + "  year: I32?\n}\n", "");
    SchemaApplyResult r = apply(pg);
    assertThat(r.steps()).extracting(s -> s.kind() + ":" + s.field("mode"))
        .containsExactly("drop_property:soft", "drop_type:soft");
    assertThat(graph.schema().tableKeys()).doesNotContain("edge:Visited");
    assertThat(export(graph)).doesNotContain("mood").doesNotContain("Visited").contains("\"slug\":\"ann\"");
    // The commit before the apply still reads with its own schema.
    assertThat(exportCommit(graph, genesisData)).isEqualTo(before);
    graph.close();
    graph = Omnigraph.open(uri);
    assertThat(exportCommit(graph, genesisData)).isEqualTo(before);
  }

  @Test
  void hardDropsNeedAllowDataLossAndRemoveHistory() {
    String last = graph.commits().get(0).id();
    String pg = SCHEMA.replace("edge Visited: Person -> Place {\n  year: I32?\n}\n", "");
    SchemaApplyResult r = graph.applySchema(pg, SchemaApplyOptions.defaults().withAllowDataLoss(true));
    assertThat(r.steps()).extracting(s -> s.field("mode")).containsExactly("hard");
    assertThatThrownBy(() -> exportCommit(graph, last)).isInstanceOf(io.omnigraph.api.OmnigraphException.class);
  }

  @Test
  void refusesWhileOtherBranchesExist() {
    graph.createBranch("feature", null);
    String pg = SCHEMA.replace("age: I32?", "age: I32?\n  nick: String?");
    assertThatThrownBy(() -> apply(pg)).isInstanceOf(ConflictException.class)
        .hasMessageContaining("found non-main branches: feature")
        .satisfies(e -> assertThat(((ConflictException) e).detail()).contains(
            new ErrorDetail.Validation(null, null, "branches", "schema_apply_branches")));
    graph.deleteBranch("feature");
    assertThat(apply(pg).applied()).isTrue();
  }

  @Test
  void refusesAnUnsupportedPlanAndWritesNothing() {
    int commits = graph.commits().size();
    assertThatThrownBy(() -> apply(SCHEMA.replace("age: I32?", "age: I64?"))).isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("[OG-MF-106]");
    assertThat(graph.commits()).hasSize(commits);
    assertThat(graph.schema().source()).isEqualTo(SCHEMA);
  }

  /**
   * docs/edge-keys.md: an edge's id is derived from its key, so adding or removing {@code @key} on a
   * populated edge type would leave every existing edge under an id the new rule does not give it
   * (and adding one was never checked against the rows). Both are refused with their code, and
   * nothing is written.
   */
  @Test
  void addingOrRemovingAnEdgeKeyOnAPopulatedEdgeTypeIsRefused() {
    String before = export(graph);
    int commits = graph.commits().size();
    String keyed = SCHEMA.replace("  year: I32?\n}", "  year: I32?\n  @key(src, dst)\n}");
    assertThat(keyed).isNotEqualTo(SCHEMA);
    assertThatThrownBy(() -> apply(keyed)).isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("[OG-MF-108]").hasMessageContaining("@key(src, dst)");
    assertThat(graph.commits()).hasSize(commits);
    assertThat(export(graph)).isEqualTo(before);
    assertThat(graph.schema().source()).isEqualTo(SCHEMA);
  }

  @Test
  void removingAnEdgeKeyIsRefused() {
    String keyedSchema = SCHEMA.replace("  year: I32?\n}", "  year: I32?\n  @key(src, dst)\n}");
    graph.close();
    graph = Omnigraph.init(dir.resolve("keyed").toString(), keyedSchema);
    load(graph, LoadMode.MERGE, DATA);
    String before = export(graph);
    assertThatThrownBy(() -> apply(SCHEMA)).isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("[OG-MF-107]").hasMessageContaining("@key(src, dst)");
    assertThat(export(graph)).isEqualTo(before);
    assertThat(graph.schema().source()).isEqualTo(keyedSchema);
  }

  @Test
  void aHandleOpenedBeforeAnApplyRecompilesAgainstTheNewSchema() {
    try (Graph other = Omnigraph.open(uri)) {
      io.omnigraph.api.PreparedMutation prepared = other.prepareMutation(
          "query a($s: String) { insert Person { slug: $s, age: 3 } }", "a");
      apply(SCHEMA.replace("age: I32?", "years: I32? @rename_from(\"age\")"));
      // A prepared mutation of the old schema is refused, never run against the rewritten table.
      assertThatThrownBy(() -> other.mutate(prepared, QueryParams.of(Map.of("s", "zed")), MutationOptions.defaults()))
          .isInstanceOf(ConflictException.class).satisfies(e -> assertThat(((ConflictException) e).detail().get())
              .isInstanceOf(ErrorDetail.ReadSetConflict.class));
      // Text is compiled again against the accepted schema: the old name is unknown, the new one works.
      assertThatThrownBy(() -> other.mutate("query a($s: String) { insert Person { slug: $s, age: 3 } }", "a",
          QueryParams.of(Map.of("s", "zed")), MutationOptions.defaults())).isInstanceOf(InvalidInputException.class);
      other.mutate("query a($s: String) { insert Person { slug: $s, years: 3 } }", "a",
          QueryParams.of(Map.of("s", "amy")), MutationOptions.defaults());
      assertThat(other.schema().source()).contains("years");
    }
    assertThat(export(graph)).doesNotContain("zed").contains("\"slug\":\"amy\",\"years\":3");
  }
}
