package io.omnigraph.adapter.azure;

import com.azure.core.credential.AzureSasCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobDownloadContentResponse;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlockBlobItem;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.omnigraph.adapter.azure.AzureFailures.Op;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageCapabilities;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.WriteCondition;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * One Azure Blob root: a container and a key prefix. Every operation is one SDK call (plus the
 * SDK's own retries): a read is one {@code Get Blob}, a write one {@code Put Blob} (block blob,
 * single shot, so readers see the old or the new whole blob), a listing one
 * {@code List Blobs} (hierarchy, delimiter {@code /}) per page.
 *
 * <ul>
 *   <li>{@code IfAbsent} is {@code If-None-Match: *}; the service answers 409 BlobAlreadyExists.
 *   <li>{@code IfMatch} is {@code If-Match: <ETag>}, the ETag sent back exactly as received
 *       (Azurite's are unquoted, real Azure's quoted; neither is parsed); stale or absent is 412.
 *   <li>Version tokens are ETags.
 *   <li>A try whose response was lost, followed by an SDK retry, makes a write
 *       {@code OUTCOME_UNKNOWN} (see {@link AttemptLog}).
 * </ul>
 */
final class AzureBlobStorageAdapter implements StorageAdapter {
  // One HTTP client (connection pool, event loops) for every adapter in the process: the SDK's
  // clients have no close(), so a pool per adapter would leak one per opened root. Built directly,
  // not through azure-core's ServiceLoader lookup, which depends on the context class loader and
  // misses the provider when the adapter lives in its own module layer.
  private static final class SharedHttp {
    static final HttpClient CLIENT = new NettyAsyncHttpClientBuilder().build();
  }

  private final AzureRoot root;
  private final AzureOptions options;
  private final BlobContainerClient container;
  private volatile boolean closed;

