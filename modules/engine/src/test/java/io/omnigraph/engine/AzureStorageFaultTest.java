package io.omnigraph.engine;

import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteClients;
import io.omnigraph.testkit.azure.AzureFaults;
import io.omnigraph.testkit.azure.AzuriteExtension;
import io.omnigraph.testkit.fault.AzureRequests;
import io.omnigraph.testkit.fault.Fault;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The storage-fault contract on Azurite behind a FaultProxy. A failed request is Azure's
 * {@code 503 ServerBusy} on every try of the SDK's retry policy ({@value #RETRIES} retry, 1 ms
 * back-off): {@code TRANSIENT}. The SDK percent-encodes the whole blob name, {@code /} included,
 * so a sidecar's target is {@code /<account>/<container>/graphs%2Fg1%2F__recovery%2F<id>.json}.
 */
class AzureStorageFaultTest extends ProxiedStorageFaultContract {
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();
  static final int RETRIES = 1;

  private String container;

  @Override
  String freshRoot() {
    container = AZURITE.azurite().createContainer("faults");
    return "az://" + container + "/" + PREFIX;
  }

  @Override
  URI upstream() {
    return AZURITE.azurite().endpoint();
  }

  @Override
  String endpoint(URI base) {
    return base + "/" + Azurite.ACCOUNT_NAME;
  }

  @Override
  Map<String, String> options(String endpoint) {
    return AzureAdapterOptions.forAzurite(endpoint, "max-retries", Integer.toString(RETRIES), "retry-delay-ms", "1");
  }

  @Override
  String target(SidecarIo io) {
    AzureRequests az = AzureRequests.in(Azurite.ACCOUNT_NAME, container);
    return switch (io) {
      case PUT, PUT_RESPONSE_LOST, DELETE, READ -> az.blobIn(RECOVERY_DIR);
      case LIST -> az.listing(RECOVERY_DIR);
    };
  }

  @Override
  Fault failure() {
    return AzureFaults.error(503, "ServerBusy");
  }

  @Override
  void plantRaw(String root, String name, byte[] bytes) {
    AZURITE.azurite().putBlob(container, PREFIX + "/" + name, bytes);
  }

  @Override
  boolean rawExists(String root, String name) throws ReflectiveOperationException {
    // The engine's test module does not read com.azure.storage.blob (only adapter-azure does), so the
    // test kit's SDK client is driven reflectively; core reflection assumes readability.
    Object client = AzuriteClients.containerClient(AZURITE.azurite(), container);
    Object blob = client.getClass().getMethod("getBlobClient", String.class).invoke(client, PREFIX + "/" + name);
    return (Boolean) blob.getClass().getMethod("exists").invoke(blob);
  }
}
