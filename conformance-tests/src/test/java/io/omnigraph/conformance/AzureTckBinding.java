package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzureFaults;
import io.omnigraph.testkit.fault.AzureRequests;
import io.omnigraph.testkit.fault.FaultProxy;
import java.net.URI;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Azure Blob adapter's TCK binding, against Azurite with a {@link FaultProxy} in between.
 *
 * <ul>
 *   <li>Each root is {@code az://<fresh container>/root}: a new container per test, and a prefix,
 *       so the adapter's prefix handling is under test too.
 *   <li>The adapter's endpoint is the proxy; the SDK's retry policy stays on ({@value #RETRIES}
 *       retry, 1 ms back-off) and every fault fires on as many consecutive matching requests as
 *       the SDK makes tries, so each fault outlives the retries and goes through the SDK's real
 *       retry and error paths.
 *   <li>Listing pages hold {@value #PAGE_SIZE} entries, so the 1,000-child listing spans ten
 *       pages and "later page" faults hit real later page requests.
 *   <li>Residue: object stores write no temp files, but a temp-named blob ({@code name#digits})
 *       can still be there (written by another tool); the binding plants one with a direct Put
 *       Blob and the suite checks that the adapter never shows it.
 * </ul>
 */
final class AzureTckBinding implements StorageTckBinding, AutoCloseable {
  static final int PAGE_SIZE = 100;
  static final int RETRIES = 1;
  private static final int TRIES = RETRIES + 1;
  private static final String PREFIX = "root";
  private static final String ACCOUNT = "/" + Azurite.ACCOUNT_NAME;
  private static final AzureRequests REQUESTS = AzureRequests.anyContainer(Azurite.ACCOUNT_NAME);

  private final Azurite azurite;
  private final StorageAdapterProvider provider;
  private final FaultProxy proxy;
  private final HttpFaultController faults;
  private final Map<StorageAdapter, String> containers = new IdentityHashMap<>();

  AzureTckBinding(Azurite azurite, StorageAdapterProvider provider) throws Exception {
    this.azurite = azurite;
    this.provider = provider;
    this.proxy = FaultProxy.start(azurite.endpoint());
    this.faults = new HttpFaultController(proxy, dialect());
  }

  @Override
  public String name() {
    return "azure";
  }

  @Override
  public synchronized StorageAdapter openEmptyRoot() throws Exception {
    String container = azurite.createContainer("tck");
    StorageAdapter adapter = provider.open(URI.create("az://" + container + "/" + PREFIX), Map.of(
        "account", Azurite.ACCOUNT_NAME, "account-key", Azurite.ACCOUNT_KEY,
        "endpoint", proxy.endpoint() + ACCOUNT, "allow-http", "true",
        "list-page-size", Integer.toString(PAGE_SIZE),
        "max-retries", Integer.toString(RETRIES), "retry-delay-ms", "1"));
    containers.put(adapter, container);
    return adapter;
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.of(faults);
  }

  @Override
  public Optional<ResidueMaker> residue() {
    return Optional.of((adapter, path, partialBytes) -> {
      String container;
      synchronized (this) {
        container = containers.get(adapter);
      }
      if (container == null) {
        throw new IllegalArgumentException("adapter was not opened by this binding: " + adapter);
      }
      String name = path + "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
      azurite.putBlob(container, PREFIX + "/" + name, partialBytes);
      return name;
    });
  }

  /** Stops the proxy; fails if the proxy itself broke (a proxy bug must not pass as a backend result). */
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

  /** The Blob service REST API, as {@link HttpFaultController} selects and fails it; every fault outlives the SDK's tries. */
  static HttpFaultController.Dialect dialect() {
    return new HttpFaultController.Dialect(Map.of(
        FaultController.Operation.READ, new HttpFaultController.Request("GET", REQUESTS.anyBlob()),
        FaultController.Operation.EXISTS, new HttpFaultController.Request("HEAD", REQUESTS.anyBlob()),
        FaultController.Operation.PUT, new HttpFaultController.Request("PUT", REQUESTS.anyBlob()),
        FaultController.Operation.DELETE, new HttpFaultController.Request("DELETE", REQUESTS.anyBlob()),
        FaultController.Operation.LIST_PAGE, new HttpFaultController.Request("GET", REQUESTS.listing())),
        AzureFaults.error(503, "ServerBusy"), AzureFaults.error(403, "AuthorizationPermissionMismatch"), TRIES);
  }
}
