package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.S3Requests;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.IOException;
import java.net.URI;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 adapter's TCK binding: s3proxy in-process (or LocalStack, see S3LocalStackTck), a fresh bucket per test, and every request
 * through one {@link FaultProxy}, so injected faults pass through the real AWS SDK's retry and
 * error-mapping paths.
 *
 * <p>Listing pages are {@value #PAGE_SIZE} keys ({@code list-page-size}), so the 1,000-child
 * listing spans ten ListObjectsV2 pages. Each request gets {@value #ATTEMPTS} attempts; a fault
 * that must outlive the SDK's retries is armed for that many consecutive matching requests.
 *
 * <p>How the faults are made ({@link HttpFaultController}): a failing put, delete or listing page
 * is S3's {@code 503 SlowDown} on every attempt (throttling that outlived the retries, nothing
 * applied); a lost put response is "forward, then drop the response" on every attempt (applied,
 * never acknowledged); a refusal is {@code 403 AccessDenied} (not retried).
 */
final class S3TckBinding implements StorageTckBinding, AutoCloseable {
  static final int PAGE_SIZE = 100;
  static final int ATTEMPTS = 3;
  private static final String ROOT_PREFIX = "tck";

  private final StorageAdapterProvider provider;
  private final Target target;
  private final FaultProxy proxy;
  private final HttpFaultController faults;
  private final Map<StorageAdapter, String> buckets = new IdentityHashMap<>();

  /**
   * The S3-compatible server under the binding: where it listens, the identity it accepts, how to
   * make a fresh bucket, and a client for direct writes (residue).
   */
  record Target(URI endpoint, String region, String accessKeyId, String secretAccessKey,
      Supplier<String> createBucket, S3Client client) {
    static Target of(S3ProxyServer s3) {
      return new Target(s3.endpoint(), S3ProxyServer.REGION, S3ProxyServer.ACCESS_KEY_ID,
          S3ProxyServer.SECRET_ACCESS_KEY, s3::createBucket, s3.client());
    }
  }

  S3TckBinding(StorageAdapterProvider provider, S3ProxyServer server) throws IOException {
    this(provider, Target.of(server));
    server.serializeReadsPerKey(); // reads racing writes of a key answer as S3 does (old or new state)
  }

  S3TckBinding(StorageAdapterProvider provider, Target target) throws IOException {
    this.provider = provider;
    this.target = target;
    this.proxy = FaultProxy.start(target.endpoint());
    this.faults = new HttpFaultController(proxy, dialect(ATTEMPTS));
  }

  @Override
  public String name() {
    return "s3";
  }

  @Override
  public StorageAdapter openEmptyRoot() throws Exception {
    String bucket = target.createBucket().get();
    StorageAdapter adapter = provider.open(URI.create("s3://" + bucket + "/" + ROOT_PREFIX), Map.of(
        "endpoint", proxy.endpoint().toString(),
        "allow-http", "true",
        "path-style", "true",
        "region", target.region(),
        "access-key-id", target.accessKeyId(),
        "secret-access-key", target.secretAccessKey(),
        "list-page-size", Integer.toString(PAGE_SIZE),
        "max-attempts", Integer.toString(ATTEMPTS)));
    synchronized (buckets) {
      buckets.put(adapter, bucket);
    }
    return adapter;
  }

  /**
   * S3 writes are atomic, so no interrupted write leaves anything behind. What the suite checks
   * with a residue still matters on S3: an object whose name is a temp name ({@code name#<digits>},
   * e.g. left by another tool or a file-system sync of a crashed local graph) must be neither
   * listed nor addressable. This writes exactly such an object, with the real SDK client, next to
   * {@code path} under the adapter's root.
   */
  @Override
  public Optional<ResidueMaker> residue() {
    return Optional.of((adapter, path, partialBytes) -> {
      String bucket;
      synchronized (buckets) {
        bucket = buckets.get(adapter);
      }
      if (bucket == null) {
        throw new IllegalArgumentException("adapter was not opened by this binding: " + adapter);
      }
      String name = path + "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
      target.client().putObject(b -> b.bucket(bucket).key(ROOT_PREFIX + "/" + name), RequestBody.fromBytes(partialBytes));
      return name;
    });
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.of(faults);
  }

  /** @return failures of the proxy itself (never expected) */
  List<Throwable> proxyProblems() {
    return proxy.problems();
  }

  @Override
  public void close() {
    proxy.close();
  }

  /** The S3 REST API, path-style ({@code /<bucket>/<key>}), as {@link HttpFaultController} selects and fails it. */
  static HttpFaultController.Dialect dialect(int tries) {
    String object = S3Requests.anyBucket().anyObject();
    return new HttpFaultController.Dialect(Map.of(
        FaultController.Operation.READ, new HttpFaultController.Request("GET", object),
        FaultController.Operation.EXISTS, new HttpFaultController.Request("HEAD", object),
        FaultController.Operation.PUT, new HttpFaultController.Request("PUT", object),
        FaultController.Operation.DELETE, new HttpFaultController.Request("DELETE", object),
        FaultController.Operation.LIST_PAGE, new HttpFaultController.Request("GET", S3Requests.anyBucket().listing())),
        Fault.s3Error(503, "SlowDown", "injected fault: slow down"),
        Fault.s3Error(403, "AccessDenied", "injected fault: access denied"), tries);
  }
}
