package io.omnigraph.api;

import java.util.Objects;
import java.util.Optional;

/**
 * The one failure type of the public API. It is unchecked and sealed: every failure is exactly one
 * of the permitted subclasses, each of which fixes the {@link #kind()} and therefore the
 * {@link #httpStatus()} and stable {@link #code()}. A failure carries at most one structured
 * {@link #detail()}, so callers never parse messages.
 *
 * <p>{@link #toJson()} renders one JSON object (docs/errors.md, "JSON shape"):
 * <pre>{"error": "&lt;message&gt;", "code": "conflict", "key_conflict": {...}}</pre>
 */
public abstract sealed class OmnigraphException extends RuntimeException
    permits InvalidInputException, NotFoundException, ConflictException, PreconditionFailedException,
        ResourceLimitException, UnsupportedStorageVersionException, RecoveryRequiredException,
        StorageFailureException, InternalErrorException {
  private static final long serialVersionUID = 1L;

  private final transient ErrorDetail detail;

  OmnigraphException(String message, ErrorDetail detail, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.detail = detail;
  }

  /** @return the failure category; never {@code null} */
  public abstract ErrorKind kind();

  /** @return the stable machine-readable code, {@code kind().code()} */
  public final String code() {
    return kind().code();
  }

  /** @return the HTTP status a server answers with, {@code kind().httpStatus()} */
  public final int httpStatus() {
    return kind().httpStatus();
  }

  /** @return the structured detail, when this failure has one */
  public final Optional<ErrorDetail> detail() {
    return Optional.ofNullable(detail);
  }

  /**
   * Renders this failure as one JSON object: {@code error} (the message), {@code code}, and the
   * detail (if any) under its {@link ErrorDetail#jsonField()} name. Absent optional values are
   * omitted.
   *
   * @return compact JSON text
   */
  public final String toJson() {
    return ErrorJson.render(this);
  }
}