  AzureBlobStorageAdapter(AzureRoot root, AzureOptions options) throws StorageException {
    this.root = root;
    this.options = options;
    BlobContainerClientBuilder b = new BlobContainerClientBuilder()
        .endpoint(options.endpoint().toString())
        .containerName(root.container())
        .httpClient(SharedHttp.CLIENT)
        .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, options.maxRetries() + 1,
            options.tryTimeoutSeconds(), options.retryDelayMillis(),
            Math.max(options.retryDelayMillis(), 30_000L), null))
        .addPolicy(new AttemptLog.Policy());
    try {
      AzureOptions.Credential c = options.credential();
      if (c instanceof AzureOptions.Credential.SharedKey k) {
        b.credential(new StorageSharedKeyCredential(options.account(), k.key()));
      } else if (c instanceof AzureOptions.Credential.Sas s) {
        b.credential(new AzureSasCredential(s.token()));
      } else {
        b.credential(new DefaultAzureCredentialBuilder().build());
      }
      this.container = b.buildClient();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new StorageException(StorageException.Kind.CONFIGURATION, null,
          "the Azure SDK refused the configuration: " + e.getMessage(), e);
    }
  }

  /**
   * Asks for the container's properties once, so that a missing container, an unreachable
   * endpoint or refused credentials fail at open. A credential that is valid but may not read
   * container properties (a SAS scoped to blobs, for instance) is not refused here: it may still
   * be allowed everything the adapter does, and each operation maps its own 403.
   *
   * @throws StorageException {@code CONFIGURATION} (missing container, bad endpoint, no
   *     credential available) or {@code PERMISSION} (the service refused the credential)
   */
  void verifyContainer() throws StorageException {
    try {
      container.getPropertiesWithResponse(null, null, Context.NONE);
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 403 && !isCredentialRefused(e)) {
        return;
      }
      throw AzureFailures.map(e, null, Op.READ, null, root.container());
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, null, Op.READ, null, root.container());
    }
  }

  private static boolean isCredentialRefused(BlobStorageException e) {
    String code = e.getErrorCode() == null ? "" : e.getErrorCode().toString();
    return code.equals("AuthenticationFailed") || code.equals("InvalidAuthenticationInfo")
        || code.equals("NoAuthenticationInformation");
  }

  @Override
  public Optional<io.omnigraph.api.storage.StoredObject> readIfExists(String path) throws StorageException {
    BlobClient blob = blob(path);
    try {
      BlobDownloadContentResponse r = blob.downloadContentWithResponse(null, null, null, Context.NONE);
      return Optional.of(new io.omnigraph.api.storage.StoredObject(r.getValue().toBytes(),
          r.getDeserializedHeaders().getETag()));
    } catch (BlobStorageException e) {
      if (isBlobNotFound(e)) {
        return Optional.empty();
      }
      throw AzureFailures.map(e, path, Op.READ, null, root.container());
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, path, Op.READ, null, root.container());
    }
  }

  @Override
  public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    BlobClient blob = blob(path);
    BlobRequestConditions conditions;
    if (condition instanceof WriteCondition.IfAbsent) {
      conditions = new BlobRequestConditions().setIfNoneMatch("*");
    } else if (condition instanceof WriteCondition.IfMatch m) {
      conditions = new BlobRequestConditions().setIfMatch(m.version());
    } else if (condition instanceof WriteCondition.Overwrite) {
      conditions = null;
    } else {
      throw new IllegalArgumentException("unknown write condition " + condition);
    }
    Op op = conditions == null ? Op.MUTATION : Op.CONDITIONAL_PUT;
    AttemptLog log = new AttemptLog();
    try {
      BlockBlobItem item = blob.getBlockBlobClient().uploadWithResponse(
          new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(bytes)).setRequestConditions(conditions),
          null, log.context()).getValue();
      return item.getETag();
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, path, op, log, root.container());
    }
  }

  @Override
  public boolean exists(String path) throws StorageException {
    BlobClient blob = blob(path);
    try {
      BlobProperties p = blob.getPropertiesWithResponse(null, null, Context.NONE).getValue();
      // On accounts with a hierarchical namespace a directory is a marker blob; it is not an object.
      return !"true".equalsIgnoreCase(p.getMetadata() == null ? null : p.getMetadata().get("hdi_isfolder"));
    } catch (BlobStorageException e) {
      if (isBlobNotFound(e)) {
        return false;
      }
      throw AzureFailures.map(e, path, Op.READ, null, root.container());
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, path, Op.READ, null, root.container());
    }
  }

  @Override
  public void delete(String path) throws StorageException {
    BlobClient blob = blob(path);
    deleteBlob(blob, path);
  }

  private void deleteBlob(BlobClient blob, String path) throws StorageException {
    AttemptLog log = new AttemptLog();
    try {
      blob.deleteWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, null, log.context());
    } catch (BlobStorageException e) {
      // 404 BlobNotFound: already gone, which is what delete promises (also after a lost try).
      if (isBlobNotFound(e)) {
        return;
      }
      throw AzureFailures.map(e, path, Op.MUTATION, log, root.container());
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, path, Op.MUTATION, log, root.container());
    }
  }

  @Override
  public ObjectListing list(String dir) throws StorageException {
    checkOpen();
    String d = StoragePaths.validateDirectory(dir);
    ListBlobsOptions o = new ListBlobsOptions().setPrefix(root.listPrefix(d)).setMaxResultsPerPage(options.listPageSize());
    Iterator<PagedResponse<BlobItem>> pages;
    try {
      pages = container.listBlobsByHierarchy("/", o, null).iterableByPage().iterator();
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, d, Op.READ, null, root.container());
    }
    Listing listing = new Listing(pages, d);
    listing.fetchPage(); // the first page now, so that list() itself reports a failure to start
    return listing;
  }

  /**
   * Walks every page (hierarchy listing, delimiter {@code /}) until the service returns no
   * continuation token, even after empty pages; the token is the SDK's, never built or parsed
   * (Azurite's is the last name returned, real Azure's an opaque marker). Prefix entries
   * ({@code isPrefix}, which count toward the page size), directory markers and temp names are
   * skipped. The first page is fetched by {@link #list}, later ones as the caller advances, so
   * entries of earlier pages are handed out before a later page's failure is thrown.
   *
   * <h2>Order</h2>
   * The contract's order is UTF-8 byte order (= code point order). Azurite lists in UTF-16 code
   * unit order, which differs only where two names first differ at a surrogate (a code point
   * above U+FFFF) on one side and a char in U+E000..U+FFFF on the other; e.g. {@code a😀} comes
   * before {@code a\uE000} in UTF-16 order and after it in UTF-8 order. Both orders agree on every
   * pair that involves a name without chars at or above U+D800 ("plain"), and every name that
   * UTF-16 order places between two such disagreeing names shares their prefix and has a char in
   * U+D800..U+FFFF at the point of difference, so is not plain either. Hence sorting each
   * maximal run of consecutive non-plain names by UTF-8 order yields the UTF-8 order of the whole
   * listing, while plain names stream through at once. On a service that already lists in UTF-8
   * order the sort changes nothing.
   */
  private final class Listing implements ObjectListing {
    private final Iterator<PagedResponse<BlobItem>> pages;
    private final String dir;
    private final ArrayDeque<String> ready = new ArrayDeque<>();
    private final List<String> nonPlainRun = new ArrayList<>();
    private Iterator<BlobItem> page = Collections.emptyIterator();
    private boolean lastPageSeen;

    Listing(Iterator<PagedResponse<BlobItem>> pages, String dir) {
      this.pages = pages;
      this.dir = dir;
    }

    /** Fetches the next page; at the end, releases the pending run. */
    void fetchPage() throws StorageException {
      try {
        if (pages.hasNext()) {
          page = pages.next().getValue().iterator();
          return;
        }
      } catch (RuntimeException e) {
        throw AzureFailures.map(e, dir, Op.READ, null, root.container());
      }
      lastPageSeen = true;
      releaseRun();
    }

    private void releaseRun() {
      nonPlainRun.sort(StoragePaths.UTF8_ORDER);
      ready.addAll(nonPlainRun);
      nonPlainRun.clear();
    }

    @Override
    public boolean hasNext() throws StorageException {
      while (ready.isEmpty()) {
        if (page.hasNext()) {
          BlobItem item = page.next();
          if (Boolean.TRUE.equals(item.isPrefix())
              || (item.getMetadata() != null && "true".equalsIgnoreCase(item.getMetadata().get("hdi_isfolder")))) {
            continue;
          }
          String rel = root.relative(item.getName());
          if (StoragePaths.isTempName(rel)) {
            continue;
          }
          if (isPlain(rel)) {
            releaseRun();
            ready.add(rel);
          } else {
            nonPlainRun.add(rel);
          }
        } else if (lastPageSeen) {
          return false;
        } else {
          fetchPage();
        }
      }
      return true;
    }

    @Override
    public String next() throws StorageException {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return ready.poll();
    }
  }

  /** @return whether {@code name} has no char at or above U+D800 (see {@link Listing}) */
  static boolean isPlain(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) >= '\uD800') {
        return false;
      }
    }
    return true;
  }

  @Override
  public void deletePrefix(String prefix) throws StorageException {
    checkOpen();
    String d = StoragePaths.validateDirectory(prefix);
    ListBlobsOptions o = new ListBlobsOptions().setPrefix(root.listPrefix(d)).setMaxResultsPerPage(options.listPageSize());
    List<String> names = new ArrayList<>();
    try {
      for (BlobItem item : container.listBlobs(o, null)) {
        names.add(item.getName());
      }
    } catch (RuntimeException e) {
      throw AzureFailures.map(e, d, Op.READ, null, root.container());
    }
    // Deepest first, so that on hierarchical-namespace accounts a directory marker goes after its children.
    names.sort((a, b) -> Integer.compare(depth(b), depth(a)));
    for (String name : names) {
      deleteBlob(container.getBlobClient(name), root.relative(name));
    }
  }

  private static int depth(String name) {
    return (int) name.chars().filter(c -> c == '/').count();
  }

  @Override
  public StorageCapabilities capabilities() {
    return new StorageCapabilities("az", false, options.listPageSize());
  }

  /**
   * {@code az://container/prefix/path} plus object_store's Azure keys for the same account,
   * endpoint and credential. The endpoint always goes in {@code azure_endpoint}; object_store's
   * {@code azure_storage_use_emulator} is not used because it fixes the emulator's address at
   * {@code 127.0.0.1:10000} (or the process environment's {@code AZURITE_BLOB_STORAGE_URL}),
   * while a custom endpoint with the account in its path works with Azurite on any port.
   */
  @Override
  public LanceLocation lanceLocation(String path) throws StorageException {
    String p = StoragePaths.validate(path);
    String uri;
    try {
      uri = new URI("az", root.container(), "/" + root.blobName(p), null, null).toASCIIString();
    } catch (URISyntaxException e) {
      throw new StorageException(StorageException.Kind.INVALID_PATH, path, "cannot form a Lance URI: " + e.getMessage(), e);
    }
    Map<String, String> lance = new LinkedHashMap<>();
    lance.put("azure_storage_account_name", options.account());
    lance.put("azure_endpoint", options.endpoint().toString());
    if (options.endpoint().getScheme().equals("http")) {
      lance.put("azure_allow_http", "true");
    }
    AzureOptions.Credential c = options.credential();
    if (c instanceof AzureOptions.Credential.SharedKey k) {
      lance.put("azure_storage_account_key", k.key());
    } else if (c instanceof AzureOptions.Credential.Sas s) {
      lance.put("azure_storage_sas_key", s.token());
    }
    // DefaultChain: no key; object_store resolves its own chain (environment, workload or managed
    // identity, Azure CLI).
    return new LanceLocation(uri, lance);
  }

  @Override
  public void close() {
    closed = true;
  }

  private BlobClient blob(String path) throws StorageException {
    checkOpen();
    return container.getBlobClient(root.blobName(StoragePaths.validate(path)));
  }

  private void checkOpen() throws StorageException {
    if (closed) {
      throw new StorageException(StorageException.Kind.PERMANENT, null, "the adapter is closed");
    }
  }

  private static boolean isBlobNotFound(BlobStorageException e) {
    return e.getStatusCode() == 404 && com.azure.storage.blob.models.BlobErrorCode.BLOB_NOT_FOUND.equals(e.getErrorCode());
  }

  @Override
  public String toString() {
    return "AzureBlobStorageAdapter[" + options.endpoint() + "/" + root.container()
        + (root.prefix().isEmpty() ? "" : "/" + root.prefix()) + "]";
  }
}
