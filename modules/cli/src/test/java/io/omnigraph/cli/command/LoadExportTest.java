package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load and export against real graphs on local disk. */
class LoadExportTest {

  @TempDir Path tmp;
  Path data;
  String graph;
  String genesis;

  @BeforeEach
  void initGraph() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), KnowsGraph.SCHEMA);
    data = Files.writeString(tmp.resolve("people.ndjson"), KnowsGraph.PEOPLE);
    graph = tmp.resolve("graph").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph, "--json");
    assertThat(init.exitCode()).as(init.err()).isZero();
    genesis = Json.parseObject(init.out().strip()).get("commit").get("graph_commit_id").asText();
  }

  private int commitCount() {
    CliRun list = CliRun.of("commit", "list", graph, "--json");
    assertThat(list.exitCode()).as(list.err()).isZero();
    return Json.parseObject(list.out().strip()).get("commits").size();
  }

  @Test
  void loadPrintsRowsPerTableAndTheNewCommit() {
    CliRun run = CliRun.of("load", "--mode", "overwrite", "--data", data.toString(), graph);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("loaded 4 rows (overwrite)", "node:Person: 3", "edge:Knows: 1", "as commit ");
  }

  @Test
  void loadWithJsonReportsModeRowsAndACommitWhoseParentIsTheHead() {
    CliRun run = CliRun.of("load", "--mode", "append", "--data", data.toString(), "--store", graph,
        "--as", "alice", "-m", "first people", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    ObjectNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("mode").asText()).isEqualTo("append");
    assertThat(o.get("rows_read").asLong()).isEqualTo(4);
    assertThat(o.get("tables").get("node:Person").asLong()).isEqualTo(3);
    JsonNode commit = o.get("commit");
    assertThat(commit.get("parent_commit_id").asText()).isEqualTo(genesis);
    assertThat(commit.get("actor_id").asText()).isEqualTo("alice");
    assertThat(commit.get("message").asText()).isEqualTo("first people");
    assertThat(commitCount()).isEqualTo(2);
  }

  @Test
  void loadWithAStaleExpectedHeadExitsWithConflictAndWritesNothing() {
    CliRun first = CliRun.of("load", "--mode", "append", "--data", data.toString(), graph, "--expect-head", genesis);
    assertThat(first.exitCode()).as(first.err()).isZero();

    CliRun stale = CliRun.of("load", "--mode", "merge", "--data", data.toString(), graph, "--expect-head", genesis,
        "--json");

    assertThat(stale.exitCode()).isEqualTo(ExitCode.CONFLICT);
    assertThat(stale.err() + stale.out()).contains("precondition_failure").contains(genesis);
    assertThat(commitCount()).isEqualTo(2);
  }

  @Test
  void loadReadsStandardInputForDash() {
    CliRun run = CliRun.withStdin(KnowsGraph.PEOPLE.getBytes(StandardCharsets.UTF_8),
        "load", "--mode", "merge", "--data", "-", graph, "--quiet");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("loaded 4 rows (merge)");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void appendOfAnExistingKeyIsAConflictWithExitCodeThreeNamingTheKey() {
    assertThat(CliRun.of("load", "--mode", "append", "--data", data.toString(), graph).exitCode()).isZero();

    CliRun again = CliRun.of("load", "--mode", "append", "--data", data.toString(), graph, "--json");

    assertThat(again.exitCode()).isEqualTo(ExitCode.CONFLICT);
    ObjectNode error = Json.parseObject(again.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("conflict");
    assertThat(error.get("key_conflict").get("type_name").asText()).isEqualTo("Person");
    assertThat(error.toString()).contains("ada");
    assertThat(commitCount()).isEqualTo(2);
  }

  @Test
  void aBadDataLineIsAUserDataErrorNamingTheLineAndNothingIsPublished() throws IOException {
    Path bad = Files.writeString(tmp.resolve("bad.ndjson"), """
        {"type":"Person","data":{"name":"ada"}}
        {"type":"Person","data":{"name":"bob"}}
        {"type":"Person","data":{"name":"cy","shoe_size":44}}
        """);

    CliRun json = CliRun.of("load", "--mode", "append", "--data", bad.toString(), graph, "--json");
    CliRun text = CliRun.of("load", "--mode", "append", "--data", bad.toString(), graph);

    assertThat(json.exitCode()).isEqualTo(ExitCode.DATA);
    ObjectNode error = Json.parseObject(json.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("bad_request");
    assertThat(error.get("validation").get("line").asInt()).isEqualTo(3);
    assertThat(error.get("error").asText()).contains("shoe_size");
    assertThat(text.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(text.err()).startsWith("error: ").contains("shoe_size");
    assertThat(commitCount()).isEqualTo(1);
  }

  @Test
  void exportWritesNdjsonThatLoadsBackIdentically() throws IOException {
    assertThat(CliRun.of("load", "--mode", "overwrite", "--data", data.toString(), graph).exitCode()).isZero();

    CliRun first = CliRun.of("export", graph);
    assertThat(first.exitCode()).as(first.err()).isZero();
    List<String> lines = first.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).contains("\"type\":\"Person\"");
    assertThat(lines.get(3)).contains("\"edge\":\"Knows\"");

    Path exported = Files.writeString(tmp.resolve("export.ndjson"), first.out());
    Path schema = tmp.resolve("people.pg");
    String copy = tmp.resolve("copy").toString();
    assertThat(CliRun.of("init", "--schema", schema.toString(), copy).exitCode()).isZero();
    assertThat(CliRun.of("load", "--mode", "overwrite", "--data", exported.toString(), copy).exitCode()).isZero();
    assertThat(CliRun.of("export", copy).out()).isEqualTo(first.out());
  }

  @Test
  void exportToAFileWithJsonPrintsASummary() throws IOException {
    assertThat(CliRun.of("load", "--mode", "overwrite", "--data", data.toString(), graph).exitCode()).isZero();
    Path out = tmp.resolve("out.ndjson");

    CliRun run = CliRun.of("export", graph, "--out", out.toString(), "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    ObjectNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("lines").asLong()).isEqualTo(4);
    assertThat(o.get("out").asText()).isEqualTo(out.toAbsolutePath().toString());
    assertThat(Files.readAllLines(out)).hasSize(4);
    try (var siblings = Files.list(tmp)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));
    }
  }
}
