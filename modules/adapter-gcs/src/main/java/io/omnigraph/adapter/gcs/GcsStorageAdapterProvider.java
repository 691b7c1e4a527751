package io.omnigraph.adapter.gcs;

import com.google.auth.Credentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Bucket;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.omnigraph.adapter.gcs.GcsErrors.Op;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;

/**
 * The {@code gs} storage backend: roots {@code gs://bucket[/prefix]} on Google Cloud Storage
 * through google-cloud-storage (JSON API). Options are documented in docs/storage-adapters.md
 * ("Google Cloud Storage").
 *
 * <p>{@link #open} checks that the bucket exists with one bucket GET: a missing bucket is
 * {@code CONFIGURATION}, refused credentials are {@code PERMISSION}, an unreachable endpoint is
 * {@code CONFIGURATION}. A 403 on that bucket GET alone does not fail the open, because
 * object-level roles (e.g. {@code roles/storage.objectAdmin}) lack {@code storage.buckets.get};
 * the first object request then reports the permission failure.
 */
public final class GcsStorageAdapterProvider implements StorageAdapterProvider {

  /** Public no-argument constructor, for {@link java.util.ServiceLoader}. */
  public GcsStorageAdapterProvider() {}

  @Override
  public Set<String> schemes() {
    return Set.of("gs");
  }

  @Override
  public Set<String> optionKeys() {
    return GcsOptions.KEYS;
  }

  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    if (root == null || !"gs".equalsIgnoreCase(root.getScheme())) {
      throw GcsOptions.config("not a gs:// root: " + root);
    }
    String bucket = root.getHost() != null ? root.getHost() : root.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw GcsOptions.config("gs:// root has no bucket: " + root);
    }
    if (root.getRawQuery() != null || root.getRawFragment() != null || root.getUserInfo() != null || root.getPort() != -1) {
      throw GcsOptions.config("gs:// root must be gs://bucket[/prefix], without query, fragment, user or port: " + root);
    }
    String path = root.getPath() == null ? "" : root.getPath();
    String prefix;
    try {
      prefix = path.isEmpty() || path.equals("/") ? "" : StoragePaths.validateDirectory(path.substring(1));
    } catch (StorageException e) {
      throw new StorageException(Kind.CONFIGURATION, null, "gs:// root has an invalid prefix: " + root, e);
    }
    GcsOptions opts = GcsOptions.parse(options == null ? Map.of() : options);
    Storage storage = client(opts);
    try {
      Bucket b = storage.get(bucket, Storage.BucketGetOption.fields(Storage.BucketField.NAME));
      if (b == null) {
        throw new StorageException(Kind.CONFIGURATION, null, "bucket '" + bucket + "' does not exist"
            + (opts.endpoint() == null ? "" : " at " + opts.endpoint()));
      }
    } catch (com.google.cloud.storage.StorageException e) {
      StorageException mapped = GcsErrors.map(e, Op.OPEN, null);
      if (!(e.getCode() == 403)) {
        closeQuietly(storage, mapped);
        throw mapped.kind() == Kind.OUTCOME_UNKNOWN || mapped.kind() == Kind.TRANSIENT
            ? new StorageException(mapped.kind(), null, "checking bucket '" + bucket + "' failed: " + mapped.getMessage(), e)
            : new StorageException(mapped.kind(), null, "opening gs://" + bucket + " failed: " + mapped.getMessage(), e);
      }
    } catch (StorageException e) {
      closeQuietly(storage, e);
      throw e;
    }
    return new GcsStorageAdapter(storage, bucket, prefix, opts);
  }

  private static Storage client(GcsOptions opts) throws StorageException {
    StorageOptions.Builder b = StorageOptions.http();
    if (opts.endpoint() != null) {
      b.setHost(opts.endpoint().toString());
    }
    if (opts.projectId() != null) {
      b.setProjectId(opts.projectId());
    }
    b.setCredentials(credentials(opts.credentials()));
    b.setRetrySettings(StorageOptions.getDefaultRetrySettings().toBuilder().setMaxAttempts(opts.maxAttempts()).build());
    try {
      return b.build().getService();
    } catch (RuntimeException e) {
      throw new StorageException(Kind.CONFIGURATION, null, "cannot build the GCS client: " + e.getMessage(), e);
    }
  }

  private static Credentials credentials(GcsOptions.Credentials c) throws StorageException {
    try {
      if (c instanceof GcsOptions.Credentials.NoAuth) {
        return NoCredentials.getInstance();
      }
      if (c instanceof GcsOptions.Credentials.JsonFile f) {
        try (InputStream in = Files.newInputStream(f.file())) {
          return GoogleCredentials.fromStream(in);
        }
      }
      if (c instanceof GcsOptions.Credentials.InlineJson j) {
        return GoogleCredentials.fromStream(new ByteArrayInputStream(j.json().getBytes(StandardCharsets.UTF_8)));
      }
      return GoogleCredentials.getApplicationDefault();
    } catch (IOException | RuntimeException e) {
      throw new StorageException(Kind.CONFIGURATION, null, "cannot load GCS credentials ("
          + c.getClass().getSimpleName() + "): " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(Storage storage, StorageException primary) {
    try {
      storage.close();
    } catch (Exception e) {
      // The open already failed; keep that failure and attach this one to it.
      primary.addSuppressed(e);
    }
  }
}
