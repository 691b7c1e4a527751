package io.omnigraph.api;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Options for {@link Omnigraph#init} and {@link Omnigraph#open}.
 *
 * @param storageOptions options for the storage adapter of the URI's scheme (for example an S3
 *     endpoint and credentials); passed to {@code StorageAdapterProvider.open}; never {@code null}
 * @param maintenance when writes through the opened handle compact by themselves
 *     (docs/maintenance.md, "Automatic maintenance"); never {@code null}
 */
public record OpenOptions(Map<String, String> storageOptions, MaintenancePolicy maintenance) {
  public OpenOptions {
    storageOptions = Map.copyOf(storageOptions);
    Objects.requireNonNull(maintenance, "maintenance");
  }

  /** Storage options and the maintenance policy of the environment ({@link MaintenancePolicy#fromEnvironment()}). */
  public OpenOptions(Map<String, String> storageOptions) {
    this(storageOptions, MaintenancePolicy.fromEnvironment());
  }

  /** @return no storage options, the maintenance policy of the environment */
  public static OpenOptions defaults() {
    return new OpenOptions(Map.of());
  }

  /** @return a copy with one more storage option ({@code key} replaced if present) */
  public OpenOptions withStorageOption(String key, String value) {
    Map<String, String> m = new TreeMap<>(storageOptions);
    m.put(key, value);
    return new OpenOptions(m, maintenance);
  }

  /** @return a copy with {@code policy} as its maintenance policy */
  public OpenOptions withMaintenance(MaintenancePolicy policy) {
    return new OpenOptions(storageOptions, policy);
  }
}
