package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where a {@code *CloudTck} class runs on a real bucket or container: one run prefix
 * {@code <scheme>://<bucket>/<prefix>/tck-<millis>} and a fresh sub-root {@code t<n>} per test,
 * with adapter options read from environment variables; the run prefix is deleted afterwards.
 * Registered as the class's static {@code @RegisterExtension} field: the variables are read before
 * the class runs (never when it is disabled for want of them), and the run prefix is deleted after it.
 */
final class CloudRun implements BeforeAllCallback, AfterAllCallback {
  private final String name;
  private final String scheme;
  private final String bucketEnv;
  private final String prefixEnv;
  private final Map<String, String> envToOption;
  private final AtomicInteger next = new AtomicInteger();
  /** JUnit calls before/afterAll again for each {@code @Nested} contract group; only the outermost pair counts. */
  private int classDepth;
  private String base;
  private Map<String, String> options;

  /**
   * @param name the binding's name in reports
   * @param scheme {@code s3}, {@code gs} or {@code az}
   * @param bucketEnv the variable naming the bucket or container (required; the class is disabled without it)
   * @param prefixEnv the variable naming the prefix (default {@code omnigraph-tck})
   * @param envToOption optional variables and the adapter option each one sets, when set and not blank;
   *     {@code list-page-size=100} is added so that listings cross pages
   */
  CloudRun(String name, String scheme, String bucketEnv, String prefixEnv, Map<String, String> envToOption) {
    this.name = name;
    this.scheme = scheme;
    this.bucketEnv = bucketEnv;
    this.prefixEnv = prefixEnv;
    this.envToOption = Map.copyOf(envToOption);
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) {
    if (classDepth++ > 0) {
      return;
    }
    Map<String, String> opts = new LinkedHashMap<>();
    envToOption.forEach((env, option) -> {
      String v = System.getenv(env);
      if (v != null && !v.isBlank()) {
        opts.put(option, v.trim());
      }
    });
    opts.put("list-page-size", "100");
    options = opts;
    String prefix = System.getenv().getOrDefault(prefixEnv, "omnigraph-tck");
    base = scheme + "://" + System.getenv(bucketEnv).trim() + "/" + prefix + "/tck-" + System.currentTimeMillis();
  }

  /** Deletes everything the run wrote. */
  @Override
  public synchronized void afterAll(ExtensionContext context) throws StorageException {
    if (--classDepth > 0 || base == null) {
      return;
    }
    try (StorageAdapter run = StorageAdapters.open(URI.create(base), options)) {
      run.deletePrefix("");
    }
  }

  /** @return a binding whose every root is a new, empty sub-root of the run */
  StorageTckBinding binding() {
    String root;
    Map<String, String> opts;
    synchronized (this) {
      if (base == null) {
        throw new IllegalStateException("CloudRun is not started: register it as a static @RegisterExtension field");
      }
      root = base;
      opts = options;
    }
    return new StorageTckBinding() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public StorageAdapter openEmptyRoot() throws StorageException {
        return StorageAdapters.open(URI.create(root + "/t" + next.incrementAndGet()), opts);
      }
    };
  }
}
