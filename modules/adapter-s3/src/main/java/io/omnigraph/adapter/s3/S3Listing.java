package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoragePaths;
import java.util.Iterator;
import java.util.NoSuchElementException;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A lazy listing of the direct children of one directory: ListObjectsV2 with delimiter {@code /},
 * page after page until S3 returns no continuation token (a page may be empty and still carry
 * one). Common prefixes (sub-directories) are not entries. S3 returns keys in UTF-8 byte order and
 * all keys share the directory prefix, so the entries are in {@link StoragePaths#UTF8_ORDER}.
 *
 * <p>Keys that are not legal SPI paths are skipped: a directory marker ({@code dir/}), temp names
 * ({@code name#<digits>}), and names with backslashes, control characters or {@code .}/{@code ..}
 * segments, which no adapter method could address anyway.
 */
final class S3Listing implements ObjectListing {
  private final S3StorageAdapter adapter;
  private final String dir;
  private final String keyPrefix;
  private Iterator<S3Object> page;
  private String token;
  private boolean lastPage;
  private String lookahead;

  /** Fetches the first page now, so {@code list} itself fails when the listing cannot start. */
  S3Listing(S3StorageAdapter adapter, String dir, String keyPrefix) throws StorageException {
    this.adapter = adapter;
    this.dir = dir;
    this.keyPrefix = keyPrefix;
    load(null);
  }

  private void load(String continuationToken) throws StorageException {
    ListObjectsV2Response r = adapter.listPage(keyPrefix, continuationToken, true, dir);
    page = r.contents().iterator();
    token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
    if (Boolean.TRUE.equals(r.isTruncated()) && token == null) {
      throw new StorageException(StorageException.Kind.PERMANENT, dir,
          "S3 reported a truncated listing page without a continuation token");
    }
    lastPage = token == null;
  }

  @Override
  public boolean hasNext() throws StorageException {
    while (lookahead == null) {
      while (page.hasNext()) {
        String key = page.next().key();
        if (!key.startsWith(keyPrefix)) {
          continue; // cannot happen with a prefix query; never list outside the directory
        }
        String name = key.substring(keyPrefix.length());
        if (addressable(name)) {
          lookahead = StoragePaths.join(dir, name);
          return true;
        }
      }
      if (lastPage) {
        return false;
      }
      load(token);
    }
    return true;
  }

  private boolean addressable(String name) {
    if (name.isEmpty() || name.indexOf('/') >= 0 || StoragePaths.isTempName(name)) {
      return false;
    }
    try {
      StoragePaths.validate(StoragePaths.join(dir, name));
      return true;
    } catch (StorageException e) {
      return false; // documented: keys that are not legal paths are not listed (see class javadoc)
    }
  }

  @Override
  public String next() throws StorageException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    String out = lookahead;
    lookahead = null;
    return out;
  }
}
