package io.omnigraph.testkit.s3;

import io.omnigraph.testkit.fault.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A running s3proxy 4.1.0 inside this JVM: an S3-compatible server on {@code 127.0.0.1} with an
 * OS-assigned port, backed by the in-memory {@code transient} blob store, checking AWS SigV2/V4
 * signatures against a fixed test identity. Start it with {@link #start()}, stop it with
 * {@link #close()}; or let {@link S3ProxyExtension} do both.
 *
 * <p>Tests isolate themselves with {@link #createBucket()} (a fresh, empty bucket each).
 *
 * <p>Clients reach s3proxy through a small front proxy ({@link #endpoint()}) that serializes
 * the writes (PUT, DELETE) of each object key. s3proxy 4.1.0 checks {@code If-Match} and then
 * writes without a lock, so concurrent conditional writes of one key could both succeed; on S3
 * they cannot. With the front, the emulator is linearizable per key as S3 is.
 */
public final class S3ProxyServer implements AutoCloseable {
  /** The access key id s3proxy accepts; a test value, not a secret. */
  public static final String ACCESS_KEY_ID = "omnigraph-test-access";
  /** The secret access key s3proxy accepts; a test value, not a secret. */
  public static final String SECRET_ACCESS_KEY = "omnigraph-test-secret";
  /** The region clients should sign for. */
  public static final String REGION = "us-east-1";

  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final AtomicLong BUCKETS = new AtomicLong();
  private static final String OBJECT_TARGET = "/[^/?]+/[^?]+(\\?.*)?";

  private final Object proxy; // org.gaul.s3proxy.S3Proxy, driven by reflection (see S3ProxyReflection)
  private final FaultProxy front;
  private boolean readsSerialized; // guarded by this
  private final URI endpoint;
  private volatile S3Client client;
  private boolean closed;

  private S3ProxyServer(Object proxy, FaultProxy front) {
    this.proxy = proxy;
    this.front = front;
    this.endpoint = front.endpoint();
  }

  /**
   * Starts s3proxy with an empty in-memory store.
   *
   * @throws IllegalStateException when it does not start (the cause is s3proxy's exception) or is
   *     not started within 30 s
   */
  public static S3ProxyServer start() {
    // the listener binds the endpoint's host: loopback only; port 0 = OS-assigned
    Object proxy = S3ProxyReflection.build(URI.create("http://127.0.0.1:0"), ACCESS_KEY_ID, SECRET_ACCESS_KEY);
    try {
      S3ProxyReflection.start(proxy);
      long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
      while (!"STARTED".equals(S3ProxyReflection.state(proxy))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("s3proxy not started within 30 s; state " + S3ProxyReflection.state(proxy));
        }
        Thread.sleep(5);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopAfterFailedStart(proxy, e);
      throw new IllegalStateException("interrupted while starting s3proxy", e);
    } catch (RuntimeException e) {
      stopAfterFailedStart(proxy, e);
      throw e;
    }
    URI direct = URI.create("http://127.0.0.1:" + S3ProxyReflection.port(proxy));
    FaultProxy front;
    try {
      front = FaultProxy.start(direct);
    } catch (IOException e) {
      stopAfterFailedStart(proxy, e);
      throw new UncheckedIOException("cannot start the front proxy for s3proxy", e);
    }
    // s3proxy 4.1.0 evaluates If-Match (and, for some stores, If-None-Match) in its HTTP handler
    // and then writes, without a lock: two conditional PUTs holding the same ETag can both
    // succeed. S3 applies each write of a key atomically, so writes of one key are serialized.
    front.serializePerPath("PUT", OBJECT_TARGET);
    front.serializePerPath("DELETE", OBJECT_TARGET);
    return new S3ProxyServer(proxy, front);
  }

  private static void stopAfterFailedStart(Object proxy, Exception cause) {
    try {
      S3ProxyReflection.stop(proxy);
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /** @return {@code http://127.0.0.1:<port>} */
  public URI endpoint() {
    return endpoint;
  }

  /**
   * Serializes reads (GET, HEAD) of a key with the writes of that key too, from now on: s3proxy can
   * answer a read that overlaps a DELETE or PUT of the same key with an error (seen in the TCK's
   * delete/re-create race), where S3 answers with the old or the new state. Opt-in, because it also
   * serializes concurrent range reads of one key (Lance's data files). Idempotent.
   */
  public synchronized void serializeReadsPerKey() {
    if (!readsSerialized) {
      readsSerialized = true;
      front.serializePerPath("GET", OBJECT_TARGET);
      front.serializePerPath("HEAD", OBJECT_TARGET);
    }
  }

  /** @return the port s3proxy listens on */
  public int port() {
    return endpoint.getPort();
  }

  /** @return a shared path-style client for this server with the test identity; closed by {@link #close()} */
  public S3Client client() {
    S3Client c = client;
    if (c == null) {
      synchronized (this) {
        c = client;
        if (c == null) {
          c = newClient(endpoint);
          client = c;
        }
      }
    }
    return c;
  }

  /**
   * Builds a new path-style client with the test identity for {@code endpointOverride} (this
   * server's endpoint, or a {@code FaultProxy} in front of it). The caller closes it.
   */
  public S3Client newClient(URI endpointOverride) {
    return S3Client.builder()
        .endpointOverride(endpointOverride)
        .region(Region.of(REGION))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY)))
        .forcePathStyle(true)
        .build();
  }

  /**
   * Creates a new, empty bucket with a name no other test of this JVM uses.
   *
   * @return the bucket name
   */
  public String createBucket() {
    // bucket names: lower-case letters, digits and '-'; the pid keeps JVMs sharing nothing apart
    String name = "tb-" + Long.toString(ProcessHandle.current().pid(), 36) + "-" + BUCKETS.incrementAndGet();
    client().createBucket(b -> b.bucket(name));
    return name;
  }

  /** Stops s3proxy and closes the shared client. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    S3Client c = client;
    try {
      if (c != null) {
        c.close();
      }
    } finally {
      try {
        front.close();
      } finally {
        S3ProxyReflection.stop(proxy);
      }
    }
  }

  @Override
  public String toString() {
    return "S3ProxyServer[" + endpoint + "]";
  }
}
