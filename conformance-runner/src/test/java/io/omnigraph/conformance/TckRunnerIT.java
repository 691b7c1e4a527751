package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.conformance.RunnerJar.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone runner jar, started as users start it: {@code java -jar ...-runner.jar --uri ...}. */
class TckRunnerIT {
  @TempDir Path tmp;

  @Test
  void aTempDirectoryPassesWithOneRowPerGroupAndTheClosingLine() throws Exception {
    Path root = Files.createDirectory(tmp.resolve("store"));
    Run r = RunnerJar.run("--uri", root.toString(), "--option", "list-page-size=100");
    Matcher m = RunnerJar.assertEveryGroupPassed(r);
    // the fs adapter accepts the I/O hook and stores local files: nothing needs to be skipped
    assertThat(m.group(3)).as(r.out()).isEqualTo("0");
    assertThat(r.out()).contains("faults injected through the adapter's I/O hook; residue as local temp files")
        .contains("CERTIFIED: every test ran and passed");
    try (Stream<Path> left = Files.list(root)) {
      assertThat(left).as("the run prefix is deleted afterwards").isEmpty();
    }
  }

  @Test
  void aFileUriWithOptionsIsAcceptedAndAnUnknownOptionIsAUsageError() throws Exception {
    Path root = Files.createDirectory(tmp.resolve("store"));
    Run bad = RunnerJar.run("--uri", root.toUri().toString(), "--option", "no-such-option=1");
    assertThat(bad.exit()).as(bad.out()).isEqualTo(2);
    assertThat(bad.out()).contains("CONFIGURATION").contains("no-such-option");
  }

  @Test
  void aBrokenAdapterMakesTheStrictRunnerReportTheFailureAndExitOne() throws Exception {
    Path root = Files.createDirectory(tmp.resolve("store"));
    Run r = RunnerJar.runWithTestClasses("--uri", "broken-check-then-write-if-absent://" + root.toAbsolutePath(),
        "--option", "list-page-size=100");
    assertThat(r.exit()).as(r.out()).isEqualTo(1);
    assertThat(r.out()).containsPattern("(?m)^ConditionalPut +\\d+ +1 +0$");
    // the broken provider accepts the I/O hook and stores local files: nothing is skipped in strict mode
    assertThat(r.out()).contains("faults injected through the adapter's I/O hook; residue as local temp files");
    assertThat(r.out()).contains("FAILED  ConditionalPut > sixteen concurrent if absent writers have exactly one winner");
    assertThat(r.out()).contains("NOT CERTIFIED");
    // The SPI's default putNonDurable goes through the same broken put, so the NonDurableWrite
    // group's IfAbsent race fails too: two failures, nothing skipped.
    assertThat(r.out()).containsPattern("(?m)^NonDurableWrite +\\d+ +1 +0$");
    Matcher m = RunnerJar.CLOSING.matcher(r.out());
    assertThat(m.find()).isTrue();
    assertThat(m.group(2)).as(r.out()).isEqualTo("2");
    assertThat(m.group(3)).as(r.out()).isEqualTo("0");
  }

  @Test
  void helpPrintsUsageAndExitsZero() throws Exception {
    Run r = RunnerJar.run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: java -jar omnigraph-conformance-<version>-runner.jar --uri <uri>")
        .contains("--option key=value");
  }

  @Test
  void missingUriAndUnknownSchemesAreUsageErrorsNamingWhatIsAvailable() throws Exception {
    Run none = RunnerJar.run();
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.out()).contains("--uri is required");
    Run unknown = RunnerJar.run("--uri", "nosuch://bucket/x");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.out()).contains("'nosuch'").contains("file");
  }
}
