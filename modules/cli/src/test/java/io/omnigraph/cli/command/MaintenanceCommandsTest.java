package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ensure-indices (and the other schema and maintenance commands) against real graphs on local disk. */
class MaintenanceCommandsTest {
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

  @Test
  void ensureIndicesBuildsOnceThenFindsEverythingPresent() {
    CliRun first = CliRun.of("ensure-indices", graph, "--json");
    assertThat(first.exitCode()).as(first.err()).isZero();
    ObjectNode o = Json.parseObject(first.out().strip());
    assertThat(o.get("commit_id").isTextual()).isTrue();
    assertThat(o.get("created").asLong()).isPositive();
    List<String> created = new ArrayList<>();
    for (JsonNode i : o.get("indexes")) {
      if (i.get("state").asText().equals("created")) {
        created.add(i.get("table").asText() + "." + i.get("name").asText());
      }
    }
    assertThat(created).contains("node:Person.id_idx");
    CliRun again = CliRun.of("ensure-indices", graph);
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("present", "node:Person.id", "nothing to build: no commit");
  }

  @Test
  void ensureIndicesHasHelp() {
    CliRun help = CliRun.of("ensure-indices", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("existing indexes are never rebuilt");
  }
}
