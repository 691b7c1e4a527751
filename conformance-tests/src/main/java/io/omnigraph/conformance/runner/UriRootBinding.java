package io.omnigraph.conformance.runner;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.conformance.StorageTckBinding;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Binds the suite to sub-prefixes of a user's URI: each test gets {@code <uri>/<run>/t<n>}, a
 * prefix no earlier test or run used, so it starts empty. No fault controller and no residue maker:
 * a vendor's real storage cannot be made to fail on cue, so those tests are reported as skipped.
 */
final class UriRootBinding implements StorageTckBinding {
  private final String base;
  private final String runPrefix;
  private final Map<String, String> options;
  private final AtomicInteger next = new AtomicInteger();

  UriRootBinding(URI baseUri, String runPrefix, Map<String, String> options) {
    String s = baseUri.toString();
    this.base = s.endsWith("/") ? s : s + "/";
    this.runPrefix = runPrefix;
    this.options = Map.copyOf(options);
  }

  @Override
  public String name() {
    return base;
  }

  @Override
  public StorageAdapter openEmptyRoot() throws StorageException {
    return StorageAdapters.open(URI.create(base + runPrefix + "/t" + next.incrementAndGet()), options);
  }
}
