package io.omnigraph.testkit.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;

/**
 * Azure SDK clients for a running {@link Azurite}, for tests that inspect or prepare blobs behind
 * the adapter's back. Kept apart from {@link Azurite} so that starting the emulator never needs
 * the SDK.
 */
public final class AzuriteClients {
  private AzuriteClients() {}

  /** @return a new service client for the development account at {@code azurite} */
  public static BlobServiceClient serviceClient(Azurite azurite) {
    return new BlobServiceClientBuilder().connectionString(azurite.connectionString()).buildClient();
  }

  /** @return a client for {@code container} at {@code azurite} */
  public static BlobContainerClient containerClient(Azurite azurite, String container) {
    return serviceClient(azurite).getBlobContainerClient(container);
  }
}
