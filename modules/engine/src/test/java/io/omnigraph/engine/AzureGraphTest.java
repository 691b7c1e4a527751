package io.omnigraph.engine;

import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The graph lifecycle on Azurite (a child process on 127.0.0.1): control files via adapter-azure,
 * tables via Lance's object_store with the adapter's account, key and endpoint.
 */
class AzureGraphTest extends ObjectStoreGraphContract {
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();

  @Override
  String freshRoot() {
    return "az://" + AZURITE.azurite().createContainer("graph") + "/graphs/g1";
  }

  @Override
  OpenOptions options() {
    return new OpenOptions(AzureAdapterOptions.forAzurite(AZURITE.azurite().blobEndpoint()));
  }
}
