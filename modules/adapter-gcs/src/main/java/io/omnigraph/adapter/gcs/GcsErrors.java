package io.omnigraph.adapter.gcs;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Maps what google-cloud-storage (and the adapter's own media reads) report onto
 * {@link StorageException.Kind}, the same way for every operation:
 * <ul>
 *   <li>404: {@code NOT_FOUND}, unless the message says the bucket is missing: {@code CONFIGURATION};</li>
 *   <li>401, 403: {@code PERMISSION};</li>
 *   <li>409, 412 on a conditional write: {@code PRECONDITION_FAILED};</li>
 *   <li>408, 429, 5xx (left over after the client's retries): {@code TRANSIENT};</li>
 *   <li>no HTTP status: the host cannot be resolved or refuses connections: {@code CONFIGURATION}
 *       (nothing was sent); the connection broke or timed out after the request went out:
 *       {@code OUTCOME_UNKNOWN} for mutations, {@code TRANSIENT} for reads and listings (a read
 *       changes nothing, so retrying is safe);</li>
 *   <li>everything else: {@code PERMANENT}.</li>
 * </ul>
 */
final class GcsErrors {
  private GcsErrors() {}

  /** What the failed request was doing, which decides how a lost response is reported. */
  enum Op {
    READ, LIST, WRITE, DELETE, OPEN;

    boolean mutates() {
      return this == WRITE || this == DELETE;
    }
  }

  static StorageException map(com.google.cloud.storage.StorageException e, Op op, String path) {
    int code = e.getCode();
    if (code == 0 || code == -1) {
      IOException io = ioCause(e);
      if (io != null) {
        return fromIo(io, op, path, e);
      }
    }
    return fromStatus(code, e.getReason(), e.getMessage(), op, path, e);
  }

  static StorageException fromStatus(int code, String reason, String message, Op op, String path, Throwable cause) {
    String what = "GCS " + op.name().toLowerCase(Locale.ROOT) + " failed: HTTP " + code
        + (reason == null ? "" : " " + reason) + (message == null ? "" : ": " + message);
    if (code == 404) {
      if (bucketMissing(message)) {
        return new StorageException(Kind.CONFIGURATION, path, "the bucket does not exist; " + what, cause);
      }
      return new StorageException(Kind.NOT_FOUND, path, what, cause);
    }
    if (code == 401 || code == 403) {
      return new StorageException(Kind.PERMISSION, path, what, cause);
    }
    if (code == 409 || code == 412) {
      return new StorageException(Kind.PRECONDITION_FAILED, path, what, cause);
    }
    if (code == 408 || code == 429 || (code >= 500 && code <= 599)) {
      return new StorageException(Kind.TRANSIENT, path, what, cause);
    }
    return new StorageException(Kind.PERMANENT, path, what, cause);
  }

  static StorageException fromIo(IOException io, Op op, String path, Throwable cause) {
    if (io instanceof UnknownHostException || io instanceof ConnectException || io instanceof NoRouteToHostException) {
      return new StorageException(Kind.CONFIGURATION, path,
          "cannot reach the GCS endpoint (nothing was sent): " + io, cause);
    }
    if (io instanceof InterruptedIOException && !(io instanceof java.net.SocketTimeoutException)) {
      Thread.currentThread().interrupt();
    }
    boolean lost = io instanceof SocketException || io instanceof EOFException
        || io instanceof InterruptedIOException || io.getClass().getName().contains("NoHttpResponse")
        || String.valueOf(io.getMessage()).contains("Unexpected end of file");
    if (op.mutates()) {
      return new StorageException(Kind.OUTCOME_UNKNOWN, path,
          "the connection failed after the request was sent; it may or may not have been applied: " + io, cause);
    }
    return new StorageException(Kind.TRANSIENT, path,
        (lost ? "the connection failed during the request: " : "I/O failure: ") + io, cause);
  }

  private static boolean bucketMissing(String message) {
    if (message == null) {
      return false;
    }
    String m = message.toLowerCase(Locale.ROOT);
    return m.contains("bucket does not exist") || m.contains("no such bucket") || m.contains("nosuchbucket");
  }

  private static IOException ioCause(Throwable t) {
    for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
      if (c instanceof IOException io && !(c instanceof com.google.api.client.http.HttpResponseException)) {
        return io;
      }
    }
    return null;
  }
}
