package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Invocation mistakes are caught before the engine is touched and exit with 1. */
class UsageErrorsTest {

  @TempDir Path tmp;

  @Test
  void initWithoutSchemaFlagIsAUsageError() {
    CliRun run = CliRun.of("init", tmp.resolve("g").toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("--schema");
  }

  @Test
  void initWithAMissingSchemaFileNamesTheFile() {
    Path missing = tmp.resolve("nope.pg");
    CliRun run = CliRun.of("init", "--schema", missing.toString(), tmp.resolve("g").toString(), "--json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("input_not_found");
    assertThat(error.get("error").asText()).contains(missing.toString());
    assertThat(run.out()).isEmpty();
  }

  @Test
  void loadWithAnUnknownModeIsAUsageErrorListingTheModes() {
    CliRun run = CliRun.of("load", "--mode", "upsert", "--data", "x.ndjson", tmp.toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("upsert").containsIgnoringCase("append").containsIgnoringCase("overwrite");
  }

  @Test
  void loadWithAMissingDataFileIsAUsageError() {
    CliRun run = CliRun.of("load", "--mode", "append", "--data", tmp.resolve("none.ndjson").toString(), tmp.toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("data file not found", "none.ndjson");
  }

  @Test
  void aGraphNamedTwiceDifferentlyIsAUsageError() {
    CliRun run = CliRun.of("export", "/tmp/a", "--store", "/tmp/b");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("given twice", "/tmp/a", "/tmp/b");
  }

  @Test
  void aCommandWithoutAGraphIsAUsageError() {
    CliRun run = CliRun.of("commit", "list");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("no graph given", "--store");
  }

  @Test
  void commitWithoutASubcommandIsAUsageError() {
    CliRun run = CliRun.of("commit");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("list or show");
  }

  @Test
  void storageOptionsWithoutAnEqualsSignAreRefused() {
    CliRun run = CliRun.of("export", tmp.toString(), "--option", "novalue");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("novalue");
  }

  @Test
  void everyCommandHasHelp() {
    for (String[] cmd : new String[][] {
        {"init"}, {"load"}, {"export"}, {"commit"}, {"commit", "list"}, {"commit", "show"},
        {"schema"}, {"schema", "show"}, {"quickstart"}}) {
      String[] args = java.util.Arrays.copyOf(cmd, cmd.length + 1);
      args[cmd.length] = "--help";
      CliRun run = CliRun.of(args);
      assertThat(run.exitCode()).as(String.join(" ", args)).isZero();
      assertThat(run.out()).as(String.join(" ", args)).contains("Usage: omnigraph " + String.join(" ", cmd));
    }
  }
}
