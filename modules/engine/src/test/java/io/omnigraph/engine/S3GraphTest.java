package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The graph lifecycle on the S3 emulator (s3proxy on 127.0.0.1): control files via adapter-s3, tables via Lance. */
class S3GraphTest extends ObjectStoreGraphContract {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @Override
  String freshRoot() {
    return "s3://" + S3.server().createBucket() + "/graphs/g1";
  }

  @Override
  OpenOptions options() {
    S3ProxyServer server = S3.server();
    return new OpenOptions(S3AdapterOptions.forEmulator(server.endpoint()));
  }

  @Test
  void theSchemaIsAnObjectInTheBucketUnderThePrefix() {
    String root = freshRoot();
    Omnigraph.init(root, SCHEMA, options()).close();
    String bucket = root.substring(5, root.indexOf('/', 5));
    assertThat(S3.server().client().getObjectAsBytes(b -> b.bucket(bucket).key("graphs/g1/_schema.pg")).asUtf8String())
        .isEqualTo(SCHEMA);
    try (Graph g = Omnigraph.open(root, options())) {
      assertThat(g.schema().tableKeys()).contains("node:Person");
    }
  }
}
