package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoragePaths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * A lazy listing of the direct children of one directory: ListObjectsV2 with delimiter {@code /},
 * page after page until S3 returns no continuation token (a page may be empty and still carry
 * one). Common prefixes (sub-directories) are not entries. S3 returns keys in UTF-8 byte order and
 * all keys share the directory prefix, so the entries are in {@link StoragePaths#UTF8_ORDER}.
 *
 * <p>Some S3-compatible servers order keys by UTF-16 code units instead (s3proxy 4.1.0 does:
 * U+FFFD before U+1F600). Each page is therefore sorted by UTF-8 bytes
 * here, which normalizes such a server to what S3 does within a page; and the order across pages
 * is checked, so a server whose order breaks across a page boundary fails the listing loudly
 * ({@code PERMANENT}) instead of returning an unsorted one.
 *
 * <p>Keys that are not legal SPI paths are skipped: a directory marker ({@code dir/}), temp names
 * ({@code name#<digits>}), and names with backslashes, control characters or {@code .}/{@code ..}
 * segments, which no adapter method could address anyway.
 */
final class S3Listing implements ObjectListing {
  private final S3StorageAdapter adapter;
  private final String dir;
  private final String keyPrefix;
  private Iterator<String> page;
  private String previous;
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
    List<String> names = new ArrayList<>();
    r.contents().forEach(o -> {
      String key = o.key();
      // never list outside the directory (cannot happen with a prefix query)
      if (key.startsWith(keyPrefix) && addressable(key.substring(keyPrefix.length()))) {
        names.add(key.substring(keyPrefix.length()));
      }
    });
    names.sort(StoragePaths.UTF8_ORDER);
    page = names.iterator();
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
      if (page.hasNext()) {
        String name = page.next();
        if (previous != null && StoragePaths.compareUtf8(previous, name) >= 0) {
          throw new StorageException(StorageException.Kind.PERMANENT, dir, "the S3 server listed '" + name
              + "' after '" + previous + "' on a later page: its key order is not UTF-8 byte order as S3's is");
        }
        previous = name;
        lookahead = StoragePaths.join(dir, name);
        return true;
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
