package io.omnigraph.engine;

import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.S3Requests;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The storage-fault contract on the S3 emulator (s3proxy on 127.0.0.1) behind a FaultProxy. A
 * failed request is S3's {@code 503 SlowDown} on every attempt (throttling that outlived the
 * SDK's {@value #ATTEMPTS} attempts, nothing applied): {@code TRANSIENT}.
 */
class S3StorageFaultTest extends ProxiedStorageFaultContract {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();
  static final int ATTEMPTS = 2;

  private String bucket;

  @Override
  String freshRoot() {
    bucket = S3.server().createBucket();
    return "s3://" + bucket + "/" + PREFIX;
  }

  @Override
  URI upstream() {
    return S3.server().endpoint();
  }

  @Override
  Map<String, String> options(String endpoint) {
    return S3AdapterOptions.forEmulator(endpoint, "max-attempts", Integer.toString(ATTEMPTS));
  }

  @Override
  String target(SidecarIo io) {
    S3Requests s3 = S3Requests.in(bucket);
    return switch (io) {
      case PUT, PUT_RESPONSE_LOST, DELETE, READ -> s3.objectIn(RECOVERY_DIR);
      case LIST -> s3.listing(RECOVERY_DIR);
    };
  }

  @Override
  Fault failure() {
    return Fault.s3Error(503, "SlowDown", "injected by FaultProxy");
  }

  @Override
  void plantRaw(String root, String name, byte[] bytes) {
    S3.server().client().putObject(b -> b.bucket(bucket).key(PREFIX + "/" + name), RequestBody.fromBytes(bytes));
  }

  @Override
  boolean rawExists(String root, String name) {
    return S3.server().client().listObjectsV2(b -> b.bucket(bucket).prefix(PREFIX + "/" + name)).contents().stream()
        .anyMatch(o -> o.key().equals(PREFIX + "/" + name));
  }
}
