package io.omnigraph.adapter.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.lance.LanceSmoke;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lance (lance-core, Rust object_store inside) writes and reads a dataset in s3proxy using only
 * what {@link StorageAdapter#lanceLocation} returns: {@code s3://bucket/prefix/path} plus
 * {@code aws_endpoint}, {@code aws_allow_http}, {@code aws_region},
 * {@code aws_virtual_hosted_style_request=false} and the adapter's keys.
 *
 * <p>Runs on the class path (its own Surefire execution, see the pom): Lance's jars are not
 * modules (the package org.lance.namespace is split across two of them), Arrow needs java.nio
 * opened, and Lance extracts its native library into a dedicated tmpdir under target/.
 */
class S3LanceSmokeTest {
  @RegisterExtension
  static final S3ProxyExtension S3 = new S3ProxyExtension();

  @Test
  void lanceWritesReopensAndReadsBackAThousandRowsThroughTheAdaptersLocation() throws Exception {
    S3ProxyServer server = S3.server();
    String bucket = server.createBucket();
    try (StorageAdapter adapter = StorageAdapters.open(URI.create("s3://" + bucket + "/graph"),
            S3Fixture.options(server.endpoint()))) {
      LanceLocation loc = adapter.lanceLocation("tables/person.lance");
      assertThat(loc.uri()).isEqualTo("s3://" + bucket + "/graph/tables/person.lance");

      assertThat(LanceSmoke.write(loc)).isEqualTo(LanceSmoke.ROWS);

      // Lance's files are visible to the adapter under the same root: same bucket, same prefix.
      assertThat(adapter.list("tables/person.lance/_versions").toList()).isNotEmpty();
      assertThat(adapter.list("tables/person.lance/data").toList()).isNotEmpty();

      LanceSmoke.ReadBack back = LanceSmoke.reopenAndRead(loc);
      assertThat(back.version()).isEqualTo(1);
      assertThat(back.countRows()).isEqualTo(LanceSmoke.ROWS);
      assertThat(back.rows()).containsExactlyInAnyOrderElementsOf(LanceSmoke.expectedRows());
    }
  }
}
