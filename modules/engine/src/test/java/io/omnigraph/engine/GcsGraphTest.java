package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The graph lifecycle on the in-repo GCS emulator: control files via adapter-gcs (JSON API),
 * tables via Lance's object_store (XML API), both against the same bucket and prefix.
 */
class GcsGraphTest extends ObjectStoreGraphContract {
  @RegisterExtension static final GcsEmulatorExtension GCS = new GcsEmulatorExtension();

  private String bucket;

  @Override
  String freshRoot() {
    bucket = GCS.emulator().createBucket();
    return "gs://" + bucket + "/graphs/g1";
  }

  @Override
  OpenOptions options() {
    GcsEmulator e = GCS.emulator();
    return new OpenOptions(GcsAdapterOptions.forEmulator(e));
  }

  @AfterEach
  void everyRequestWasOneTheEmulatorServes() {
    assertThat(GCS.emulator().unsupportedRequests()).isEmpty();
  }

  @Test
  void theSchemaAndTheTablesAreObjectsInTheBucketUnderThePrefix() {
    String root = freshRoot();
    Omnigraph.init(root, SCHEMA, options()).close();
    assertThat(new String(GCS.emulator().objectBytes(bucket, "graphs/g1/_schema.pg"), StandardCharsets.UTF_8))
        .isEqualTo(SCHEMA);
    assertThat(GCS.emulator().objectNames(bucket))
        .anyMatch(n -> n.startsWith("graphs/g1/__manifest/_versions/"))
        .anyMatch(n -> n.startsWith("graphs/g1/nodes/"));
  }
}
