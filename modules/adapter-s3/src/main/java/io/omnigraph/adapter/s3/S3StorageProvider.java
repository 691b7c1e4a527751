package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * The {@code s3} storage backend (AWS SDK v2; any S3-compatible endpoint with the {@code endpoint}
 * option). Roots are {@code s3://bucket} or {@code s3://bucket/prefix}. The options are listed in
 * docs/storage-adapters.md ("S3").
 */
public final class S3StorageProvider implements StorageAdapterProvider {

  /** Used by {@link java.util.ServiceLoader}. */
  public S3StorageProvider() {}

  @Override
  public Set<String> schemes() {
    return Set.of("s3");
  }

  @Override
  public Set<String> optionKeys() {
    return S3Settings.KEYS;
  }

  /**
   * {@inheritDoc}
   *
   * @throws StorageException {@code CONFIGURATION} for a malformed root, an unknown option or a bad
   *     value, a missing bucket, or an unreachable endpoint (checked with one HeadBucket request
   *     unless {@code check-bucket=false}); {@code PERMISSION} when the credentials are refused
   */
  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    return S3StorageAdapter.open(S3Root.parse(root), S3Settings.parse(options == null ? Map.of() : options));
  }
}
