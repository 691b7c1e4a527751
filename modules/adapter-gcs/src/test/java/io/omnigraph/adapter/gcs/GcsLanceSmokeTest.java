package io.omnigraph.adapter.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import io.omnigraph.testkit.lance.LanceSmoke;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lance reaches {@code gs://} through the adapter's {@link LanceLocation}: the Rust object_store
 * GCS client speaks the XML API to the in-repo emulator (service-account key with
 * {@code gcs_base_url} and {@code disable_oauth}). Runs on the class path (Lance has no module
 * descriptor), in its own Surefire execution.
 */
class GcsLanceSmokeTest {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  @Test
  void lanceWritesAThousandRowDatasetOnGsAndReadsItBackAfterReopening() throws Exception {
    String bucket = gcs.emulator().createBucket();
    try (StorageAdapter adapter = StorageAdapters.open("gs://" + bucket + "/graph",
            GcsAdapterOptions.forEmulator(gcs.emulator(), "max-attempts", "1"))) {
      LanceLocation loc = adapter.lanceLocation("tables/person.lance");
      assertThat(LanceSmoke.write(loc)).isEqualTo(LanceSmoke.ROWS);
      // object_store spoke the XML API (/{bucket}/{object}), not the JSON API.
      assertThat(gcs.emulator().requests()).anyMatch(r -> r.startsWith("PUT /") && !r.startsWith("PUT /upload/")
          && r.contains("/graph%2Ftables%2Fperson%2Elance%2F%5Fversions%2F"));
      // The data really is in the bucket, next to the adapter's own objects.
      assertThat(gcs.emulator().objectNames(bucket))
          .anyMatch(n -> n.startsWith("graph/tables/person.lance/_versions/"))
          .anyMatch(n -> n.startsWith("graph/tables/person.lance/data/"));
      adapter.put("manifest.json", "{}".getBytes(StandardCharsets.UTF_8), WriteCondition.ifAbsent());

      gcs.emulator().clearRequests();
      LanceSmoke.ReadBack back = LanceSmoke.reopenAndRead(loc);
      assertThat(gcs.emulator().requests())
          .anyMatch(r -> r.startsWith("GET /") && r.contains("%2Fdata%2F"));
      assertThat(back.version()).isEqualTo(1);
      assertThat(back.countRows()).isEqualTo(LanceSmoke.ROWS);
      assertThat(back.rows()).containsExactlyInAnyOrderElementsOf(LanceSmoke.expectedRows());
      assertThat(adapter.list("").toList()).containsExactly("manifest.json");
    }
    assertThat(gcs.emulator().unsupportedRequests()).isEmpty();
  }
}
