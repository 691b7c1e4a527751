package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone runner jar, started as users start it: {@code java -jar ...-runner.jar --uri ...}. */
class TckRunnerIT {
  private static final Pattern CLOSING = Pattern.compile("(?m)^(\\d+) passed, (\\d+) failed, (\\d+) skipped$");
  private static final List<String> GROUPS = List.of("ReadAndNotFound", "AtomicPut", "ConditionalPut", "Listing",
      "ListingFailure", "TempFileResidue", "Delete", "ErrorMapping", "PathValidation");

  private static Path jar;

  @TempDir
  Path tmp;

  record Run(int exit, String out) {}

  @BeforeAll
  static void findJar() {
    jar = Path.of(System.getProperty("omnigraph.tck.runnerJar", "target/missing-runner.jar"));
    assertThat(jar).as("runner jar (built by the package phase)").isRegularFile();
  }

  private static Run run(List<String> javaArgs) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(javaArgs);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C.UTF-8");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("runner exited").isTrue();
    return new Run(p.exitValue(), out);
  }

  private static Run runJar(String... args) throws Exception {
    List<String> a = new ArrayList<>(List.of("-jar", jar.toString()));
    a.addAll(List.of(args));
    return run(a);
  }

  @Test
  void aTempDirectoryPassesWithOneRowPerGroupAndTheClosingLine() throws Exception {
    Path root = Files.createDirectory(tmp.resolve("store"));
    Run r = runJar("--uri", root.toString(), "--option", "list-page-size=100");
    assertThat(r.exit()).as(r.out()).isZero();
    for (String g : GROUPS) {
      assertThat(r.out()).containsPattern("(?m)^" + g + " +\\d+ +0 +\\d+$");
    }
    Matcher m = CLOSING.matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    assertThat(Integer.parseInt(m.group(1))).isGreaterThanOrEqualTo(40);
    assertThat(m.group(2)).isEqualTo("0");
    // the fs adapter accepts the I/O hook and stores local files: nothing needs to be skipped
    assertThat(m.group(3)).as(r.out()).isEqualTo("0");
    assertThat(r.out()).contains("faults injected through the adapter's I/O hook; residue as local temp files");
    try (Stream<Path> left = Files.list(root)) {
      assertThat(left).as("the run prefix is deleted afterwards").isEmpty();
    }
  }

  @Test
  void aFileUriWithOptionsIsAcceptedAndAnUnknownOptionIsAUsageError() throws Exception {
    Path root = Files.createDirectory(tmp.resolve("store"));
    Run bad = runJar("--uri", root.toUri().toString(), "--option", "no-such-option=1");
    assertThat(bad.exit()).as(bad.out()).isEqualTo(2);
    assertThat(bad.out()).contains("CONFIGURATION").contains("no-such-option");
  }

  @Test
  void aBrokenAdapterMakesTheRunnerReportTheFailureAndExitOne() throws Exception {
    Path root = Files.createDirectory(tmp.resolve("store"));
    String cp = jar + File.pathSeparator + Path.of("target/test-classes").toAbsolutePath();
    Run r = run(List.of("-cp", cp, "io.omnigraph.conformance.runner.TckRunner", "--uri",
        "broken-ifabsent://" + root.toAbsolutePath()));
    assertThat(r.exit()).as(r.out()).isEqualTo(1);
    assertThat(r.out()).containsPattern("(?m)^ConditionalPut +\\d+ +1 +0$");
    // this provider has no I/O hook, so the fault tests are skipped, each with its reason
    assertThat(r.out()).contains("faults unavailable (tests skipped)").contains("supplies no FaultController");
    assertThat(r.out()).contains("FAILED  ConditionalPut > sixteen concurrent if absent writers have exactly one winner");
    Matcher m = CLOSING.matcher(r.out());
    assertThat(m.find()).isTrue();
    assertThat(m.group(2)).isEqualTo("1");
  }

  @Test
  void helpPrintsUsageAndExitsZero() throws Exception {
    Run r = runJar("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: java -jar omnigraph-conformance-<version>-runner.jar --uri <uri>")
        .contains("--option key=value");
  }

  @Test
  void missingUriAndUnknownSchemesAreUsageErrorsNamingWhatIsAvailable() throws Exception {
    Run none = runJar();
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.out()).contains("--uri is required");
    Run unknown = runJar("--uri", "nosuch://bucket/x");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.out()).contains("'nosuch'").contains("file");
  }
}
