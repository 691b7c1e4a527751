package io.omnigraph.api;

import java.util.Map;
import java.util.TreeMap;

/**
 * Options for {@link Omnigraph#init} and {@link Omnigraph#open}.
 *
 * @param storageOptions options for the storage adapter of the URI's scheme (for example an S3
 *     endpoint and credentials); passed to {@code StorageAdapterProvider.open}; never {@code null}
 */
public record OpenOptions(Map<String, String> storageOptions) {
  public OpenOptions {
    storageOptions = Map.copyOf(storageOptions);
  }

  /** @return no storage options */
  public static OpenOptions defaults() {
    return new OpenOptions(Map.of());
  }

  /** @return a copy with one more storage option ({@code key} replaced if present) */
  public OpenOptions withStorageOption(String key, String value) {
    Map<String, String> m = new TreeMap<>(storageOptions);
    m.put(key, value);
    return new OpenOptions(m);
  }
}
