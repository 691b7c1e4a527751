package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import java.io.InterruptedIOException;
import java.net.UnknownHostException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Maps AWS SDK failures to {@link StorageException} kinds, the same way for every operation.
 *
 * <ul>
 *   <li>404 {@code NoSuchBucket} → {@code CONFIGURATION}; other 404 → {@code NOT_FOUND}, or
 *       {@code PRECONDITION_FAILED} for an {@code If-Match} write (S3 answers 404 when the object
 *       to compare against is absent).
 *   <li>409/412 on a conditional write → {@code PRECONDITION_FAILED} (409
 *       {@code ConditionalRequestConflict} is how S3 answers the loser of a race).
 *   <li>401/403 → {@code PERMISSION}; 301/307 and region or bucket-name errors →
 *       {@code CONFIGURATION}.
 *   <li>429, 5xx and throttling codes, after the SDK's own retries → {@code TRANSIENT}.
 *   <li>No response: for reads {@code TRANSIENT}; for writes and deletes {@code OUTCOME_UNKNOWN},
 *       except when no attempt could even connect (nothing was sent), which is {@code TRANSIENT}.
 *   <li>Any write whose earlier attempt was sent and never answered is {@code OUTCOME_UNKNOWN},
 *       whatever the last attempt said: the lost attempt may have been applied.
 * </ul>
 */
final class S3Failures {
  private static final Set<String> CONFIGURATION_CODES = Set.of("NoSuchBucket", "PermanentRedirect",
      "AuthorizationHeaderMalformed", "IllegalLocationConstraintException", "InvalidBucketName", "InvalidRegion");
  private static final Set<String> THROTTLING_CODES = Set.of("SlowDown", "Throttling", "ThrottlingException",
      "RequestLimitExceeded", "TooManyRequestsException", "RequestThrottled", "ServiceUnavailable", "InternalError");

  private S3Failures() {}

  static StorageException map(S3Operation op, String path, SdkException e, AttemptLedger.Attempts attempts) {
    int lost = attempts.lost();
    boolean maybeApplied = op.mutates && lost > 0;

    if (e instanceof AwsServiceException se) {
      int status = se.statusCode();
      String code = se.awsErrorDetails() == null ? null : se.awsErrorDetails().errorCode();
      String what = "S3 answered " + status + (code == null ? "" : " " + code);
      if ("NoSuchBucket".equals(code)) {
        return new StorageException(Kind.CONFIGURATION, path, "bucket does not exist (" + what + ")", e);
      }
      if (maybeApplied) {
        return outcomeUnknown(path, lost, what, e);
      }
      if (status == 401 || status == 403) {
        return new StorageException(Kind.PERMISSION, path, "access refused (" + what + ")", e);
      }
      if (status == 404) {
        return op == S3Operation.PUT_IF_MATCH
            ? StorageException.preconditionFailed(path, "If-Match: the object does not exist (" + what + ")", e)
            : StorageException.notFound(path, e);
      }
      if ((status == 409 || status == 412) && op.conditional) {
        return StorageException.preconditionFailed(path,
            (op == S3Operation.PUT_IF_ABSENT ? "If-None-Match: * - the object exists" : "If-Match: the object changed")
                + " (" + what + ")", e);
      }
      if (status == 301 || status == 307 || (code != null && CONFIGURATION_CODES.contains(code))) {
        return new StorageException(Kind.CONFIGURATION, path, "bucket, region or endpoint misconfigured (" + what + ")", e);
      }
      if (status == 429 || status >= 500 || se.isThrottlingException() || (code != null && THROTTLING_CODES.contains(code))) {
        return new StorageException(Kind.TRANSIENT, path, what + ", still failing after the SDK's retries", e);
      }
      return new StorageException(Kind.PERMANENT, path, what, e);
    }

    // no HTTP response at all
    if (isCredentialsFailure(e)) {
      return new StorageException(Kind.CONFIGURATION, path, "no AWS credentials: " + e.getMessage(), e);
    }
    if (maybeApplied) {
      return outcomeUnknown(path, lost, "no response: " + e.getMessage(), e);
    }
    if (attempts.connectFailures() > 0 || AttemptLedger.isConnectFailure(e) || !op.mutates) {
      boolean unknownHost = hasCause(e, UnknownHostException.class);
      Kind kind = op == S3Operation.OPEN ? Kind.CONFIGURATION : Kind.TRANSIENT;
      return new StorageException(kind, path, (unknownHost ? "unknown S3 endpoint host: " : "S3 endpoint unreachable: ")
          + e.getMessage(), e);
    }
    if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
        || hasCause(e, InterruptedIOException.class) || hasCause(e, java.io.IOException.class)) {
      return outcomeUnknown(path, Math.max(lost, 1), "no response: " + e.getMessage(), e);
    }
    // a failure without any attempt on the wire (e.g. a request the SDK refused to build)
    return new StorageException(Kind.PERMANENT, path, e.getMessage(), e);
  }

  private static StorageException outcomeUnknown(String path, int lost, String last, Throwable e) {
    return new StorageException(Kind.OUTCOME_UNKNOWN, path, lost + " attempt(s) were sent and never answered, so the "
        + "request may have been applied; re-read to learn the outcome (last: " + last + ")", e);
  }

  private static boolean isCredentialsFailure(SdkException e) {
    String m = e.getMessage();
    return m != null && m.contains("Unable to load credentials");
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
