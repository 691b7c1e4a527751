package io.omnigraph.cli.command;

import static io.omnigraph.testkit.graph.KnowsGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** init, commit list|show and schema show against real graphs on local disk (real engine, real Lance). */
class GraphCommandsTest {

  @TempDir Path tmp;
  Path schema;
  String graph;

  @BeforeEach
  void writeSchema() throws IOException {
    schema = Files.writeString(tmp.resolve("people.pg"), SCHEMA);
    graph = tmp.resolve("graph").toString();
  }

  @Test
  void initCreatesAGraphAndPrintsItsTablesAndGenesisCommit() {
    CliRun run = CliRun.of("init", "--schema", schema.toString(), graph);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("initialized " + graph, "node:Person", "edge:Knows", "sha256:", "genesis commit ");
    assertThat(Path.of(graph, "_schema.pg")).exists();
  }

  @Test
  void initWithJsonPrintsOneObjectWithTheGenesisCommit() {
    CliRun run = CliRun.of("init", "--schema", schema.toString(), "--store", graph, "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    ObjectNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("uri").asText()).isEqualTo(graph);
    assertThat(o.get("schema_identity").asText()).startsWith("sha256:");
    assertThat(o.get("tables")).extracting(JsonNode::asText).containsExactly("edge:Knows", "node:Person");
    JsonNode commit = o.get("commit");
    assertThat(commit.get("graph_commit_id").asText()).hasSize(26);
    assertThat(commit.get("graph_branch").asText()).isEqualTo("main");
    assertThat(commit.has("parent_commit_id")).isFalse();
  }

  @Test
  void initTwiceIsAConflictWithExitCodeThree() {
    assertThat(CliRun.of("init", "--schema", schema.toString(), graph).exitCode()).isZero();

    CliRun again = CliRun.of("init", "--schema", schema.toString(), graph, "--json");

    assertThat(again.exitCode()).isEqualTo(ExitCode.CONFLICT);
    ObjectNode error = Json.parseObject(again.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("conflict");
    assertThat(error.get("error").asText()).contains(graph);
  }

  @Test
  void aBadSchemaIsAUserDataErrorNamingLineAndColumn() throws IOException {
    Path bad = Files.writeString(tmp.resolve("bad.pg"), "node Person {\n  name: Strin\n}\n");

    CliRun text = CliRun.of("init", "--schema", bad.toString(), graph);
    CliRun json = CliRun.of("init", "--schema", bad.toString(), graph, "--json");

    assertThat(text.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(text.err()).startsWith("error: ").contains("line 2:");
    assertThat(json.exitCode()).isEqualTo(ExitCode.DATA);
    ObjectNode error = Json.parseObject(json.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("bad_request");
    assertThat(error.get("validation").get("line").asInt()).isEqualTo(2);
    assertThat(error.get("validation").has("column")).isTrue();
    assertThat(Path.of(graph, "__manifest")).doesNotExist();
  }

  @Test
  void openingARootWithoutAGraphIsAUserDataError() {
    CliRun run = CliRun.of("commit", "list", tmp.resolve("nothing-here").toString(), "--json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(Json.parseObject(run.err().strip()).get("code").asText()).isEqualTo("not_found");
  }

  @Test
  void commitListAndShowDescribeTheGenesisCommit() {
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph, "--json");
    String genesis = Json.parseObject(init.out().strip()).get("commit").get("graph_commit_id").asText();

    CliRun list = CliRun.of("commit", "list", graph);
    CliRun listJson = CliRun.of("commit", "list", "--uri", graph, "--json");
    CliRun show = CliRun.of("commit", "show", genesis, graph);
    CliRun showJson = CliRun.of("commit", "show", genesis, "--store", graph, "--json");

    assertThat(list.exitCode()).isZero();
    assertThat(list.out()).startsWith(genesis).contains("(genesis)");
    JsonNode commits = Json.parseObject(listJson.out().strip()).get("commits");
    assertThat(commits).hasSize(1);
    assertThat(commits.get(0).get("graph_commit_id").asText()).isEqualTo(genesis);
    assertThat(show.exitCode()).isZero();
    assertThat(show.out()).contains("commit   " + genesis, "(genesis)", "node:Person @ v");
    ObjectNode shown = Json.parseObject(showJson.out().strip());
    assertThat(shown.get("graph_commit_id").asText()).isEqualTo(genesis);
    assertThat(shown.get("table_versions").has("node:Person")).isTrue();
  }

  @Test
  void commitShowOfAnUnknownIdIsNotFound() {
    CliRun.of("init", "--schema", schema.toString(), graph);

    CliRun run = CliRun.of("commit", "show", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", graph, "--json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("not_found");
    assertThat(error.get("error").asText()).contains("01ZZZZZZZZZZZZZZZZZZZZZZZZ");
  }

  @Test
  void schemaShowPrintsTheAcceptedSourceAndWithJsonTheIr() {
    CliRun.of("init", "--schema", schema.toString(), graph);

    CliRun text = CliRun.of("schema", "show", graph);
    CliRun alias = CliRun.of("schema", "get", graph);
    CliRun json = CliRun.of("schema", "show", graph, "--json");

    assertThat(text.exitCode()).isZero();
    assertThat(text.out()).isEqualTo(SCHEMA);
    assertThat(alias.out()).isEqualTo(SCHEMA);
    ObjectNode o = Json.parseObject(json.out().strip());
    assertThat(o.get("source").asText()).isEqualTo(SCHEMA);
    assertThat(o.get("schema_identity").asText()).startsWith("sha256:");
    assertThat(o.get("ir").isObject()).isTrue();
  }
}
