package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a {@code *CloudTck} class runs on a real bucket or container: one run prefix
 * {@code <scheme>://<bucket>/<prefix>/tck-<millis>} and a fresh sub-root {@code t<n>} per test,
 * with adapter options read from environment variables; the run prefix is deleted afterwards.
 */
final class CloudRun {
  private final String name;
  private final String base;
  private final Map<String, String> options;
  private final AtomicInteger next = new AtomicInteger();

  private CloudRun(String name, String base, Map<String, String> options) {
    this.name = name;
    this.base = base;
    this.options = options;
  }

  /**
   * @param name the binding's name in reports
   * @param scheme {@code s3}, {@code gs} or {@code az}
   * @param bucketEnv the variable naming the bucket or container (required; the class is disabled without it)
   * @param prefixEnv the variable naming the prefix (default {@code omnigraph-tck})
   * @param envToOption optional variables and the adapter option each one sets, when set and not blank
   * @return the run, with {@code list-page-size=100} so listings cross pages
   */
  static CloudRun fromEnvironment(String name, String scheme, String bucketEnv, String prefixEnv,
      Map<String, String> envToOption) {
    Map<String, String> options = new LinkedHashMap<>();
    envToOption.forEach((env, option) -> {
      String v = System.getenv(env);
      if (v != null && !v.isBlank()) {
        options.put(option, v.trim());
      }
    });
    options.put("list-page-size", "100");
    String prefix = System.getenv().getOrDefault(prefixEnv, "omnigraph-tck");
    String base = scheme + "://" + System.getenv(bucketEnv).trim() + "/" + prefix + "/tck-" + System.currentTimeMillis();
    return new CloudRun(name, base, options);
  }

  /** @return a binding whose every root is a new, empty sub-root of the run */
  StorageTckBinding binding() {
    return new StorageTckBinding() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public StorageAdapter openEmptyRoot() throws StorageException {
        return StorageAdapters.open(URI.create(base + "/t" + next.incrementAndGet()), options);
      }
    };
  }

  /** Deletes everything the run wrote. */
  void deleteRunPrefix() throws StorageException {
    try (StorageAdapter run = StorageAdapters.open(URI.create(base), options)) {
      run.deletePrefix("");
    }
  }
}
