package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** repair and cleanup against real graphs on local disk. */
class RepairCleanupTest {
  static final String SIDECAR = "01JZ8Q3V7K2M4N6P8R0T2W4Y6A";

  @TempDir Path tmp;
  String graph;

  @BeforeEach
  void init() throws IOException {
    Path schema = Files.writeString(tmp.resolve("s.pg"), KnowsGraph.SCHEMA);
    graph = tmp.resolve("graph").toString();
    assertThat(CliRun.of("init", "--schema", schema.toString(), graph).exitCode()).isZero();
    Path data = Files.writeString(tmp.resolve("d.jsonl"), "{\"type\":\"Person\",\"data\":{\"name\":\"ada\"}}\n");
    assertThat(CliRun.of("load", "--mode", "merge", "--data", data.toString(), graph).exitCode()).isZero();
  }

  Path corruptSidecar() throws IOException {
    Path dir = Files.createDirectories(Path.of(graph, "__recovery"));
    return Files.writeString(dir.resolve(SIDECAR + ".json"), "{\"schema_version\": 9,");
  }

  @Test
  void repairOfACleanGraphSaysThereIsNothingToRepair() {
    CliRun run = CliRun.of("repair", graph);
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("no interrupted writes");
    CliRun json = CliRun.of("repair", graph, "--dry-run", "--json");
    assertThat(json.exitCode()).as(json.err()).isZero();
    ObjectNode o = Json.parseObject(json.out().strip());
    assertThat(o.get("dry_run").asBoolean()).isTrue();
    assertThat(o.get("sidecars")).isEmpty();
  }

  @Test
  void recoveriesOfAGraphThatNeverCrashedIsEmpty() {
    CliRun text = CliRun.of("recoveries", graph);
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("no recoveries recorded");
    CliRun json = CliRun.of("recoveries", graph, "--json");
    assertThat(Json.parseObject(json.out().strip()).get("recoveries")).isEmpty();
  }

  @Test
  void repairRefusesACorruptSidecarNamesItAndKeepsIt() throws IOException {
    Path bad = corruptSidecar();
    CliRun run = CliRun.of("repair", graph, "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONFLICT);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("error").asText()).contains("__recovery/" + SIDECAR + ".json", "not valid JSON");
    assertThat(error.get("recovery_required").get("operation_id").asText()).isEqualTo(SIDECAR);
    assertThat(bad).exists();
  }

  @Test
  void cleanupIsRefusedWhileASidecarIsPendingAndRunsOnceItIsGone() throws IOException {
    Path bad = corruptSidecar();
    CliRun refused = CliRun.of("cleanup", graph);
    assertThat(refused.exitCode()).isEqualTo(ExitCode.CONFLICT);
    assertThat(refused.err()).contains("pending", "omnigraph repair");
    Files.delete(bad);
    CliRun run = CliRun.of("cleanup", graph, "--json", "--confirm");
    assertThat(run.exitCode()).as(run.err()).isZero();
    ObjectNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("applied").asBoolean()).isTrue();
    assertThat(o.get("tables").isArray()).isTrue();
  }
}
