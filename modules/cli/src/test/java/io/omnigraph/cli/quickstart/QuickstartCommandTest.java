package io.omnigraph.cli.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart builds the demo graph for real and can be run again in the same place. */
class QuickstartCommandTest {

  @TempDir Path tmp;

  @Test
  void quickstartRunsEveryStepAndLeavesAGraphTheOtherCommandsCanRead() {
    String dir = tmp.resolve("qs").toString();

    CliRun run = CliRun.of("quickstart", dir);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("[init]", "[load] loaded " + QuickstartData.TOTAL_ROWS + " rows (overwrite)",
        "[merge] merged " + QuickstartData.MERGE_ROWS + " rows", "[export] exported ", "[commits] 3 commits",
        "(genesis)", "Next, try:");
    CliRun export = CliRun.of("export", dir);
    // The merge re-rates five books and adds one reader and one edge.
    assertThat(export.out().lines()).hasSize(QuickstartData.TOTAL_ROWS + 2);
    assertThat(CliRun.of("schema", "show", dir).out()).isEqualTo(QuickstartData.SCHEMA);
  }

  @Test
  void quickstartWithJsonPrintsStepsAndCommits() {
    CliRun run = CliRun.of("quickstart", tmp.resolve("qs").toString(), "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    ObjectNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("steps")).extracting(s -> s.get("step").asText())
        .containsExactly("init", "load", "merge", "export", "commits");
    assertThat(o.get("exported_lines").asInt()).isEqualTo(QuickstartData.TOTAL_ROWS + 2);
    JsonNode commits = o.get("commits");
    assertThat(commits).hasSize(3);
    assertThat(commits.get(0).get("actor_id").asText()).isEqualTo("quickstart");
  }

  @Test
  void runningQuickstartAgainReplacesThePreviousDemoGraph() {
    String dir = tmp.resolve("qs").toString();
    assertThat(CliRun.of("quickstart", dir).exitCode()).isZero();

    CliRun again = CliRun.of("quickstart", dir);

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("[clean] removed the previous quickstart graph", "[commits] 3 commits");
  }

  @Test
  void quickstartRefusesANonEmptyDirectoryThatIsNotADemoGraph() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("mine"));
    Files.writeString(dir.resolve("precious.txt"), "keep me");

    CliRun run = CliRun.of("quickstart", dir.toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("not empty");
    assertThat(dir.resolve("precious.txt")).hasContent("keep me");
  }
}
