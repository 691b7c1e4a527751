package io.omnigraph.api;

/** Existing or concurrent state conflicts with the request ({@link ErrorDetail.KeyConflict}, {@link ErrorDetail.ReadSetConflict}, {@link ErrorDetail.PublishedVersionConflict}, or none for lost publish races and already-initialized roots). Kind {@link ErrorKind#CONFLICT}. */
public final class ConflictException extends OmnigraphException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   */
  public ConflictException(String message, ErrorDetail detail) {
    super(message, detail, null);
  }

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   * @param cause the underlying failure, or {@code null}
   */
  public ConflictException(String message, ErrorDetail detail, Throwable cause) {
    super(message, detail, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.CONFLICT;
  }
}
