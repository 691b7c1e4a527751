package io.omnigraph.adapter.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.identity.CredentialUnavailableException;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Maps Azure SDK failures onto {@link Kind}s: the one place that knows Azure's status codes and
 * error codes. Azurite answers like the real service for every case mapped here (the differences the
 * adapter normalizes are in docs/storage-adapters.md, "Azure Blob"); where the adapter relies on a
 * code, both are named.
 */
final class AzureFailures {
  private AzureFailures() {}

  /** What the failed call was doing; it decides how an ambiguous failure is reported. */
  enum Op {
    /** A read (GET, HEAD, list): nothing can have been changed by it. */
    READ,
    /** A write or delete without a condition (Overwrite put, delete). */
    MUTATION,
    /** A write with {@code If-None-Match: *} or {@code If-Match}. */
    CONDITIONAL_PUT
  }

  /**
   * @param e the SDK's exception
   * @param path the root-relative path addressed, or {@code null}
   * @param op what the call was doing
   * @param log the call's tries, or {@code null} when not tracked (reads)
   * @param container the container, for messages
   */
  static StorageException map(RuntimeException e, String path, Op op, AttemptLog log, String container) {
    boolean mutation = op != Op.READ;
    if (mutation && log != null && log.possiblyApplied()) {
      // An earlier try may have been applied; whatever the last try answered (409, 412, 503, a
      // reset...) says nothing reliable about the state. The caller must re-read.
      return new StorageException(Kind.OUTCOME_UNKNOWN, path, "a try's response was lost after the request was sent ("
          + log.tries() + " tries); the change may or may not have been applied: " + describe(e), e);
    }
    if (e instanceof BlobStorageException b) {
      return mapStatus(b, path, op, container);
    }
    if (e instanceof CredentialUnavailableException) {
      return new StorageException(Kind.CONFIGURATION, path, "no Azure credential is available (default chain: "
          + "environment, workload identity, managed identity, Azure CLI, ...); give account-key, sas-token or "
          + "connection-string, or configure one: " + describe(e), e);
    }
    if (e instanceof ClientAuthenticationException) {
      return new StorageException(Kind.PERMISSION, path, "the Azure credential was refused: " + describe(e), e);
    }
    Throwable root = networkCause(e);
    if (root instanceof UnknownHostException || root instanceof UnresolvedAddressException) {
      return new StorageException(Kind.CONFIGURATION, path, "endpoint host cannot be resolved: " + describe(e), e);
    }
    if (root instanceof ConnectException) {
      return new StorageException(Kind.CONFIGURATION, path, "cannot connect to the endpoint (bad endpoint or service down): "
          + describe(e), e);
    }
    if (root instanceof SSLException) {
      return new StorageException(Kind.CONFIGURATION, path, "TLS handshake with the endpoint failed: " + describe(e), e);
    }
    if (root instanceof IOException || root instanceof TimeoutException) {
      return mutation
          ? new StorageException(Kind.OUTCOME_UNKNOWN, path, "the response was lost after the request was sent: "
              + describe(e), e)
          : new StorageException(Kind.TRANSIENT, path, "the request failed in transit: " + describe(e), e);
    }
    return new StorageException(Kind.PERMANENT, path, "unexpected Azure SDK failure: " + describe(e), e);
  }

  private static StorageException mapStatus(BlobStorageException b, String path, Op op, String container) {
    int status = b.getStatusCode();
    BlobErrorCode code = b.getErrorCode();
    String detail = "HTTP " + status + (code == null ? "" : " " + code);
    if (status == 401 || status == 403) {
      return new StorageException(Kind.PERMISSION, path, "credentials refused or lacking permission (" + detail + ")", b);
    }
    if (status == 404) {
      if (BlobErrorCode.BLOB_NOT_FOUND.equals(code)) {
        return StorageException.notFound(path, b);
      }
      if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)) {
        return new StorageException(Kind.CONFIGURATION, path, "container '" + container + "' does not exist", b);
      }
      // Azure always names a 404; an unnamed one comes from something that is not Blob storage.
      return new StorageException(Kind.CONFIGURATION, path,
          "the endpoint answered 404 without an Azure error code; is it a Blob endpoint (Azurite: with the account in the path)? ("
              + detail + ")", b);
    }
    if (op == Op.CONDITIONAL_PUT && (status == 412
        || (status == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(code)))) {
      // If-None-Match: * on an existing blob is 409 BlobAlreadyExists (real Azure and Azurite);
      // a stale If-Match, or If-Match on an absent blob, is 412 ConditionNotMet.
      return StorageException.preconditionFailed(path, "write condition did not hold (" + detail + ")", b);
    }
    if (status == 408 || status == 429 || status >= 500) {
      return new StorageException(Kind.TRANSIENT, path, "the service failed or throttled and the SDK's retries ran out ("
          + detail + ")", b);
    }
    if (status == 400 && (BlobErrorCode.INVALID_AUTHENTICATION_INFO.equals(code)
        || BlobErrorCode.AUTHENTICATION_FAILED.equals(code))) {
      return new StorageException(Kind.PERMISSION, path, "credentials refused (" + detail + ")", b);
    }
    if (status == 409 && BlobErrorCode.CONTAINER_BEING_DELETED.equals(code)) {
      return new StorageException(Kind.CONFIGURATION, path, "container '" + container + "' is being deleted", b);
    }
    return new StorageException(Kind.PERMANENT, path, "request refused (" + detail + ")", b);
  }

  /** @return the deepest network-level cause (I/O, timeout), or the innermost cause */
  private static Throwable networkCause(Throwable e) {
    Throwable found = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException
          || t instanceof ConnectException || t instanceof SSLException) {
        return t;
      }
      if (found == null && (t instanceof IOException || t instanceof TimeoutException)) {
        found = t;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return found != null ? found : e;
  }

  private static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null && sb.length() < 600; t = t.getCause()) {
      if (sb.length() > 0) {
        sb.append(" <- ");
      }
      String m = t.getMessage();
      sb.append(t.getClass().getSimpleName()).append(m == null ? "" : ": " + firstLine(m));
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString();
  }

  private static String firstLine(String m) {
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
