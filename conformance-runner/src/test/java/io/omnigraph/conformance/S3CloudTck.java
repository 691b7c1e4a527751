package io.omnigraph.conformance;

import java.util.Map;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The S3 adapter against the whole contract on a real S3 bucket, named by environment variables.
 * Run only by the opt-in profile: {@code ./mvnw -Pcloud-tests -pl conformance-runner -am verify}
 * (the file name matches no default Surefire/Failsafe pattern; the profile's {@code cloud-tck}
 * execution includes {@code **}{@code /*CloudTck.java}).
 *
 * <ul>
 *   <li>{@code OMNIGRAPH_S3_BUCKET} (required; unset, the class is skipped with this reason)
 *   <li>{@code OMNIGRAPH_S3_REGION} (optional; else the SDK's region chain, e.g. {@code AWS_REGION})
 *   <li>{@code OMNIGRAPH_S3_ENDPOINT} (optional, for an S3-compatible service; with
 *       {@code OMNIGRAPH_S3_PATH_STYLE=true} if it needs path-style addressing)
 *   <li>credentials: the SDK default chain ({@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY},
 *       {@code AWS_PROFILE}, web identity, instance roles)
 *   <li>{@code OMNIGRAPH_S3_PREFIX} (optional, default {@code omnigraph-tck})
 * </ul>
 *
 * <p>Each test gets {@code s3://<bucket>/<prefix>/tck-<run>/t<n>}; the run's prefix is deleted
 * afterwards. A real service cannot be made to fail on cue, so the fault-injection and residue
 * tests are skipped here with their reasons (the s3proxy bindings run them).
 */
@EnabledIfEnvironmentVariable(named = "OMNIGRAPH_S3_BUCKET", matches = ".*\\S.*",
    disabledReason = "OMNIGRAPH_S3_BUCKET is not set: no real S3 bucket to run the TCK against")
class S3CloudTck extends StorageAdapterContract {
  @RegisterExtension
  static final CloudRun RUN = new CloudRun("s3 (real)", "s3", "OMNIGRAPH_S3_BUCKET", "OMNIGRAPH_S3_PREFIX", Map.of(
      "OMNIGRAPH_S3_REGION", "region",
      "OMNIGRAPH_S3_ENDPOINT", "endpoint",
      "OMNIGRAPH_S3_PATH_STYLE", "path-style"));

  @Override
  protected StorageTckBinding binding() {
    return RUN.binding();
  }
}
