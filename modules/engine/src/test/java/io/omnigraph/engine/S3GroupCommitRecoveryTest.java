package io.omnigraph.engine;

import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.engine.InterruptedGroup.StopAt;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Group commit crash cells (see {@link GroupCommitRecoveryTest}) on the S3 emulator: sidecars
 * through adapter-s3, the chains, the Restores and the member commits through Lance on S3.
 */
class S3GroupCommitRecoveryTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  /** The local-disk cells, rooted in one bucket of the emulator. */
  static final class OnS3 extends GroupCommitRecoveryTest {
    final String bucket = S3.server().createBucket();
    final OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(S3.server().endpoint()));

    @Override
    String newUri(int n) {
      return "s3://" + bucket + "/graphs/g" + n;
    }

    @Override
    Graph init(String uri) {
      return Omnigraph.init(uri, PeopleGraph.SCHEMA, options);
    }

    @Override
    Graph open(String uri) {
      return Omnigraph.open(uri, options);
    }

    @Override
    List<String> sidecars(String uri) {
      String prefix = uri.substring(("s3://" + bucket + "/").length()) + "/" + RecoverySidecar.DIR + "/";
      return S3.server().client().listObjectsV2(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
          .map(o -> o.key()).filter(k -> k.endsWith(".json")).toList();
    }
  }

  @Test
  void aCrashBetweenChainsRollsTheBatchBackAndAConfirmedBatchRollsForward() throws IOException {
    OnS3 t = new OnS3();
    List<String> ref = t.reference(GroupCommitRecoveryTest.THREE);
    t.cell(GroupCommitRecoveryTest.THREE, ref, StopAt.AFTER_COMMITS, 2, false);
    t.cell(GroupCommitRecoveryTest.THREE, ref, StopAt.AFTER_CONFIRM, 0, true);
  }
}
