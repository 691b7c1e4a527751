package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The GCS adapter against the whole contract on a real bucket named by environment variables. Run
 * only by the opt-in profile: {@code ./mvnw -Pcloud-tests -pl conformance-tests -am verify}.
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
  private static String base;
  private static Map<String, String> options;
  private static final AtomicInteger NEXT = new AtomicInteger();

  @BeforeAll
  static void fromEnvironment() {
    String bucket = System.getenv("OMNIGRAPH_GCS_BUCKET").trim();
    options = new LinkedHashMap<>();
    String credentials = System.getenv("OMNIGRAPH_GCS_CREDENTIALS");
    if (credentials != null && !credentials.isBlank()) {
      options.put("credentials", credentials.trim());
    }
    String project = System.getenv("OMNIGRAPH_GCS_PROJECT");
    if (project != null && !project.isBlank()) {
      options.put("project-id", project.trim());
    }
    options.put("list-page-size", "100");
    String prefix = System.getenv().getOrDefault("OMNIGRAPH_GCS_PREFIX", "omnigraph-tck");
    base = "gs://" + bucket + "/" + prefix + "/tck-" + System.currentTimeMillis();
  }

  @AfterAll
  static void deleteRunPrefix() throws StorageException {
    if (base != null) {
      try (StorageAdapter run = StorageAdapters.open(URI.create(base), options)) {
        run.deletePrefix("");
      }
    }
  }

  @Override
  protected StorageTckBinding binding() {
    String root = base + "/t" + NEXT.incrementAndGet();
    return new StorageTckBinding() {
      @Override
      public String name() {
        return "gcs-cloud";
      }

      @Override
      public StorageAdapter openEmptyRoot() throws Exception {
        return StorageAdapters.open(URI.create(root), options);
      }
    };
  }
}
