package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageIoHook;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Schemes {@code broken-<defect>} (see {@link BrokenAdapters#scheme()}): {@code broken-x:///dir} is
 * the fs adapter on {@code file:///dir} with that one defect. Registered in this module's test
 * {@code META-INF/services}, so the runner finds the catalog the way it finds any adapter, and —
 * through {@link #openWithIoHook} — injects its faults at the fs adapter's real I/O points.
 */
public final class BrokenAdapterProvider implements StorageAdapterProvider {
  @Override
  public Set<String> schemes() {
    return Stream.of(BrokenAdapters.values()).map(BrokenAdapters::scheme).collect(Collectors.toSet());
  }

  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    return defect(root).breaking(StorageAdapters.open(file(root), options));
  }

  @Override
  public StorageAdapter openWithIoHook(URI root, Map<String, String> options, StorageIoHook hook)
      throws StorageException {
    return defect(root).breaking(StorageAdapters.provider("file").openWithIoHook(file(root), options, hook));
  }

  private static URI file(URI root) {
    return URI.create("file://" + root.getRawPath());
  }

  private static BrokenAdapters defect(URI root) throws StorageException {
    for (BrokenAdapters d : BrokenAdapters.values()) {
      if (d.scheme().equals(root.getScheme())) {
        return d;
      }
    }
    throw new StorageException(StorageException.Kind.CONFIGURATION, null, "no broken adapter for " + root);
  }
}
