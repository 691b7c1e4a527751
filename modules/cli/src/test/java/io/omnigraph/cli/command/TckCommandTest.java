package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import org.junit.jupiter.api.Test;

/** {@code omnigraph tck} reaches the conformance runner and maps its statuses to the CLI's exit codes. */
class TckCommandTest {

  @Test
  void aSchemeWithoutAdapterIsReportedByTheRunnerAndExitsAsUsageError() {
    CliRun run = CliRun.of("tck", "--uri", "nosuch://bucket/prefix");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("cannot open nosuch://bucket/prefix", "nosuch");
  }

  @Test
  void theUriIsRequired() {
    CliRun run = CliRun.of("tck");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("Missing required option", "<uri>");
  }

  @Test
  void certifyAndAllowSkipsReachTheRunnerWhichRefusesThemTogether() {
    CliRun run = CliRun.of("tck", "--uri", "nosuch://bucket/prefix", "--certify", "--allow-skips");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("--certify and --allow-skips contradict each other");
  }

  @Test
  void anUnknownSelectedGroupIsReportedByTheRunner() {
    CliRun run = CliRun.of("tck", "--uri", "nosuch://bucket/prefix", "--select", "NoSuchGroup");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("no contract group 'NoSuchGroup'");
  }
}
