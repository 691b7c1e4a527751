package io.omnigraph.testkit.gcs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An in-memory Google Cloud Storage emulator on {@code 127.0.0.1} and a random port, speaking
 * both APIs a JVM test needs:
 * <ul>
 *   <li>the JSON API subset google-cloud-storage 2.x uses ({@code /storage/v1}, {@code /upload/...},
 *       {@code /download/...}): point {@code StorageOptions.setHost(baseUrl())} at it;</li>
 *   <li>the XML API subset the Rust {@code object_store} crate uses, which is how Lance reaches
 *       {@code gs://}: give Lance a service-account key with {@code "gcs_base_url": baseUrl()}
 *       and {@code "disable_oauth": true}.</li>
 * </ul>
 * Both views share one store. Generations strictly increase; preconditions
 * ({@code ifGenerationMatch}, {@code ifGenerationNotMatch}, metageneration, and the XML
 * {@code x-goog-if-generation-match}) are checked atomically with the write they guard.
 *
 * <p>It never answers 5xx or 429 in normal operation (clients would back off and retry for
 * minutes); an unimplemented request gets 501, is logged, and is recorded in
 * {@link #unsupportedRequests()} so a test can assert that none happened.
 *
 * <p>Test switches: {@link #denyAccess(String, boolean)} answers 403 for one bucket,
 * {@link #requireAuthorization(boolean)} answers 401 to requests without an
 * {@code Authorization} header.
 */
public final class GcsEmulator implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(GcsEmulator.class.getName());
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private final HttpServer server;
  private final ExecutorService executor;
  private final GcsStore store = new GcsStore();
  private final JsonApi json = new JsonApi(store);
  private final XmlApi xml = new XmlApi(store);
  private final List<String> requests = new ArrayList<>();
  private final List<String> unsupported = new ArrayList<>();
  private volatile boolean requireAuthorization;
  private volatile boolean closed;

  private GcsEmulator(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts an emulator on the loopback interface and an OS-assigned port.
   *
   * @throws IOException when the listener cannot be bound
   */
  public static GcsEmulator start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger threads = new AtomicInteger();
    ExecutorService executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "gcs-emulator-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    GcsEmulator emulator = new GcsEmulator(server, executor);
    server.createContext("/", emulator::dispatch);
    server.setExecutor(executor);
    server.start();
    return emulator;
  }

  /** @return {@code http://127.0.0.1:<port>}, without a trailing slash */
  public String baseUrl() {
    InetSocketAddress a = server.getAddress();
    return "http://" + a.getAddress().getHostAddress() + ":" + a.getPort();
  }

  /** @return the port the emulator listens on */
  public int port() {
    return server.getAddress().getPort();
  }

  /** @return the project id tests should configure (the emulator accepts any) */
  public String projectId() {
    return "test-project";
  }

  /**
   * Creates a bucket.
   *
   * @throws IllegalStateException when it already exists
   */
  public void createBucket(String name) {
    if (!store.createBucket(name)) {
      throw new IllegalStateException("bucket already exists: " + name);
    }
  }

  /** Creates a bucket with a fresh unique name and returns the name. */
  public String createBucket() {
    String name = "bucket-" + BUCKETS.incrementAndGet() + "-" + Long.toHexString(System.nanoTime());
    createBucket(name);
    return name;
  }

  /**
   * Deletes an empty bucket, as a test's "someone removed the bucket" step.
   *
   * @throws IllegalStateException when the bucket is missing or not empty
   */
  public void deleteBucket(String name) {
    try {
      store.deleteBucket(name);
    } catch (GcsError e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * Writes an object directly (no HTTP), as another tool would have left it, e.g. a
   * {@code dir/} "folder" placeholder.
   *
   * @return the new generation
   */
  public long putObject(String bucket, String name, byte[] data) {
    return store.put(bucket, name, data.clone(), null, java.util.Map.of(), Preconditions.NONE).generation();
  }

  /** @return whether the bucket exists */
  public boolean bucketExists(String name) {
    return store.bucketExists(name);
  }

  /** Makes every request on {@code bucket} fail with 403 (or succeed again with {@code false}). */
  public void denyAccess(String bucket, boolean denied) {
    store.deny(bucket, denied);
  }

  /** With {@code true}, requests without an {@code Authorization} header get 401. */
  public void requireAuthorization(boolean required) {
    this.requireAuthorization = required;
  }

  /** @return the names of every live object in {@code bucket}, in listing order */
  public List<String> objectNames(String bucket) {
    return store.names(bucket);
  }

  /** @return the bytes of a live object, or {@code null} when it does not exist */
  public byte[] objectBytes(String bucket, String name) {
    GcsStore.Blob b = store.get(bucket, name);
    return b == null ? null : b.data().clone();
  }

  /** @return the live generation of an object, or 0 when it does not exist */
  public long generation(String bucket, String name) {
    GcsStore.Blob b = store.get(bucket, name);
    return b == null ? 0 : b.generation();
  }

  /** @return every request received so far, as {@code "METHOD /raw/path?rawQuery"} */
  public List<String> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** Forgets the recorded requests. */
  public void clearRequests() {
    synchronized (requests) {
      requests.clear();
    }
  }

  /** @return every request the emulator could not serve (answered 501), as {@code "METHOD path: why"} */
  public List<String> unsupportedRequests() {
    synchronized (unsupported) {
      return List.copyOf(unsupported);
    }
  }

  /** Forgets the recorded unsupported requests (for tests that provoke one on purpose). */
  public void clearUnsupportedRequests() {
    synchronized (unsupported) {
      unsupported.clear();
    }
  }

  /** Stops the listener and its threads. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      server.stop(0);
      executor.shutdownNow();
    }
  }

  private void dispatch(HttpExchange http) throws IOException {
    Exchange ex = new Exchange(http);
    String line = ex.method + " " + ex.rawPath
        + (http.getRequestURI().getRawQuery() == null ? "" : "?" + http.getRequestURI().getRawQuery());
    synchronized (requests) {
      if (requests.size() < 100_000) {
        requests.add(line);
      }
    }
    boolean isJson = JsonApi.handles(ex.rawPath);
    try {
      if (requireAuthorization && ex.header("Authorization") == null) {
        throw GcsError.unauthorized();
      }
      if (isJson) {
        json.handle(ex);
      } else {
        xml.handle(ex);
      }
    } catch (GcsError e) {
      if (e.status == 501) {
        record(line + ": " + e.getMessage());
      }
      replyError(ex, e, isJson);
    } catch (RuntimeException | IOException e) {
      // An emulator bug must fail the test fast: 501 is never retried by the clients.
      LOG.log(Level.WARNING, "GCS emulator failed on " + line, e);
      record(line + ": " + e);
      if (!ex.replied()) {
        replyError(ex, GcsError.unsupported(line + " (" + e + ")"), isJson);
      }
    } finally {
      http.close();
    }
  }

  private void record(String what) {
    LOG.warning("GCS emulator: unsupported request " + what);
    synchronized (unsupported) {
      unsupported.add(what);
    }
  }

  private static void replyError(Exchange ex, GcsError e, boolean json) throws IOException {
    if (ex.replied()) {
      return;
    }
    if (e.status == 304) {
      ex.reply(304, null, new byte[0]);
    } else if (json) {
      ex.reply(e.status, "application/json; charset=UTF-8", JsonApi.errorBody(e));
    } else {
      ex.reply(e.status, "application/xml; charset=UTF-8", XmlApi.errorBody(e).getBytes(StandardCharsets.UTF_8));
    }
  }
}
