package io.omnigraph.adapter.gcs;

import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpRequestFactory;
import com.google.api.client.http.HttpResponse;
import com.google.api.gax.paging.Page;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.omnigraph.adapter.gcs.GcsErrors.Op;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageCapabilities;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@code gs://bucket/prefix} root on google-cloud-storage (JSON API over HTTP).
 *
 * <ul>
 *   <li>{@code put}: one multipart upload; {@code IfAbsent} is {@code ifGenerationMatch=0},
 *       {@code IfMatch} is {@code ifGenerationMatch=<generation>}; the version token is the decimal
 *       generation.</li>
 *   <li>{@code readIfExists}: exactly one media GET ({@code alt=media}) through the client's own
 *       HTTP transport and credentials, taking the generation from {@code x-goog-generation} —
 *       the client's {@code readAllBytes} does not expose it, and reading metadata first would
 *       be a second request and a race.</li>
 *   <li>{@code list}: prefix + delimiter {@code /}, every page until the token is absent; folded
 *       prefixes and "directory" placeholder objects ({@code name/}) are skipped.</li>
 *   <li>{@code delete}: a 404 is success.</li>
 * </ul>
 */
final class GcsStorageAdapter implements StorageAdapter {
  private final Storage storage;
  private final HttpRequestFactory mediaRequests;
  private final String bucket;
  /** The root prefix without a trailing slash, {@code ""} for the bucket root. */
  private final String prefix;
  private final GcsOptions options;
  private final AtomicBoolean closed = new AtomicBoolean();

  GcsStorageAdapter(Storage storage, String bucket, String prefix, GcsOptions options) {
    this.storage = storage;
    this.bucket = bucket;
    this.prefix = prefix;
    this.options = options;
    StorageOptions so = storage.getOptions();
    HttpTransportOptions transport = (HttpTransportOptions) so.getTransportOptions();
    this.mediaRequests = transport.getHttpTransportFactory().create()
        .createRequestFactory(transport.getHttpRequestInitializer(so));
  }

  private String key(String path) {
    return prefix.isEmpty() ? path : prefix + "/" + path;
  }

  @Override
  public Optional<StoredObject> readIfExists(String path) throws StorageException {
    StoragePaths.validate(path);
    String url = storage.getOptions().getHost().replaceAll("/+$", "") + "/download/storage/v1/b/"
        + escape(bucket) + "/o/" + escape(key(path)) + "?alt=media";
    int attempt = 0;
    while (true) {
      attempt++;
      StorageException failure;
      try {
        HttpRequest req = mediaRequests.buildGetRequest(new GenericUrl(url));
        req.setThrowExceptionOnExecuteError(false);
        req.setNumberOfRetries(0);
        HttpResponse resp = req.execute();
        try {
          int status = resp.getStatusCode();
          if (status == 200) {
            String generation = resp.getHeaders().getFirstHeaderStringValue("x-goog-generation");
            if (generation == null) {
              throw new StorageException(Kind.PERMANENT, path, "GCS media response carries no x-goog-generation header");
            }
            byte[] bytes;
            try (InputStream in = resp.getContent()) {
              bytes = in == null ? new byte[0] : in.readAllBytes();
            }
            return Optional.of(new StoredObject(bytes, generation));
          }
          String body = errorBody(resp);
          failure = GcsErrors.fromStatus(status, reason(body), body, Op.READ, path, null);
          if (failure.kind() == Kind.NOT_FOUND) {
            return Optional.empty();
          }
        } finally {
          resp.disconnect();
        }
      } catch (IOException e) {
        failure = GcsErrors.fromIo(e, Op.READ, path, e);
      }
      if (failure.kind() != Kind.TRANSIENT || attempt >= options.maxAttempts()) {
        throw failure;
      }
      backOff(attempt);
    }
  }

