package io.omnigraph.api;

/** An interrupted operation must be recovered first ({@link ErrorDetail.RecoveryRequired}). Kind {@link ErrorKind#RECOVERY_REQUIRED}. */
public final class RecoveryRequiredException extends OmnigraphException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   */
  public RecoveryRequiredException(String message, ErrorDetail detail) {
    super(message, detail, null);
  }

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   * @param cause the underlying failure, or {@code null}
   */
  public RecoveryRequiredException(String message, ErrorDetail detail, Throwable cause) {
    super(message, detail, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.RECOVERY_REQUIRED;
  }
}
