package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The standalone runner jar against a {@code gs://} URI on the in-repo emulator, started as a user starts it. */
class GcsTckRunnerIT {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private static final Pattern CLOSING = Pattern.compile("(?m)^(\\d+) passed, (\\d+) failed, (\\d+) skipped$");
  private static final List<String> GROUPS = List.of("ReadAndNotFound", "AtomicPut", "ConditionalPut", "Listing",
      "ListingFailure", "TempFileResidue", "Delete", "ErrorMapping", "PathValidation");

  private static Path jar;

  @BeforeAll
  static void findJar() {
    jar = Path.of(System.getProperty("omnigraph.tck.runnerJar", "target/missing-runner.jar"));
    assertThat(jar).as("runner jar (built by the package phase)").isRegularFile();
  }

  record Run(int exit, String out) {}

  private static Run runJar(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C.UTF-8");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("runner exited").isTrue();
    return new Run(p.exitValue(), out);
  }

  private static String[] emulatorArgs(GcsEmulator e, String uri) {
    return new String[] {"--uri", uri, "--option", "endpoint=" + e.baseUrl(), "--option", "credentials=no-auth",
        "--option", "project-id=" + e.projectId(), "--option", "max-attempts=1", "--option", "list-page-size=100"};
  }

  @Test
  void anEmulatorBucketPassesEveryGroupWithNoFailureAndTheRunPrefixIsDeleted() throws Exception {
    GcsEmulator e = gcs.emulator();
    String bucket = e.createBucket();
    Run r = runJar(emulatorArgs(e, "gs://" + bucket + "/tck"));
    assertThat(r.exit()).as(r.out()).isZero();
    for (String g : GROUPS) {
      assertThat(r.out()).as(r.out()).containsPattern("(?m)^" + g + " +\\d+ +0 +\\d+$");
    }
    Matcher m = CLOSING.matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    assertThat(Integer.parseInt(m.group(1))).isGreaterThanOrEqualTo(40);
    assertThat(m.group(2)).isEqualTo("0");
    // a user's store has no fault or residue hooks: those tests are skipped with the reason
    assertThat(r.out()).contains("supplies no FaultController");
    assertThat(e.objectNames(bucket)).as("the run prefix is deleted afterwards").isEmpty();
    assertThat(e.unsupportedRequests()).isEmpty();
  }

  @Test
  void aMissingBucketIsReportedAsConfigurationNotAsTestFailures() throws Exception {
    Run r = runJar(emulatorArgs(gcs.emulator(), "gs://no-such-bucket-for-runner/tck"));
    assertThat(r.exit()).as(r.out()).isNotZero();
    assertThat(r.out()).contains("CONFIGURATION");
  }
}
