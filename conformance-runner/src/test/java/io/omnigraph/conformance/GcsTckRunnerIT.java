package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.conformance.RunnerJar.Run;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The standalone runner jar against a {@code gs://} URI on the in-repo emulator, started as a user starts it. */
class GcsTckRunnerIT {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private static String[] emulatorArgs(GcsEmulator e, String uri) {
    return new String[] {"--uri", uri, "--option", "endpoint=" + e.baseUrl(), "--option", "credentials=no-auth",
        "--option", "project-id=" + e.projectId(), "--option", "max-attempts=1", "--option", "list-page-size=100", "--allow-skips"};
  }

  @Test
  void anEmulatorBucketPassesEveryGroupWithNoFailureAndTheRunPrefixIsDeleted() throws Exception {
    GcsEmulator e = gcs.emulator();
    String bucket = e.createBucket();
    Run r = RunnerJar.run(emulatorArgs(e, "gs://" + bucket + "/tck"));
    RunnerJar.assertEveryGroupPassed(r);
    // without a vendor binding there are no fault or residue hooks: with --allow-skips those tests are skipped with the reason
    assertThat(r.out()).contains("supplies no FaultController");
    assertThat(e.objectNames(bucket)).as("the run prefix is deleted afterwards").isEmpty();
    assertThat(e.unsupportedRequests()).isEmpty();
  }

  @Test
  void aMissingBucketIsReportedAsConfigurationNotAsTestFailures() throws Exception {
    Run r = RunnerJar.run(emulatorArgs(gcs.emulator(), "gs://no-such-bucket-for-runner/tck"));
    assertThat(r.exit()).as(r.out()).isNotZero();
    assertThat(r.out()).contains("CONFIGURATION");
  }
}
