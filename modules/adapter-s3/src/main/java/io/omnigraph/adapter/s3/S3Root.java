package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import java.net.URI;
import java.util.regex.Pattern;

/**
 * A parsed {@code s3://bucket/prefix} root: the bucket and the key prefix (without slashes at
 * either end; {@code ""} for the bucket's top level).
 */
record S3Root(String bucket, String prefix) {
  // S3 general-purpose bucket rules: 3-63 characters, lower-case letters, digits, '.', '-',
  // starting and ending with a letter or digit
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  static S3Root parse(URI root) throws StorageException {
    if (!"s3".equalsIgnoreCase(root.getScheme())) {
      throw config(root, "scheme must be s3");
    }
    if (root.isOpaque() || root.getRawAuthority() == null) {
      throw config(root, "expected s3://bucket[/prefix]");
    }
    if (root.getRawUserInfo() != null || root.getPort() != -1) {
      throw config(root, "user info and ports are not part of an S3 root; use the 'endpoint' option");
    }
    if (root.getRawQuery() != null || root.getRawFragment() != null) {
      throw config(root, "query and fragment are not allowed; pass settings as options");
    }
    String bucket = root.getAuthority();
    if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw config(root, "'" + bucket + "' is not a valid bucket name");
    }
    String path = root.getPath() == null ? "" : root.getPath();
    String prefix = path.startsWith("/") ? path.substring(1) : path;
    try {
      prefix = StoragePaths.validateDirectory(prefix);
    } catch (StorageException e) {
      throw new StorageException(Kind.CONFIGURATION, null, "invalid S3 root '" + root + "': prefix: " + e.getMessage(), e);
    }
    return new S3Root(bucket, prefix);
  }

  /** @return the object key of a validated root-relative path */
  String key(String path) {
    return prefix.isEmpty() ? path : prefix + "/" + path;
  }

  /** @return the key prefix ending in {@code /} for a validated directory ({@code ""} = root), or {@code ""} */
  String dirPrefix(String dir) {
    String d = prefix.isEmpty() ? dir : dir.isEmpty() ? prefix : prefix + "/" + dir;
    return d.isEmpty() ? "" : d + "/";
  }

  /** @return {@code s3://bucket/prefix/path} */
  String uri(String path) {
    return "s3://" + bucket + "/" + key(path);
  }

  @Override
  public String toString() {
    return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
  }

  private static StorageException config(URI root, String why) {
    return new StorageException(Kind.CONFIGURATION, null, "invalid S3 root '" + root + "': " + why);
  }
}
