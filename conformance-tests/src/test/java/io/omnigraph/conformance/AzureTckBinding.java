package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.testkit.azure.AzureFaults;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.fault.ArmedFault;
import io.omnigraph.testkit.fault.AzureRequests;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import java.net.URI;
import java.util.ArrayList;
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
  private static final String BLOB = AzureRequests.anyContainer(Azurite.ACCOUNT_NAME).anyBlob();
  private static final String LIST = AzureRequests.anyContainer(Azurite.ACCOUNT_NAME).listing();

  private final Azurite azurite;
  private final StorageAdapterProvider provider;
  private final FaultProxy proxy;
  private final ProxyFaults faults;
  private final Map<StorageAdapter, String> containers = new IdentityHashMap<>();

  AzureTckBinding(Azurite azurite, StorageAdapterProvider provider) throws Exception {
    this.azurite = azurite;
    this.provider = provider;
    this.proxy = FaultProxy.start(azurite.endpoint());
    this.faults = new ProxyFaults(proxy);
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

  /** One-shot faults on the proxy; each fires on every try the SDK makes of the selected request. */
  static final class ProxyFaults implements FaultController {
    private final FaultProxy proxy;
    private final List<ArmedFault> armed = new ArrayList<>();

    ProxyFaults(FaultProxy proxy) {
      this.proxy = proxy;
    }

    private static Fault serverBusy() {
      return AzureFaults.error(503, "ServerBusy");
    }

    private synchronized void arm(FaultRule rule) {
      armed.add(proxy.arm(rule));
    }

    @Override
    public void failListPage(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("page numbers start at 1: " + n);
      }
      arm(FaultRule.on("GET", LIST).nth(n).times(TRIES).then(serverBusy()));
    }

    @Override
    public void failNextPut() {
      arm(FaultRule.on("PUT", BLOB).times(TRIES).then(serverBusy()));
    }

    @Override
    public void failNextDelete() {
      arm(FaultRule.on("DELETE", BLOB).times(TRIES).then(serverBusy()));
    }

    @Override
    public void applyNextPutThenFail() {
      // Forward (the write takes effect), then reset the connection; the SDK's retry is forwarded
      // and dropped too, so the adapter sees only lost responses.
      arm(FaultRule.on("PUT", BLOB).times(TRIES).then(new Fault.ForwardThenDrop()));
    }

    @Override
    public synchronized List<String> unfired() {
      List<String> out = new ArrayList<>();
      for (ArmedFault f : armed) {
        if (f.fired() == 0) {
          out.add(f.toString());
        }
      }
      return out;
    }

    @Override
    public synchronized void reset() {
      proxy.disarmAll();
      armed.clear();
    }
  }
}
