package io.omnigraph.adapter.azure;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * Azure Blob Storage ({@code azure-storage-blob}) behind the storage SPI.
 *
 * <p>Roots: {@code az://container/prefix} with the account from option {@code account} (or a
 * connection string), and {@code abfss://container@account.dfs.core.windows.net/prefix}. Options
 * are listed in docs/storage-adapters.md ("Azure Blob"); unknown ones are refused.
 *
 * <p>Opening makes one request (Get Container Properties), so a missing container, an unreachable
 * endpoint or a refused credential fail here. A credential the service accepts but that may not
 * read container properties (a SAS for blobs only) is let through; every operation maps its own
 * failures, a container deleted later included.
 */
public final class AzureBlobStorageProvider implements StorageAdapterProvider {
  static final Set<String> SCHEMES = Set.of("az", "abfss");

  /** Public no-argument constructor for {@link java.util.ServiceLoader}. */
  public AzureBlobStorageProvider() {}

  @Override
  public Set<String> schemes() {
    return SCHEMES;
  }

  @Override
  public Set<String> optionKeys() {
    return AzureOptions.KEYS;
  }

  /**
   * @throws StorageException {@code CONFIGURATION} for a malformed root, an unknown or malformed
   *     option, contradicting options, a plain-HTTP endpoint without {@code allow-http=true}, a
   *     missing container, an unreachable endpoint or no available credential; {@code PERMISSION}
   *     when the service refuses the credential
   */
  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    AzureRoot parsed = AzureRoot.parse(root);
    AzureOptions opts = AzureOptions.parse(parsed, options == null ? Map.of() : options);
    AzureBlobStorageAdapter adapter = new AzureBlobStorageAdapter(parsed, opts);
    adapter.verifyContainer();
    return adapter;
  }
}
