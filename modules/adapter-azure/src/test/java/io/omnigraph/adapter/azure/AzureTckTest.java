package io.omnigraph.adapter.azure;

import io.omnigraph.conformance.AdapterPath;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteExtension;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpStoreBinding;
import io.omnigraph.testkit.tck.HttpStoreBindings;
import java.net.URI;
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
  @RegisterExtension static final HttpStoreBindings BINDINGS = new HttpStoreBindings(AzureTckTest::bind);
  @Parameter AdapterPath path;

  @Override
  protected StorageTckBinding binding() {
    return BINDINGS.of(path);
  }

  private static HttpStoreBinding bind(AdapterPath path) throws Exception {
    Azurite azurite = AZURITE.azurite();
    var provider = path.provider("az");
    return new HttpStoreBinding("azure (" + path + ")", azurite.endpoint(), HttpDialects.azure(Azurite.ACCOUNT_NAME, 2),
        proxy -> {
          String container = azurite.createContainer("tck");
          return new HttpStoreBinding.Root(provider.open(URI.create("az://" + container + "/root"),
              AzureAdapterOptions.forAzurite(proxy + "/" + Azurite.ACCOUNT_NAME, "list-page-size", "100",
                  "max-retries", "1", "retry-delay-ms", "1")), container, "root");
        }, azurite::putBlob);
  }
}
