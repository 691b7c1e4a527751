package io.omnigraph.api.storage;

import java.io.IOException;
import java.util.Objects;

/**
 * The one failure type of the storage SPI. Every backend maps its own errors onto a {@link Kind},
 * so callers decide what to do from the kind alone, never from a message or a backend exception.
 *
 * <p>The backend's original exception, if any, is the {@linkplain #getCause() cause}. The path is
 * the root-relative path the operation addressed ({@code null} for root-level failures such as a
 * missing bucket detected at open time).
 */
public final class StorageException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, in backend-neutral terms. */
  public enum Kind {
    /** The object does not exist. */
    NOT_FOUND,
    /** A {@link WriteCondition} did not hold: the object exists ({@code IfAbsent}) or has another version ({@code IfMatch}). Nothing was written. */
    PRECONDITION_FAILED,
    /** A failure that may succeed when retried (throttling, 5xx after the client's own retries). Nothing was written. */
    TRANSIENT,
    /** The credentials were refused or lack a permission (401/403, EACCES). Never reported as "not found". */
    PERMISSION,
    /** The adapter is misconfigured: missing bucket or container, bad endpoint, unknown option, no provider for a scheme. */
    CONFIGURATION,
    /** The path is not a legal address (see {@link StoragePaths}). No request was made. */
    INVALID_PATH,
    /** The request may or may not have taken effect (the response was lost after the request was sent). Callers must re-read to learn the outcome. */
    OUTCOME_UNKNOWN,
    /** Any other failure that retrying will not fix. */
    PERMANENT
  }

  private final Kind kind;
  private final String path;

  /**
   * @param kind what went wrong
   * @param path the root-relative path addressed, or {@code null}
   * @param message a human-readable description (the kind and path are appended by {@link #getMessage()})
   * @param cause the backend's exception, or {@code null}
   */
  public StorageException(Kind kind, String path, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.path = path;
  }

  /** Same as {@link #StorageException(Kind, String, String, Throwable)} without a cause. */
  public StorageException(Kind kind, String path, String message) {
    this(kind, path, message, null);
  }

  /** @return the backend-neutral failure kind; never {@code null} */
  public Kind kind() {
    return kind;
  }

  /** @return the root-relative path the failed operation addressed, or {@code null} */
  public String path() {
    return path;
  }

  @Override
  public String getMessage() {
    String base = super.getMessage();
    return kind + (path == null ? "" : " [" + path + "]") + (base == null ? "" : ": " + base);
  }

  /** Shorthand for a {@link Kind#NOT_FOUND} failure. */
  public static StorageException notFound(String path, Throwable cause) {
    return new StorageException(Kind.NOT_FOUND, path, "object not found", cause);
  }

  /** Shorthand for a {@link Kind#PRECONDITION_FAILED} failure. */
  public static StorageException preconditionFailed(String path, String why, Throwable cause) {
    return new StorageException(Kind.PRECONDITION_FAILED, path, why, cause);
  }
}
