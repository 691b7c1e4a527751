package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  @Test
  void withoutAFlagTheRunIsStrictAndOnlyAllowSkipsRelaxesIt(@TempDir Path root) {
    // one quick group against a local directory: the banner says which mode the runner was given
    CliRun plain = CliRun.of("tck", "--uri", root.toString(), "--select", "PathValidation");
    CliRun relaxed = CliRun.of("tck", "--uri", root.toString(), "--select", "PathValidation", "--allow-skips");

    assertThat(plain.exitCode()).as(plain.out() + plain.err()).isEqualTo(ExitCode.OK);
    assertThat(plain.out()).contains("strict: a test that cannot run fails").doesNotContain("skips allowed");
    assertThat(relaxed.exitCode()).as(relaxed.out() + relaxed.err()).isEqualTo(ExitCode.OK);
    assertThat(relaxed.out()).contains("skips allowed: not a certification");
  }
}
