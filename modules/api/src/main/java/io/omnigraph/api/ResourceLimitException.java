package io.omnigraph.api;

/** A per-transaction limit was exceeded before anything was written ({@link ErrorDetail.ResourceLimit}). Kind {@link ErrorKind#RESOURCE_LIMIT}. */
public final class ResourceLimitException extends OmnigraphException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   */
  public ResourceLimitException(String message, ErrorDetail detail) {
    super(message, detail, null);
  }

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   * @param cause the underlying failure, or {@code null}
   */
  public ResourceLimitException(String message, ErrorDetail detail, Throwable cause) {
    super(message, detail, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.RESOURCE_LIMIT;
  }
}
