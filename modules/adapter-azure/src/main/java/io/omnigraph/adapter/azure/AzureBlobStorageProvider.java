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
 * are listed in the README ("Storage adapters: options", Azure); unknown ones are refused.
 *
 * <p>Opening makes no request: a missing container, a bad endpoint or refused credentials surface
 * at the first request as {@code CONFIGURATION} or {@code PERMISSION}, so an adapter can be
 * opened with credentials that may only read or write blobs (a SAS scoped below the container).
 */
public final class AzureBlobStorageProvider implements StorageAdapterProvider {
  static final Set<String> SCHEMES = Set.of("az", "abfss");

  /** Public no-argument constructor for {@link java.util.ServiceLoader}. */
  public AzureBlobStorageProvider() {}

  @Override
  public Set<String> schemes() {
    return SCHEMES;
  }

  /**
   * @throws StorageException {@code CONFIGURATION} for a malformed root, an unknown or malformed
   *     option, contradicting options, or a plain-HTTP endpoint without {@code allow-http=true}
   */
  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    AzureRoot parsed = AzureRoot.parse(root);
    AzureOptions opts = AzureOptions.parse(parsed, options == null ? Map.of() : options);
    return new AzureBlobStorageAdapter(parsed, opts);
  }
}
