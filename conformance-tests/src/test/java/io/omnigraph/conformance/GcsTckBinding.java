package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.GcsRequests;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsFaults;
import java.net.URI;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The GCS adapter's TCK binding: one in-repo {@link GcsEmulator} and one {@link FaultProxy} in
 * front of it per test class, a fresh {@code gs://<bucket>/<uuid>} prefix per test. The adapter
 * talks to the proxy, so every fault passes through google-cloud-storage's real retry and
 * error-mapping code. {@code max-attempts=1} keeps an emulator bug from hiding behind retries.
 *
 * <p>Residue: object stores write atomically, so there is no temp file of GCS's own; the residue
 * is an object literally named {@code <path>#<digits>} (what another tool, or the fs layout
 * copied into a bucket, would leave), which the adapter must hide and refuse like the fs adapter.
 *
 * <p>Listing pages are {@value #PAGE_SIZE} entries, so the 1,000-child listing spans ten pages.
 */
final class GcsTckBinding implements StorageTckBinding {
  static final int PAGE_SIZE = 100;

  private static final GcsRequests REQUESTS = GcsRequests.anyBucket();

  private final StorageAdapterProvider provider;
  private final GcsEmulator emulator;
  private final FaultProxy proxy;
  private final String bucket;
  private final Map<StorageAdapter, String> prefixes = new IdentityHashMap<>();
  private final HttpFaultController faults;

  GcsTckBinding(StorageAdapterProvider provider, GcsEmulator emulator, FaultProxy proxy, String bucket) {
    this.provider = provider;
    this.emulator = emulator;
    this.proxy = proxy;
    this.bucket = bucket;
    this.faults = new HttpFaultController(proxy, dialect());
  }

  @Override
  public String name() {
    return "gcs";
  }

  @Override
  public synchronized StorageAdapter openEmptyRoot() throws Exception {
    String prefix = "tck-" + UUID.randomUUID();
    StorageAdapter adapter = provider.open(URI.create("gs://" + bucket + "/" + prefix), Map.of(
        "endpoint", proxy.endpoint().toString(),
        "project-id", emulator.projectId(),
        "credentials", "no-auth",
        "max-attempts", "1",
        "list-page-size", Integer.toString(PAGE_SIZE)));
    prefixes.put(adapter, prefix);
    return adapter;
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.of(faults);
  }

  @Override
  public Optional<ResidueMaker> residue() {
    return Optional.of((adapter, path, partialBytes) -> {
      String prefix;
      synchronized (this) {
        prefix = prefixes.get(adapter);
      }
      if (prefix == null) {
        throw new IllegalArgumentException("adapter was not opened by this binding: " + adapter);
      }
      String name = path + "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
      emulator.putObject(bucket, prefix + "/" + name, partialBytes);
      return name;
    });
  }

  /** The GCS JSON API, as {@link HttpFaultController} selects and fails it ({@code max-attempts=1}: one try). */
  static HttpFaultController.Dialect dialect() {
    return new HttpFaultController.Dialect(Map.of(
        FaultController.Operation.READ, new HttpFaultController.Request("GET", REQUESTS.anyDownload()),
        FaultController.Operation.EXISTS, new HttpFaultController.Request("GET", REQUESTS.anyObject()),
        FaultController.Operation.PUT, new HttpFaultController.Request("POST", REQUESTS.upload()),
        FaultController.Operation.DELETE, new HttpFaultController.Request("DELETE", REQUESTS.anyObject()),
        FaultController.Operation.LIST_PAGE, new HttpFaultController.Request("GET", REQUESTS.listing())),
        GcsFaults.jsonError(503, "backendError"), GcsFaults.jsonError(403, "forbidden"), 1);
  }
}
