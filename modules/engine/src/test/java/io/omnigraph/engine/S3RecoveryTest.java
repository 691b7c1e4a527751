package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.engine.InterruptedWrite.StopAt;
import io.omnigraph.engine.recovery.RecoveryAudit;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The recovery sweep on the S3 emulator (s3proxy on 127.0.0.1): sidecars through adapter-s3,
 * tables, Restore and the audit through Lance on S3.
 */
class S3RecoveryTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  String uri;
  OpenOptions options;
  String bucket;
  String before;

  @BeforeEach
  void graph() {
    S3ProxyServer server = S3.server();
    bucket = server.createBucket();
    uri = "s3://" + bucket + "/graphs/g1";
    options = new OpenOptions(S3AdapterOptions.forEmulator(server.endpoint()));
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
      GraphIo.load(g, LoadMode.OVERWRITE, RecoveryWrites.BEFORE);
      before = GraphIo.export(g);
    }
  }

  List<String> sidecarKeys() {
    return S3.server().client().listObjectsV2(b -> b.bucket(bucket).prefix("graphs/g1/" + RecoverySidecar.DIR + "/"))
        .contents().stream().map(o -> o.key()).filter(k -> k.endsWith(".json")).toList();
  }

  @Test
  void aLoadLeavesNoSidecarOnS3() {
    try (Graph g = Omnigraph.open(uri, options)) {
      GraphIo.load(g, LoadMode.MERGE, RecoveryWrites.WRITE);
    }
    assertThat(sidecarKeys()).isEmpty();
  }

  @Test
  void crashDuringPhaseBRollsBackOnS3() {
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri, options)) {
      InterruptedWrite.run(g, RecoveryWrites.WRITE, "svc", StopAt.AFTER_FIRST_COMMIT);
    }
    assertThat(sidecarKeys()).hasSize(1);
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri, options)) {
      assertThat(GraphIo.export(g)).isEqualTo(before);
      TableDrift.assertNoDrift(g);
      assertThat(g.recovery().audit().list()).singleElement()
          .satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledBack));
    }
    assertThat(sidecarKeys()).isEmpty();
  }

  @Test
  void crashAfterConfirmationRollsForwardOnS3() {
    InterruptedWrite w;
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri, options)) {
      w = InterruptedWrite.run(g, RecoveryWrites.WRITE, "svc", StopAt.AFTER_CONFIRM);
    }
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri, options)) {
      assertThat(g.commits().get(0).id()).isEqualTo(w.commitId);
      assertThat(GraphIo.export(g)).contains("\"age\":37", "initech");
      TableDrift.assertNoDrift(g);
      assertThat(g.recovery().audit().list()).singleElement()
          .satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward));
    }
    assertThat(sidecarKeys()).isEmpty();
  }
}
