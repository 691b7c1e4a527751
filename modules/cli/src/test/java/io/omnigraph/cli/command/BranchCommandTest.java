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

/** {@code omnigraph branch create|list|delete} against a real graph on local disk (docs/branches.md). */
class BranchCommandTest {
  @TempDir Path tmp;
  String graph;

  @BeforeEach
  void init() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), SCHEMA);
    graph = tmp.resolve("graph").toString();
    assertThat(CliRun.of("init", "--schema", schema.toString(), graph).exitCode()).isZero();
  }

  @Test
  void createListDeleteWithJson() {
    CliRun created = CliRun.of("branch", "create", "dev", graph, "--json");
    assertThat(created.exitCode()).as(created.err()).isZero();
    ObjectNode c = Json.parseObject(created.out().strip());
    assertThat(c.get("name").asText()).isEqualTo("dev");
    assertThat(c.get("parent").asText()).isEqualTo("main");
    assertThat(c.get("head").asText()).hasSize(26);

    CliRun list = CliRun.of("branch", "list", graph, "--json");
    assertThat(list.exitCode()).as(list.err()).isZero();
    JsonNode branches = Json.parseObject(list.out().strip()).get("branches");
    assertThat(branches).extracting(b -> b.get("name").asText()).containsExactly("main", "dev");
    assertThat(branches.get(0).get("parent").isNull()).isTrue();

    CliRun text = CliRun.of("branch", "list", graph);
    assertThat(text.out()).contains("main\t", "dev\t", "from main");

    CliRun deleted = CliRun.of("branch", "delete", "dev", graph, "--json");
    assertThat(deleted.exitCode()).as(deleted.err()).isZero();
    assertThat(Json.parseObject(deleted.out().strip()).get("deleted").asText()).isEqualTo("dev");
    assertThat(CliRun.of("branch", "list", graph).out()).doesNotContain("dev");
  }

  @Test
  void failuresAreTypedWithTheirExitCodes() {
    CliRun bad = CliRun.of("branch", "create", "a b", graph, "--json");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(Json.parseObject(bad.err().strip()).get("validation").get("rule").asText())
        .isEqualTo("invalid_branch_name");

    assertThat(CliRun.of("branch", "create", "a/b", graph).exitCode()).isZero();
    CliRun overlap = CliRun.of("branch", "create", "a", graph, "--json");
    assertThat(overlap.exitCode()).isEqualTo(ExitCode.CONFLICT);
    assertThat(Json.parseObject(overlap.err().strip()).get("validation").get("rule").asText())
        .isEqualTo("branch_path_overlap");

    CliRun missing = CliRun.of("branch", "delete", "nope", graph, "--json");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(Json.parseObject(missing.err().strip()).get("code").asText()).isEqualTo("not_found");

    CliRun noSub = CliRun.of("branch", graph);
    assertThat(noSub.exitCode()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void exportAndCommitListTakeABranch() {
    assertThat(CliRun.of("branch", "create", "dev", graph).exitCode()).isZero();
    CliRun commits = CliRun.of("commit", "list", "--branch", "dev", graph, "--json");
    assertThat(commits.exitCode()).as(commits.err()).isZero();
    assertThat(Json.parseObject(commits.out().strip()).get("commits")).hasSize(1);
    CliRun export = CliRun.of("export", "--branch", "dev", graph);
    assertThat(export.exitCode()).as(export.err()).isZero();
    CliRun unknown = CliRun.of("export", "--branch", "nope", graph, "--json");
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(CliRun.of("branch", "--help").out()).contains("create", "list", "delete");
  }

  @Test
  void mergeFastForwardsMergesAndReportsConflictsWithExit3() throws IOException {
    assertThat(CliRun.of("branch", "create", "dev", graph).exitCode()).isZero();
    Path rows = Files.writeString(tmp.resolve("dev.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"zoe\"}}\n");
    CliRun load = CliRun.of("load", "--mode", "merge", "--branch", "dev", "--data", rows.toString(), graph);
    assertThat(load.exitCode()).as(load.err()).isZero();
    CliRun ff = CliRun.of("branch", "merge", "dev", graph, "--json");
    assertThat(ff.exitCode()).as(ff.err()).isZero();
    ObjectNode r = Json.parseObject(ff.out().strip());
    assertThat(r.get("outcome").asText()).isEqualTo("fast_forward");
    assertThat(r.get("tables").get("node:Person").get("inserted").asLong()).isEqualTo(1);
    String merge = r.get("commit_id").asText();
    CliRun show = CliRun.of("commit", "show", merge, graph);
    assertThat(show.exitCode()).as(show.err()).isZero();
    assertThat(show.out()).contains("parents").contains(r.get("source_commit_id").asText());
    CliRun showJson = CliRun.of("commit", "show", merge, graph, "--json");
    assertThat(Json.parseObject(showJson.out().strip()).get("merged_parent_commit_id").asText())
        .isEqualTo(r.get("source_commit_id").asText());
    CliRun again = CliRun.of("branch", "merge", "dev", "--into", "main", graph);
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).startsWith("already up to date");

    // a divergent insert on both sides: exit 3, every conflict in the JSON error, nothing written
    Path a = Files.writeString(tmp.resolve("a.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"yan\",\"age\":1}}\n");
    Path b = Files.writeString(tmp.resolve("b.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"yan\",\"age\":2}}\n");
    assertThat(CliRun.of("load", "--mode", "merge", "--branch", "dev", "--data", a.toString(), graph).exitCode()).isZero();
    assertThat(CliRun.of("load", "--mode", "merge", "--data", b.toString(), graph).exitCode()).isZero();
    CliRun conflict = CliRun.of("branch", "merge", "dev", graph, "--json");
    assertThat(conflict.exitCode()).isEqualTo(ExitCode.CONFLICT);
    JsonNode c = Json.parseObject(conflict.err().strip()).get("merge_conflicts");
    assertThat(c).hasSize(1);
    assertThat(c.get(0).get("kind").asText()).isEqualTo("divergent_insert");
    assertThat(c.get(0).get("source").get("data").get("age").asInt()).isEqualTo(1);
    assertThat(c.get(0).get("target").get("data").get("age").asInt()).isEqualTo(2);
    assertThat(c.get(0).get("base").isNull()).isTrue();

    CliRun del = CliRun.of("branch", "merge", "dev", "--delete-branch", graph);
    assertThat(del.exitCode()).isEqualTo(ExitCode.CONFLICT);
    assertThat(CliRun.of("branch", "list", graph).out()).contains("dev");
    assertThat(CliRun.of("branch", "merge", "--help").out()).contains("--into", "--delete-branch", "--json");
  }
}
