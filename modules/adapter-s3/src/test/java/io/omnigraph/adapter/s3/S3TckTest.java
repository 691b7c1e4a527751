package io.omnigraph.adapter.s3;

import io.omnigraph.conformance.AdapterPath;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpStoreBinding;
import io.omnigraph.testkit.tck.HttpStoreBindings;
import java.net.URI;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The S3 adapter against the whole storage contract (docs/tck.md), loaded as the named module under
 * test and again from the class path, on s3proxy: a fresh bucket per test, every request through a
 * FaultProxy (faults pass through the real AWS SDK's retries and error mapping; each fault outlives
 * its 3 attempts), residue written with the SDK's own client. Pages of 100 keys.
 */
@ParameterizedClass
@EnumSource(AdapterPath.class)
class S3TckTest extends StorageAdapterContract {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();
  @RegisterExtension static final HttpStoreBindings BINDINGS = new HttpStoreBindings(S3TckTest::bind);
  @Parameter AdapterPath path;

  @Override
  protected StorageTckBinding binding() {
    return BINDINGS.of(path);
  }

  private static HttpStoreBinding bind(AdapterPath path) throws Exception {
    S3ProxyServer s3 = S3.server();
    s3.serializeReadsPerKey(); // reads racing writes of a key answer as S3 does (old or new state)
    var provider = path.provider("s3");
    return new HttpStoreBinding("s3 (" + path + ")", s3.endpoint(), HttpDialects.s3(3), proxy -> {
      String bucket = s3.createBucket();
      return new HttpStoreBinding.Root(provider.open(URI.create("s3://" + bucket + "/tck"),
          S3AdapterOptions.forEmulator(proxy, "list-page-size", "100", "max-attempts", "3")), bucket, "tck");
    }, (bucket, key, bytes) -> s3.client().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes)));
  }
}
