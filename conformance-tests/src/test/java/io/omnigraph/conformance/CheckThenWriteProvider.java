package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.WriteCondition;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * Scheme {@code broken-ifabsent}: the fs adapter with a check-then-write IfAbsent. Registered in
 * this module's test {@code META-INF/services}, so {@code TckRunnerIT} can put the test classes next
 * to the runner jar and watch the runner report a failure and exit 1.
 */
public final class CheckThenWriteProvider implements StorageAdapterProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("broken-ifabsent");
  }

  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    StorageAdapter fs = StorageAdapters.open(URI.create("file://" + root.getRawPath()), options);
    return new ForwardingStorageAdapter(fs) {
      @Override
      public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
        if (!(condition instanceof WriteCondition.IfAbsent)) {
          return inner.put(path, bytes, condition);
        }
        if (inner.exists(path)) {
          throw StorageException.preconditionFailed(path, "exists", null);
        }
        try {
          Thread.sleep(200); // stands for request latency; makes the lost race reproducible
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StorageException(StorageException.Kind.PERMANENT, path, "interrupted", e);
        }
        return inner.put(path, bytes, WriteCondition.overwrite());
      }
    };
  }
}
