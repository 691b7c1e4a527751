package io.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class RootCommandTest {

  @Test
  void helpListsCommandsAndDocumentsEveryExitCode() {
    CliRun run = CliRun.of("--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Usage: omnigraph", "quickstart", "Exit codes:");
    assertThat(run.out()).containsPattern("(?m)^\\s+0\\s+ok")
        .containsPattern("(?m)^\\s+1\\s+usage error")
        .containsPattern("(?m)^\\s+2\\s+user data error")
        .containsPattern("(?m)^\\s+3\\s+conflict")
        .containsPattern("(?m)^\\s+4\\s+storage failure");
  }

  @Test
  void versionPrintsTheReleaseVersion() {
    CliRun run = CliRun.of("--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("omnigraph " + VersionProvider.version());
    assertThat(VersionProvider.version()).doesNotContain("${");
  }

  @Test
  void versionCommandMatchesTheVersionFlagAndHasAJsonForm() {
    CliRun text = CliRun.of("version");
    CliRun json = CliRun.of("version", "--json");

    assertThat(text.exitCode()).isZero();
    assertThat(text.out()).isEqualTo(CliRun.of("--version").out());
    assertThat(Json.parseObject(json.out().strip()).get("version").asText()).isEqualTo(VersionProvider.version());
  }

  @Test
  void unknownCommandIsAUsageErrorWithExitCodeOne() {
    CliRun run = CliRun.of("frobnicate");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("error:", "frobnicate", "omnigraph --help");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void usageErrorWithJsonIsOneErrorOutputObjectOnStderr() {
    CliRun run = CliRun.of("quickstart", "--json", "--no-such-flag");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("usage");
    assertThat(error.get("error").asText()).contains("--no-such-flag");
  }

  @Test
  void noCommandIsAUsageError() {
    CliRun run = CliRun.of();

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("a command is required");
  }

  @Test
  void everySubcommandHasHelp() {
    CliRun run = CliRun.of("quickstart", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Usage: omnigraph quickstart");
  }
}
