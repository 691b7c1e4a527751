package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** Options and opening helpers shared by the adapter's tests. */
final class S3Fixture {
  private S3Fixture() {}

  /** Adapter options for s3proxy (or a FaultProxy in front of it) at {@code endpoint}. */
  static Map<String, String> options(URI endpoint, String... extra) {
    Map<String, String> o = new HashMap<>(S3AdapterOptions.forEmulator(endpoint));
    for (int i = 0; i < extra.length; i += 2) {
      if (extra[i + 1] == null) {
        o.remove(extra[i]);
      } else {
        o.put(extra[i], extra[i + 1]);
      }
    }
    return o;
  }

  /** Opens {@code s3://bucket/prefix} through {@link StorageAdapters} (provider discovery). */
  static StorageAdapter open(String bucket, String prefix, URI endpoint, String... extra) throws StorageException {
    return StorageAdapters.open(URI.create("s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix)),
        options(endpoint, extra));
  }
}
