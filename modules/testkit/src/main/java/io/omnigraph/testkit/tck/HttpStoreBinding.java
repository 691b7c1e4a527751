package io.omnigraph.testkit.tck;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.conformance.FaultController;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.testkit.fault.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A complete TCK binding for an HTTP object store (or its emulator): a {@link FaultProxy} in front
 * of the service, an {@link HttpFaultController} over it, residue written straight into the store.
 * What is left to a backend is how to open a fresh root at the proxy and how to write an object
 * around the adapter:
 *
 * <pre>{@code
 * new HttpStoreBinding("s3", s3.endpoint(), HttpDialects.s3(3),
 *     proxy -> { String bucket = s3.createBucket();
 *                return new Root(provider.open(URI.create("s3://" + bucket + "/tck"), optionsAt(proxy)), bucket, "tck"); },
 *     (bucket, key, bytes) -> s3.client().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes)));
 * }</pre>
 *
 * <p>Residue on object stores: a completed PUT is atomic and leaves no temp object, but another
 * tool (or a copy of a crashed local graph) can leave an object literally named
 * {@code dir/x.json#4711}; the suite plants one with the {@link RawWriter} and checks that the
 * adapter never lists it, never reads it as {@code dir/x.json}, and never lets it block
 * {@code IfAbsent}.
 *
 * <p>{@link #close()} stops the proxy and fails if the proxy itself broke (a proxy bug must not
 * pass as a backend result).
 */
public final class HttpStoreBinding implements StorageTckBinding, AutoCloseable {

  /** Opens an adapter on a fresh, empty root whose endpoint is {@code proxy}. */
  public interface RootOpener {
    /**
     * @param proxy the fault proxy's endpoint: the adapter must send every request there
     * @return the adapter and where its objects live
     */
    Root open(URI proxy) throws Exception;
  }

  /**
   * An opened root.
   *
   * @param adapter the adapter on the root
   * @param container the bucket or container of the root
   * @param prefix the key prefix of the root inside {@code container} (empty for the whole container)
   */
  public record Root(StorageAdapter adapter, String container, String prefix) {}

  /** Writes one object straight into the store, around the adapter (with the service's own client). */
  public interface RawWriter {
    /** Writes {@code bytes} as {@code key} into {@code container}. */
    void write(String container, String key, byte[] bytes) throws Exception;
  }

  private final String name;
  private final FaultProxy proxy;
  private final HttpFaultController faults;
  private final RootOpener opener;
  private final RawWriter raw;
  private final Map<StorageAdapter, Root> roots = new IdentityHashMap<>();

  /**
   * Starts a {@link FaultProxy} in front of {@code service}.
   *
   * @param name the name for reports
   * @param service the store's (or emulator's) endpoint
   * @param dialect the store's HTTP API ({@link HttpDialects})
   * @param opener opens a fresh root at the proxy
   * @param raw writes residue around the adapter
   */
  public HttpStoreBinding(String name, URI service, HttpFaultController.Dialect dialect, RootOpener opener,
      RawWriter raw) {
    this.name = name;
    try {
      this.proxy = FaultProxy.start(service);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a FaultProxy in front of " + service, e);
    }
    this.faults = new HttpFaultController(proxy, dialect);
    this.opener = opener;
    this.raw = raw;
  }

  /** @return the proxy every adapter of this binding talks to */
  public FaultProxy proxy() {
    return proxy;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StorageAdapter openEmptyRoot() throws Exception {
    Root root = opener.open(proxy.endpoint());
    synchronized (roots) {
      roots.put(root.adapter(), root);
    }
    return root.adapter();
  }

  @Override
  public void discardRoot(StorageAdapter adapter) {
    synchronized (roots) {
      roots.remove(adapter);
    }
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.of(faults);
  }

  @Override
  public Optional<ResidueMaker> residue() {
    return Optional.of((adapter, path, partialBytes) -> {
      Root root;
      synchronized (roots) {
        root = roots.get(adapter);
      }
      if (root == null) {
        throw new IllegalArgumentException("adapter was not opened by this binding: " + adapter);
      }
      String residue = path + "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
      raw.write(root.container(), root.prefix().isEmpty() ? residue : root.prefix() + "/" + residue, partialBytes);
      return residue;
    });
  }

  @Override
  public void close() {
    List<Throwable> problems = proxy.problems();
    proxy.close();
    if (!problems.isEmpty()) {
      AssertionError e = new AssertionError("FaultProxy reported " + problems.size() + " problem(s): " + problems);
      problems.forEach(e::addSuppressed);
      throw e;
    }
  }
}
