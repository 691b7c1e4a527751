package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The same graph lifecycle on the S3 emulator (s3proxy on 127.0.0.1): control files via adapter-s3, tables via Lance. */
class S3GraphTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  String uri;
  OpenOptions options;

  @BeforeEach
  void bucket() {
    S3ProxyServer server = S3.server();
    uri = "s3://" + server.createBucket() + "/graphs/g1";
    options = new OpenOptions(Map.of("endpoint", server.endpoint().toString(), "allow-http", "true",
        "path-style", "true", "region", S3ProxyServer.REGION, "access-key-id", S3ProxyServer.ACCESS_KEY_ID,
        "secret-access-key", S3ProxyServer.SECRET_ACCESS_KEY));
  }

  @Test
  void initAndOpenWorkOnS3() {
    String genesis;
    try (Graph g = Omnigraph.init(uri, GraphLifecycleTest.SCHEMA, options)) {
      genesis = g.commits().get(0).id();
    }
    try (Graph g = Omnigraph.open(uri, options)) {
      assertThat(g.commits()).extracting(CommitInfo::id).containsExactly(genesis);
      assertThat(g.schema().tableKeys()).contains("node:Person");
    }
    assertThat(S3.server().client().getObjectAsBytes(b -> b.bucket(uri.substring(5, uri.indexOf('/', 5)))
        .key("graphs/g1/_schema.pg")).asUtf8String()).isEqualTo(GraphLifecycleTest.SCHEMA);
    assertThatThrownBy(() -> Omnigraph.init(uri, GraphLifecycleTest.SCHEMA, options)).isInstanceOf(ConflictException.class);
  }

  @Test
  void everyLoadModeAndExportRoundTripOnS3() {
    try (Graph g = Omnigraph.init(uri, GraphLoadTest.SCHEMA, options)) {
      GraphLoadTest.load(g, LoadMode.OVERWRITE, GraphLoadTest.PEOPLE);
      GraphLoadTest.load(g, LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":7}}\n");
      GraphLoadTest.load(g, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"cy\"}}\n");
      assertThatThrownBy(() -> GraphLoadTest.load(g, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"cy\"}}\n"))
          .isInstanceOf(ConflictException.class);
      String exported = GraphLoadTest.export(g);
      assertThat(GraphLoadTest.sortedLines(exported)).hasSize(5).anyMatch(l -> l.contains("\"age\":7"));
      assertThat(g.commits()).hasSize(4);
      try (Graph again = Omnigraph.open(uri, options)) {
        assertThat(GraphLoadTest.export(again)).isEqualTo(exported);
      }
    }
  }
}
