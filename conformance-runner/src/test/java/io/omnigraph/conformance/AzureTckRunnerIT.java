package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.conformance.RunnerJar.Run;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteClients;
import io.omnigraph.testkit.azure.AzuriteExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The standalone runner jar against an Azurite URI, started as a user starts it. */
class AzureTckRunnerIT {
  @RegisterExtension
  static final AzuriteExtension AZURITE = new AzuriteExtension();

  @Test
  void anAzuriteContainerPassesEveryGroupWithNoFailure() throws Exception {
    Azurite azurite = AZURITE.azurite();
    String container = azurite.createContainer("runner");
    Run r = RunnerJar.run("--uri", "az://" + container + "/tck", "--allow-skips",
        "--option", "account=" + Azurite.ACCOUNT_NAME, "--option", "account-key=" + Azurite.ACCOUNT_KEY,
        "--option", "endpoint=" + azurite.blobEndpoint(), "--option", "allow-http=true",
        "--option", "list-page-size=100");
    RunnerJar.assertEveryGroupPassed(r);
    // a user's store has no fault or residue hooks: those tests are skipped with the reason
    assertThat(r.out()).contains("supplies no FaultController");
    assertThat(AzuriteClients.containerClient(azurite, container).listBlobs())
        .as("the run prefix is deleted afterwards").isEmpty();
  }

  @Test
  void aMissingContainerIsReportedAsConfigurationNotAsTestFailures() throws Exception {
    Azurite azurite = AZURITE.azurite();
    Run r = RunnerJar.run("--uri", "az://no-such-container-for-runner/tck",
        "--option", "account=" + Azurite.ACCOUNT_NAME, "--option", "account-key=" + Azurite.ACCOUNT_KEY,
        "--option", "endpoint=" + azurite.blobEndpoint(), "--option", "allow-http=true");
    assertThat(r.exit()).as(r.out()).isNotZero();
    assertThat(r.out()).contains("CONFIGURATION");
  }
}
