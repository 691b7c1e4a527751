package io.omnigraph.conformance;

import java.util.Map;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Azure Blob adapter against the whole contract on a real Azure container, named by
 * environment variables. Run only by the opt-in profile: {@code ./mvnw -Pcloud-tests -pl
 * conformance-runner -am verify} (the file name matches no default Surefire/Failsafe pattern; the
 * profile's {@code cloud-tck} execution includes {@code **}{@code /*CloudTck.java}).
 *
 * <ul>
 *   <li>{@code OMNIGRAPH_AZURE_CONTAINER} (required; unset, the class is skipped with this reason)
 *   <li>{@code OMNIGRAPH_AZURE_ACCOUNT} (unless the connection string names it)
 *   <li>credentials, one of {@code OMNIGRAPH_AZURE_CONNECTION_STRING},
 *       {@code OMNIGRAPH_AZURE_ACCOUNT_KEY}, {@code OMNIGRAPH_AZURE_SAS_TOKEN}; none: the default
 *       credential chain (environment, workload/managed identity, Azure CLI)
 *   <li>{@code OMNIGRAPH_AZURE_PREFIX} (optional, default {@code omnigraph-tck})
 * </ul>
 *
 * <p>Each test gets {@code az://<container>/<prefix>/tck-<run>/t<n>}; the run's prefix is deleted
 * afterwards. A real service cannot be made to fail on cue and has no temp-file residue, so the
 * fault-injection and residue tests are skipped here with their reasons (the Azurite bindings run
 * them).
 */
@EnabledIfEnvironmentVariable(named = "OMNIGRAPH_AZURE_CONTAINER", matches = ".*\\S.*",
    disabledReason = "OMNIGRAPH_AZURE_CONTAINER is not set: no real Azure container to run the TCK against")
class AzureCloudTck extends StorageAdapterContract {
  @RegisterExtension
  static final CloudRun RUN = new CloudRun("azure (real)", "az", "OMNIGRAPH_AZURE_CONTAINER", "OMNIGRAPH_AZURE_PREFIX",
      Map.of(
          "OMNIGRAPH_AZURE_ACCOUNT", "account",
          "OMNIGRAPH_AZURE_CONNECTION_STRING", "connection-string",
          "OMNIGRAPH_AZURE_ACCOUNT_KEY", "account-key",
          "OMNIGRAPH_AZURE_SAS_TOKEN", "sas-token"));

  @Override
  protected StorageTckBinding binding() {
    return RUN.binding();
  }
}
