/**
 * OmniGraph's local file-system storage adapter (scheme {@code file}, and plain local paths through
 * {@link io.omnigraph.api.storage.StorageAdapters#toUri}).
 *
 * <p>Exports nothing: it is found with {@link java.util.ServiceLoader} and used only through the SPI.
 */
module io.omnigraph.adapter.fs {
  requires io.omnigraph.api;

  provides io.omnigraph.api.storage.StorageAdapterProvider with io.omnigraph.adapter.fs.FsStorageAdapterProvider;
}
