/**
 * OmniGraph's public API and the storage adapter SPI.
 *
 * <p>{@code io.omnigraph.api} is what applications use ({@link io.omnigraph.api.Omnigraph},
 * {@link io.omnigraph.api.Graph}, the sealed {@link io.omnigraph.api.OmnigraphException} family);
 * the engine is found through {@link io.omnigraph.api.GraphEngine} with {@link java.util.ServiceLoader}.
 * {@code io.omnigraph.api.storage} is the contract every storage backend implements; adapters
 * are found with {@link java.util.ServiceLoader} through
 * {@link io.omnigraph.api.storage.StorageAdapters}.
 */
module io.omnigraph.api {
  exports io.omnigraph.api;
  exports io.omnigraph.api.storage;

  uses io.omnigraph.api.GraphEngine;
  uses io.omnigraph.api.storage.StorageAdapterProvider;
}
