package io.omnigraph.conformance;

import io.omnigraph.testkit.azure.AzuriteExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Azure Blob adapter against the whole contract on Azurite, the adapter and the Azure SDK
 * loaded as named modules in their own layer (see {@link AdapterModules}).
 */
class AzureTckOnModulePathTest extends StorageAdapterContract {
  @RegisterExtension
  static final AzuriteExtension AZURITE = new AzuriteExtension();

  private static AzureTckBinding binding;

  @BeforeAll
  static void startBinding() throws Exception {
    binding = new AzureTckBinding(AZURITE.azurite(), AdapterModules.onModulePath("az"));
  }

  @AfterAll
  static void stopBinding() {
    if (binding != null) {
      binding.close();
    }
  }

  @Override
  protected StorageTckBinding binding() {
    return binding;
  }
}