  @Override
  public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    StoragePaths.validate(path);
    BlobId id = BlobId.of(bucket, key(path));
    BlobInfo info;
    Storage.BlobTargetOption[] opts;
    if (condition instanceof WriteCondition.IfMatch m) {
      long generation;
      try {
        generation = Long.parseLong(m.version());
      } catch (NumberFormatException e) {
        // Not a token this backend issued, so it cannot be the current version.
        throw StorageException.preconditionFailed(path, "version token '" + m.version()
            + "' is not a GCS generation, so it cannot match", e);
      }
      if (generation <= 0) {
        throw StorageException.preconditionFailed(path, "version token '" + m.version() + "' cannot match", null);
      }
      info = BlobInfo.newBuilder(BlobId.of(bucket, key(path), generation)).build();
      opts = new Storage.BlobTargetOption[] {Storage.BlobTargetOption.generationMatch()};
    } else if (condition instanceof WriteCondition.IfAbsent) {
      info = BlobInfo.newBuilder(id).build();
      opts = new Storage.BlobTargetOption[] {Storage.BlobTargetOption.doesNotExist()};
    } else if (condition instanceof WriteCondition.Overwrite) {
      info = BlobInfo.newBuilder(id).build();
      opts = new Storage.BlobTargetOption[0];
    } else {
      throw new IllegalArgumentException("unknown write condition " + condition);
    }
    try {
      Blob b = storage.create(info, bytes, opts);
      return Long.toString(b.getGeneration());
    } catch (com.google.cloud.storage.StorageException e) {
      StorageException mapped = GcsErrors.map(e, Op.WRITE, path);
      if (mapped.kind() == Kind.NOT_FOUND) {
        // A write never "misses" an object; a 404 here can only be the bucket.
        throw new StorageException(Kind.CONFIGURATION, path, "the bucket does not exist: " + e.getMessage(), e);
      }
      throw mapped;
    }
  }

  @Override
  public boolean exists(String path) throws StorageException {
    StoragePaths.validate(path);
    try {
      return storage.get(BlobId.of(bucket, key(path)),
          Storage.BlobGetOption.fields(Storage.BlobField.GENERATION)) != null;
    } catch (com.google.cloud.storage.StorageException e) {
      throw GcsErrors.map(e, Op.READ, path);
    }
  }

  @Override
  public void delete(String path) throws StorageException {
    StoragePaths.validate(path);
    deleteKey(key(path), path);
  }

  private void deleteKey(String key, String path) throws StorageException {
    try {
      // false means 404: already gone, which is what delete promises.
      storage.delete(BlobId.of(bucket, key));
    } catch (com.google.cloud.storage.StorageException e) {
      throw GcsErrors.map(e, Op.DELETE, path);
    }
  }

  @Override
  public ObjectListing list(String dir) throws StorageException {
    String d = StoragePaths.validateDirectory(dir);
    String listPrefix = d.isEmpty() ? (prefix.isEmpty() ? "" : prefix + "/") : key(d) + "/";
    Page<Blob> first = page(d, listPrefix, null, true);
    return new GcsListing(first, d, listPrefix);
  }

  @Override
  public void deletePrefix(String prefixPath) throws StorageException {
    String d = StoragePaths.validateDirectory(prefixPath);
    String listPrefix = d.isEmpty() ? (prefix.isEmpty() ? "" : prefix + "/") : key(d) + "/";
    // Collect first, then delete: deleting while paging could shift the listing under the token.
    List<String> keys = new ArrayList<>();
    Page<Blob> page = page(d, listPrefix, null, false);
    while (page != null) {
      for (Blob b : page.getValues()) {
        keys.add(b.getName());
      }
      page = page.hasNextPage() ? nextPage(page, d) : null;
    }
    for (String k : keys) {
      deleteKey(k, k.substring(prefix.isEmpty() ? 0 : prefix.length() + 1));
    }
  }

  private Page<Blob> page(String dir, String listPrefix, String token, boolean delimited) throws StorageException {
    List<Storage.BlobListOption> opts = new ArrayList<>();
    opts.add(Storage.BlobListOption.prefix(listPrefix));
    opts.add(Storage.BlobListOption.pageSize(options.listPageSize()));
    if (delimited) {
      opts.add(Storage.BlobListOption.delimiter("/"));
    }
    if (token != null) {
      opts.add(Storage.BlobListOption.pageToken(token));
    }
    try {
      return storage.list(bucket, opts.toArray(new Storage.BlobListOption[0]));
    } catch (com.google.cloud.storage.StorageException e) {
      throw listFailure(e, dir);
    }
  }

  private Page<Blob> nextPage(Page<Blob> page, String dir) throws StorageException {
    try {
      return page.getNextPage();
    } catch (com.google.cloud.storage.StorageException e) {
      throw listFailure(e, dir);
    }
  }

  private static StorageException listFailure(com.google.cloud.storage.StorageException e, String dir) {
    StorageException mapped = GcsErrors.map(e, Op.LIST, dir.isEmpty() ? null : dir);
    if (mapped.kind() == Kind.NOT_FOUND) {
      // Listing a missing "directory" is an empty page, never a 404: a 404 is the bucket.
      return new StorageException(Kind.CONFIGURATION, mapped.path(), "the bucket does not exist: " + e.getMessage(), e);
    }
    return mapped;
  }

  /** Pages lazily through a delimited listing; a page that fails to load throws from hasNext/next. */
  private final class GcsListing implements ObjectListing {
    private Page<Blob> page;
    private Iterator<Blob> it;
    private String nextEntry;
    private final String dir;
    private final String listPrefix;

    GcsListing(Page<Blob> first, String dir, String listPrefix) {
      this.page = first;
      this.it = first.getValues().iterator();
      this.dir = dir;
      this.listPrefix = listPrefix;
    }

    @Override
    public boolean hasNext() throws StorageException {
      while (nextEntry == null) {
        while (!it.hasNext()) {
          // Loop until the token is absent: a page may be short or even empty and still have one.
          if (page == null || !page.hasNextPage()) {
            page = null;
            return false;
          }
          page = nextPage(page, dir);
          it = page.getValues().iterator();
        }
        Blob b = it.next();
        if (b.isDirectory()) {
          continue; // a folded sub-prefix: not a direct child object
        }
        String name = b.getName();
        if (!name.startsWith(listPrefix)) {
          continue;
        }
        String rest = name.substring(listPrefix.length());
        if (rest.isEmpty() || rest.contains("/") || StoragePaths.isTempName(rest)) {
          continue; // the "directory" placeholder itself, or a name no path can address
        }
        String path = StoragePaths.join(dir, rest);
        try {
          StoragePaths.validate(path);
        } catch (StorageException invalid) {
          continue; // an object created by another tool under a name the SPI refuses to address
        }
        nextEntry = path;
      }
      return true;
    }

    @Override
    public String next() throws StorageException {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      String e = nextEntry;
      nextEntry = null;
      return e;
    }
  }

  @Override
  public StorageCapabilities capabilities() {
    return new StorageCapabilities("gs", false, options.listPageSize());
  }

  @Override
  public LanceLocation lanceLocation(String path) throws StorageException {
    StoragePaths.validate(path);
    String uri = "gs://" + bucket + "/" + key(path);
    Map<String, String> lance = new LinkedHashMap<>();
    String endpoint = options.endpoint() == null ? null : options.endpoint().toString();
    GcsOptions.Credentials c = options.credentials();
    if (c instanceof GcsOptions.Credentials.NoAuth) {
      if (endpoint != null) {
        // object_store takes the base URL and "no OAuth" from a service-account key; its own
        // tests reach fake-gcs-server the same way.
        lance.put("google_service_account_key", "{\"private_key\":\"\",\"private_key_id\":\"\","
            + "\"client_email\":\"\",\"gcs_base_url\":\"" + jsonEscape(endpoint) + "\",\"disable_oauth\":true}");
      } else {
        lance.put("google_skip_signature", "true");
      }
    } else if (c instanceof GcsOptions.Credentials.JsonFile f) {
      lance.put("google_service_account", f.file().toString());
    } else if (c instanceof GcsOptions.Credentials.InlineJson j) {
      lance.put("google_service_account_key", j.json());
    }
    // Credentials.Default: object_store reads Application Default Credentials itself.
    if (endpoint != null && !lance.containsKey("google_service_account_key")) {
      lance.put("google_base_url", endpoint);
    }
    if (endpoint != null && endpoint.startsWith("http://")) {
      lance.put("allow_http", "true");
    }
    return new LanceLocation(uri, lance);
  }

  @Override
  public void close() throws StorageException {
    if (closed.compareAndSet(false, true)) {
      try {
        storage.close();
      } catch (Exception e) {
        throw new StorageException(Kind.PERMANENT, null, "closing the GCS client failed: " + e, e);
      }
    }
  }

  private static void backOff(int attempt) throws StorageException {
    long max = Math.min(2_000L, 100L << Math.min(attempt, 5));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(max / 2, max + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException(Kind.TRANSIENT, null, "interrupted while backing off", e);
    }
  }

  private static String errorBody(HttpResponse resp) {
    try (InputStream in = resp.getContent()) {
      return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(error body unreadable: " + e + ")";
    }
  }

  /** The JSON API's {@code errors[0].reason}, found without a JSON parser (best effort, for messages). */
  private static String reason(String body) {
    int i = body.indexOf("\"reason\"");
    if (i < 0) {
      return null;
    }
    int q1 = body.indexOf('"', body.indexOf(':', i) + 1);
    int q2 = q1 < 0 ? -1 : body.indexOf('"', q1 + 1);
    return q1 < 0 || q2 < 0 ? null : body.substring(q1 + 1, q2);
  }

  /** Percent-encodes one path segment (object names may contain '/', which must be escaped). */
  static String escape(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
          || c == '.' || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return sb.toString();
  }

  private static String jsonEscape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
