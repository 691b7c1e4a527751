package io.omnigraph.adapter.azure;

import io.omnigraph.conformance.AdapterPath;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteExtension;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpStoreBinding;
import java.net.URI;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Azure Blob adapter against the whole storage contract (docs/tck.md), loaded as the named
 * module under test and again from the class path, on Azurite: a fresh container per test with the
 * root one prefix down, every request through a FaultProxy (the SDK keeps 1 retry with 1 ms
 * back-off; each fault outlives both tries), residue written with a direct Put Blob. Pages of 100.
 */
@ParameterizedClass
@EnumSource(AdapterPath.class)
class AzureTckTest extends StorageAdapterContract {
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();
  private static final Map<AdapterPath, HttpStoreBinding> BINDINGS = new EnumMap<>(AdapterPath.class);
  @Parameter AdapterPath path;

  @Override
  protected StorageTckBinding binding() {
    synchronized (BINDINGS) {
      if (!BINDINGS.containsKey(path)) {
        BINDINGS.put(path, bind(AZURITE.azurite()));
      }
      return BINDINGS.get(path);
    }
  }

  private HttpStoreBinding bind(Azurite azurite) {
    try {
      var provider = path.provider("az");
      return new HttpStoreBinding("azure (" + path + ")", azurite.endpoint(), HttpDialects.azure(Azurite.ACCOUNT_NAME, 2),
          proxy -> {
            String container = azurite.createContainer("tck");
            return new HttpStoreBinding.Root(provider.open(URI.create("az://" + container + "/root"),
                AzureAdapterOptions.forAzurite(proxy + "/" + Azurite.ACCOUNT_NAME, "list-page-size", "100",
                    "max-retries", "1", "retry-delay-ms", "1")), container, "root");
          }, azurite::putBlob);
    } catch (Exception e) {
      throw new AssertionError("cannot bind the 'az' provider " + path, e);
    }
  }

  @AfterAll
  static void closeProxies() {
    synchronized (BINDINGS) {
      BINDINGS.values().forEach(HttpStoreBinding::close);
      BINDINGS.clear();
    }
  }
}
