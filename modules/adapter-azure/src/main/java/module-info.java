/**
 * OmniGraph's Azure Blob Storage adapter (schemes {@code az} and {@code abfss}), found through
 * {@link io.omnigraph.api.storage.StorageAdapterProvider}. Exports nothing.
 */
module io.omnigraph.adapter.azure {
  requires io.omnigraph.api;
  requires com.azure.core;
  requires com.azure.http.netty;
  requires com.azure.storage.blob;
  requires com.azure.storage.common;
  requires com.azure.identity;
  requires reactor.core;

  provides io.omnigraph.api.storage.StorageAdapterProvider with io.omnigraph.adapter.azure.AzureBlobStorageProvider;
}
