package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageCapabilities;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link StorageAdapter} on one {@code s3://bucket/prefix} root, with the AWS SDK v2 (sync client,
 * Apache 5 HTTP client). Objects are whole S3 objects; the version token is the ETag exactly as S3
 * returns it (quoted). Conditional writes are S3 conditional PUTs ({@code If-None-Match: *},
 * {@code If-Match: <etag>}), so they are atomic on S3 itself, across processes.
 */
final class S3StorageAdapter implements StorageAdapter {
  private final S3Root root;
  private final S3Settings settings;
  private final AwsCredentialsProvider credentials;
  private final AttemptLedger ledger;
  private final S3Client s3;
  private final Region region;
  private final AtomicBoolean closed = new AtomicBoolean();

  private S3StorageAdapter(S3Root root, S3Settings settings, AwsCredentialsProvider credentials, AttemptLedger ledger,
      S3Client s3, Region region) {
    this.root = root;
    this.settings = settings;
    this.credentials = credentials;
    this.ledger = ledger;
    this.s3 = s3;
    this.region = region;
  }

  /**
   * Builds the client and, unless {@code check-bucket=false}, checks the bucket with one
   * HeadBucket request: a missing bucket or an unreachable endpoint is {@code CONFIGURATION},
   * refused credentials are {@code PERMISSION}.
   */
  static S3StorageAdapter open(S3Root root, S3Settings settings) throws StorageException {
    AwsCredentialsProvider credentials = settings.accessKeyId().<AwsCredentialsProvider>map(id -> {
      AwsCredentials c = settings.sessionToken().isPresent()
          ? AwsSessionCredentials.create(id, settings.secretAccessKey().orElseThrow(), settings.sessionToken().get())
          : AwsBasicCredentials.create(id, settings.secretAccessKey().orElseThrow());
      return StaticCredentialsProvider.create(c);
    }).orElseGet(() -> DefaultCredentialsProvider.builder().build());

    AttemptLedger http = new AttemptLedger(Apache5HttpClient.builder()
        .connectionTimeout(Duration.ofSeconds(10))
        .socketTimeout(Duration.ofSeconds(60))
        .maxConnections(64)
        .build());
    S3Client s3;
    Region region;
    try {
      S3ClientBuilder b = S3Client.builder()
          .httpClient(http)
          .credentialsProvider(credentials)
          .forcePathStyle(settings.pathStyle())
          .requestChecksumCalculation(settings.requestChecksums().equals("when_required")
              ? RequestChecksumCalculation.WHEN_REQUIRED : RequestChecksumCalculation.WHEN_SUPPORTED)
          .responseChecksumValidation(settings.requestChecksums().equals("when_required")
              ? ResponseChecksumValidation.WHEN_REQUIRED : ResponseChecksumValidation.WHEN_SUPPORTED)
          .overrideConfiguration(o -> o
              // a fixed attempt budget per request: the standard strategy's circuit breaker would
              // otherwise stop retrying after a burst of failures, so one request's retries would
              // depend on what other requests did before it
              .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                  .maxAttempts(settings.maxAttempts()).circuitBreakerEnabled(false).build())
              );
      settings.endpoint().ifPresent(b::endpointOverride);
      if (settings.region().isPresent()) {
        b.region(Region.of(settings.region().get()));
      } else if (settings.endpoint().isPresent()) {
        b.region(Region.US_EAST_1); // S3-compatible endpoints ignore the region but SigV4 needs one
      } // else: the SDK's default region chain (AWS_REGION, profile, instance metadata)
      s3 = b.build();
      region = s3.serviceClientConfiguration().region();
    } catch (SdkException e) {
      http.close();
      throw new StorageException(Kind.CONFIGURATION, null, "cannot build the S3 client for " + root + ": " + e.getMessage(), e);
    }
    S3StorageAdapter adapter = new S3StorageAdapter(root, settings, credentials, http, s3, region);
    if (settings.checkBucket()) {
      adapter.checkBucket();
    }
    return adapter;
  }

  private void checkBucket() throws StorageException {
    AttemptLedger.Attempts a = ledger.begin();
    try {
      s3.headBucket(b -> b.bucket(root.bucket()));
    } catch (S3Exception e) {
      closeQuietlyAfter(e);
      if (e.statusCode() == 404) {
        // HEAD answers carry no error code: 404 on HeadBucket is always "no such bucket"
        throw new StorageException(Kind.CONFIGURATION, null, "bucket '" + root.bucket() + "' does not exist", e);
      }
      throw S3Failures.map(S3Operation.OPEN, null, e, a);
    } catch (SdkException e) {
      closeQuietlyAfter(e);
      throw S3Failures.map(S3Operation.OPEN, null, e, a);
    } finally {
      ledger.end();
    }
  }

  private void closeQuietlyAfter(Exception cause) {
    try {
      close();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public Optional<StoredObject> readIfExists(String path) throws StorageException {
    String key = root.key(StoragePaths.validate(path));
    AttemptLedger.Attempts a = ledger.begin();
    try {
      ResponseBytes<GetObjectResponse> r = s3.getObjectAsBytes(
          GetObjectRequest.builder().bucket(root.bucket()).key(key).build());
      String etag = r.response().eTag();
      if (etag == null || etag.isEmpty()) {
        throw new StorageException(Kind.PERMANENT, path, "S3 returned the object without an ETag");
      }
      return Optional.of(new StoredObject(r.asByteArrayUnsafe(), etag));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw S3Failures.map(S3Operation.READ, path, e, a);
    } finally {
      ledger.end();
    }
  }

  @Override
  public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    String key = root.key(StoragePaths.validate(path));
    PutObjectRequest.Builder req = PutObjectRequest.builder().bucket(root.bucket()).key(key)
        .contentLength((long) bytes.length);
    S3Operation op;
    if (condition instanceof WriteCondition.Overwrite) {
      op = S3Operation.PUT;
    } else if (condition instanceof WriteCondition.IfAbsent) {
      op = S3Operation.PUT_IF_ABSENT;
      req.ifNoneMatch("*");
    } else if (condition instanceof WriteCondition.IfMatch m) {
      op = S3Operation.PUT_IF_MATCH;
      req.ifMatch(m.version());
    } else {
      throw new IllegalArgumentException("unknown write condition: " + condition);
    }
    AttemptLedger.Attempts a = ledger.begin();
    PutObjectResponse r;
    try {
      r = s3.putObject(req.build(), RequestBody.fromBytes(bytes));
    } catch (SdkException e) {
      throw S3Failures.map(op, path, e, a);
    } finally {
      ledger.end();
    }
    if (r.eTag() == null || r.eTag().isEmpty()) {
      throw new StorageException(Kind.PERMANENT, path, "S3 accepted the write but returned no ETag; re-read it for its version");
    }
    return r.eTag();
  }

  @Override
  public boolean exists(String path) throws StorageException {
    String key = root.key(StoragePaths.validate(path));
    AttemptLedger.Attempts a = ledger.begin();
    try {
      s3.headObject(b -> b.bucket(root.bucket()).key(key));
      return true;
    } catch (NoSuchKeyException e) {
      return false;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return false; // HEAD answers have no body, so some servers' 404 is not typed NoSuchKey
      }
      throw S3Failures.map(S3Operation.EXISTS, path, e, a);
    } catch (SdkException e) {
      throw S3Failures.map(S3Operation.EXISTS, path, e, a);
    } finally {
      ledger.end();
    }
  }

  @Override
  public void delete(String path) throws StorageException {
    String key = root.key(StoragePaths.validate(path));
    AttemptLedger.Attempts a = ledger.begin();
    try {
      s3.deleteObject(b -> b.bucket(root.bucket()).key(key));
    } catch (NoSuchKeyException e) {
      // S3 answers 204 for a missing key; some S3 clones answer 404 NoSuchKey: same outcome, gone
    } catch (SdkException e) {
      throw S3Failures.map(S3Operation.DELETE, path, e, a);
    } finally {
      ledger.end();
    }
  }

  @Override
  public ObjectListing list(String dir) throws StorageException {
    String d = StoragePaths.validateDirectory(dir);
    return new S3Listing(this, d, root.dirPrefix(d));
  }

  /** Fetches one ListObjectsV2 page (delimiter {@code /} when {@code delimited}). */
  ListObjectsV2Response listPage(String keyPrefix, String token, boolean delimited, String pathForErrors)
      throws StorageException {
    AttemptLedger.Attempts a = ledger.begin();
    ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(root.bucket())
        .maxKeys(settings.listPageSize());
    if (!keyPrefix.isEmpty()) {
      req.prefix(keyPrefix);
    }
    if (delimited) {
      req.delimiter("/");
    }
    if (token != null) {
      req.continuationToken(token);
    }
    try {
      return s3.listObjectsV2(req.build());
    } catch (SdkException e) {
      throw S3Failures.map(S3Operation.LIST, pathForErrors, e, a);
    } finally {
      ledger.end();
    }
  }

  @Override
  public void deletePrefix(String prefix) throws StorageException {
    String d = StoragePaths.validateDirectory(prefix);
    String keyPrefix = root.dirPrefix(d);
    String token = null;
    do {
      ListObjectsV2Response page = listPage(keyPrefix, token, false, d);
      List<ObjectIdentifier> ids = new ArrayList<>();
      for (S3Object o : page.contents()) {
        ids.add(ObjectIdentifier.builder().key(o.key()).build());
      }
      if (!ids.isEmpty()) {
        deleteBatch(d, ids);
      }
      // keep going while S3 says so, even after an empty page
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
  }

  private void deleteBatch(String dir, List<ObjectIdentifier> ids) throws StorageException {
    AttemptLedger.Attempts a = ledger.begin();
    DeleteObjectsResponse r;
    try {
      r = s3.deleteObjects(b -> b.bucket(root.bucket()).delete(Delete.builder().objects(ids).quiet(true).build())
          );
    } catch (SdkException e) {
      throw S3Failures.map(S3Operation.DELETE_PREFIX, dir, e, a);
    } finally {
      ledger.end();
    }
    for (S3Error err : r.errors()) {
      if ("NoSuchKey".equals(err.code())) {
        continue; // already gone: what we wanted
      }
      Kind kind = "AccessDenied".equals(err.code()) ? Kind.PERMISSION
          : ("InternalError".equals(err.code()) || "SlowDown".equals(err.code())) ? Kind.TRANSIENT : Kind.PERMANENT;
      throw new StorageException(kind, dir, "could not delete '" + err.key() + "': " + err.code() + " " + err.message()
          + (r.errors().size() > 1 ? " (and " + (r.errors().size() - 1) + " more)" : ""));
    }
  }

  /** @return the root this adapter serves */
  S3Root root() {
    return root;
  }

  @Override
  public StorageCapabilities capabilities() {
    return new StorageCapabilities("s3", false, settings.listPageSize());
  }

  /**
   * {@inheritDoc}
   *
   * <p>The options are object_store keys: region, endpoint and {@code aws_allow_http} as
   * configured, {@code aws_virtual_hosted_style_request} matching {@code path-style}, and the
   * credentials this adapter signs with right now (static keys, or whatever the SDK's default
   * chain resolved, session token included), so Lance signs as the adapter does.
   *
   * @throws StorageException {@code INVALID_PATH} for an illegal path; {@code CONFIGURATION} when
   *     no credentials can be resolved
   */
  @Override
  public LanceLocation lanceLocation(String path) throws StorageException {
    StoragePaths.validate(path);
    Map<String, String> o = new LinkedHashMap<>();
    o.put("aws_region", region.id());
    settings.endpoint().ifPresent(e -> o.put("aws_endpoint", stripTrailingSlash(e.toString())));
    if (settings.allowHttp()) {
      o.put("aws_allow_http", "true");
    }
    o.put("aws_virtual_hosted_style_request", Boolean.toString(!settings.pathStyle()));
    AwsCredentials c;
    try {
      c = credentials.resolveCredentials();
    } catch (SdkException e) {
      throw new StorageException(Kind.CONFIGURATION, path, "no AWS credentials for Lance: " + e.getMessage(), e);
    }
    o.put("aws_access_key_id", c.accessKeyId());
    o.put("aws_secret_access_key", c.secretAccessKey());
    if (c instanceof AwsSessionCredentials s) {
      o.put("aws_session_token", s.sessionToken());
    }
    return new LanceLocation(root.uri(path), o);
  }

  private static String stripTrailingSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        s3.close();
      } finally {
        ledger.close();
      }
    }
  }

  @Override
  public String toString() {
    return "S3StorageAdapter[" + root + "]";
  }
}
