package io.omnigraph.api.storage;

import java.util.Map;
import java.util.Objects;

/**
 * Where Lance finds a dataset that lives under an adapter's root: a URI the Lance Java API accepts
 * ({@code file:///...}, {@code s3://bucket/key}, {@code gs://...}, {@code az://...}) and the
 * storage options (object_store keys such as {@code aws_endpoint}) that give Lance the same
 * endpoint and credentials as the adapter.
 *
 * @param uri the dataset URI, as Lance expects it
 * @param storageOptions options for {@code WriteParams}/{@code ReadOptions}; never {@code null}
 */
public record LanceLocation(String uri, Map<String, String> storageOptions) {
  public LanceLocation {
    Objects.requireNonNull(uri, "uri");
    storageOptions = Map.copyOf(storageOptions);
  }
}
