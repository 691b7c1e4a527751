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

  void merge(String name) throws IOException {
    Path data = Files.writeString(tmp.resolve(name + ".jsonl"), "{\"type\":\"Person\",\"data\":{\"name\":\"" + name
        + "\"}}\n");
    assertThat(CliRun.of("load", "--mode", "merge", "--data", data.toString(), graph).exitCode()).isZero();
  }

  @Test
  void optimizeCompactsIntoOneCommitThenHasNothingToDo() throws IOException {
    merge("bob");
    merge("cy");
    CliRun first = CliRun.of("optimize", graph, "--json");
    assertThat(first.exitCode()).as(first.err()).isZero();
    ObjectNode o = Json.parseObject(first.out().strip());
    assertThat(o.get("commit_id").isTextual()).isTrue();
    JsonNode person = o.get("tables").get(0);
    assertThat(person.get("table").asText()).isEqualTo("node:Person");
    assertThat(person.get("fragments_after").asInt()).isLessThan(person.get("fragments_before").asInt());
    CliRun again = CliRun.of("optimize", graph);
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("no table needed work: no commit");
  }

  @Test
  void cleanupPreviewsByDefaultAndRemovesOnlyWithConfirm() throws IOException {
    merge("bob");
    merge("cy");
    CliRun.of("optimize", graph);
    // optimize's index build is a version no commit pins: the preview lists it (and its data bytes)
    // and removes nothing.
    CliRun preview = CliRun.of("cleanup", graph, "--json");
    assertThat(preview.exitCode()).as(preview.err()).isZero();
    ObjectNode p = Json.parseObject(preview.out().strip());
    assertThat(p.get("applied").asBoolean()).isFalse();
    assertThat(p.get("versions").asLong()).as(preview.out()).isPositive();
    JsonNode first = p.get("tables").get(0);
    assertThat(first.get("branch").asText()).isEqualTo("main");
    assertThat(first.get("versions").size()).isPositive();
    assertThat(first.has("bytes_removed")).isFalse();
    CliRun again = CliRun.of("cleanup", graph, "--json");
    assertThat(Json.parseObject(again.out().strip()).get("versions").asLong()).isEqualTo(p.get("versions").asLong());
    // Versions younger than the bound stay.
    CliRun text = CliRun.of("cleanup", graph, "--keep", "2", "--older-than", "7d");
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("would remove 0 old table version(s)", "--confirm removes them");
    CliRun bad = CliRun.of("cleanup", graph, "--older-than", "soon");
    assertThat(bad.exitCode()).isEqualTo(io.omnigraph.cli.ExitCode.DATA);
    assertThat(bad.err()).contains("not a duration");
    CliRun zero = CliRun.of("cleanup", graph, "--keep", "0");
    assertThat(zero.exitCode()).isEqualTo(io.omnigraph.cli.ExitCode.DATA);
    CliRun done = CliRun.of("cleanup", graph, "--confirm", "--json");
    assertThat(done.exitCode()).as(done.err()).isZero();
    ObjectNode d = Json.parseObject(done.out().strip());
    assertThat(d.get("applied").asBoolean()).isTrue();
    assertThat(d.get("versions").asLong()).isEqualTo(p.get("versions").asLong());
    assertThat(d.get("tables").get(0).get("bytes_removed").asLong()).isPositive();
    CliRun after = CliRun.of("cleanup", graph);
    assertThat(after.out()).contains("would remove 0 old table version(s)");
    CliRun export = CliRun.of("export", graph);
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(export.out()).contains("\"ada\"", "\"bob\"", "\"cy\"");
  }

  @Test
  void cleanupHasHelp() {
    CliRun help = CliRun.of("cleanup", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--keep", "--older-than", "--confirm", "pins", "Refused");
  }
}
