package io.omnigraph.conformance;

import java.util.Map;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The GCS adapter against the whole contract on a real bucket named by environment variables. Run
 * only by the opt-in profile: {@code ./mvnw -Pcloud-tests -pl conformance-runner -am verify}.
 *
 * <ul>
 *   <li>{@code OMNIGRAPH_GCS_BUCKET} (required; unset, the class is skipped with this reason)
 *   <li>{@code OMNIGRAPH_GCS_CREDENTIALS} (optional): a service-account JSON file; unset, the
 *       Application Default Credentials ({@code GOOGLE_APPLICATION_CREDENTIALS}, gcloud, metadata server)
 *   <li>{@code OMNIGRAPH_GCS_PROJECT} (optional project id)
 *   <li>{@code OMNIGRAPH_GCS_PREFIX} (optional, default {@code omnigraph-tck})
 * </ul>
 *
 * <p>Each test gets {@code gs://<bucket>/<prefix>/tck-<run>/t<n>}; the run's prefix is deleted
 * afterwards. Fault-injection and residue tests are skipped here with their reasons (the emulator
 * bindings run them).
 */
@EnabledIfEnvironmentVariable(named = "OMNIGRAPH_GCS_BUCKET", matches = ".*\\S.*",
    disabledReason = "OMNIGRAPH_GCS_BUCKET is not set: no real GCS bucket to run the TCK against")
class GcsCloudTck extends StorageAdapterContract {
  @RegisterExtension
  static final CloudRun RUN = new CloudRun("gcs (real)", "gs", "OMNIGRAPH_GCS_BUCKET", "OMNIGRAPH_GCS_PREFIX", Map.of(
      "OMNIGRAPH_GCS_CREDENTIALS", "credentials",
      "OMNIGRAPH_GCS_PROJECT", "project-id"));

  @Override
  protected StorageTckBinding binding() {
    return RUN.binding();
  }
}
