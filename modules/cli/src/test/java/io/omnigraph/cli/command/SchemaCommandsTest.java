package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** schema plan / schema apply against a real graph on local disk. */
class SchemaCommandsTest {
  @TempDir Path tmp;
  String graph;

  @BeforeEach
  void init() throws IOException {
    Path schema = Files.writeString(tmp.resolve("s.pg"), KnowsGraph.SCHEMA);
    graph = tmp.resolve("graph").toString();
    assertThat(CliRun.of("init", "--schema", schema.toString(), graph).exitCode()).isZero();
    Path data = Files.writeString(tmp.resolve("d.jsonl"), "{\"type\":\"Person\",\"data\":{\"name\":\"ada\",\"age\":3}}\n");
    assertThat(CliRun.of("load", "--mode", "merge", "--data", data.toString(), graph).exitCode()).isZero();
  }

  @Test
  void planThenApplyARenameKeepsTheValues() throws IOException {
    Path next = Files.writeString(tmp.resolve("n.pg"), KnowsGraph.SCHEMA.replace("age: I32?",
        "years: I32? @rename_from(\"age\")\n  nick: String?"));
    CliRun plan = CliRun.of("schema", "plan", graph, next.toString(), "--json");
    assertThat(plan.exitCode()).as(plan.err()).isZero();
    ObjectNode p = Json.parseObject(plan.out().strip());
    assertThat(p.get("supported").asBoolean()).isTrue();
    assertThat(p.get("steps").get(0).get("kind").asText()).isEqualTo("add_property");
    assertThat(p.get("steps").get(1).get("kind").asText()).isEqualTo("rename_property");
    CliRun apply = CliRun.of("schema", "apply", graph, next.toString(), "--json");
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    ObjectNode a = Json.parseObject(apply.out().strip());
    assertThat(a.get("applied").asBoolean()).isTrue();
    assertThat(a.get("step_count").asInt()).isEqualTo(2);
    assertThat(a.get("commit_id").isTextual()).isTrue();
    CliRun export = CliRun.of("export", graph);
    assertThat(export.out()).contains("\"years\":3").doesNotContain("\"age\"");
    CliRun again = CliRun.of("schema", "apply", graph, next.toString());
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).contains("no changes");
  }

  @Test
  void anUnsupportedChangeIsPlannedWithItsCodeAndRefusedByApply() throws IOException {
    Path bad = Files.writeString(tmp.resolve("b.pg"), KnowsGraph.SCHEMA.replace("age: I32?", "age: I64?"));
    CliRun plan = CliRun.of("schema", "plan", graph, bad.toString());
    assertThat(plan.exitCode()).isEqualTo(2);
    assertThat(plan.out()).contains("UNSUPPORTED unsupported_change", "code=OG-MF-106");
    CliRun apply = CliRun.of("schema", "apply", graph, bad.toString(), "--json");
    assertThat(apply.exitCode()).isEqualTo(2);
    assertThat(apply.err()).contains("[OG-MF-106]", "unsupported_schema_change");
  }

  @Test
  void applyIsRefusedWhileABranchExists() throws IOException {
    assertThat(CliRun.of("branch", "create", "feature", graph).exitCode()).isZero();
    Path next = Files.writeString(tmp.resolve("n.pg"), KnowsGraph.SCHEMA + "node Pet {\n  tag: String @key\n}\n");
    CliRun apply = CliRun.of("schema", "apply", graph, next.toString());
    assertThat(apply.exitCode()).isEqualTo(3);
    assertThat(apply.err()).contains("found non-main branches: feature");
  }

  @Test
  void planAndApplyHaveHelp() {
    CliRun help = CliRun.of("schema", "apply", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--allow-data-loss", "<file.pg>");
    assertThat(CliRun.of("schema", "plan", "--help").out()).contains("unsupported_change");
  }
}
