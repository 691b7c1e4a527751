package io.omnigraph.api;

/** A caller-supplied expectation did not hold ({@link ErrorDetail.PreconditionFailure}). Kind {@link ErrorKind#PRECONDITION_FAILED}. */
public final class PreconditionFailedException extends OmnigraphException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   */
  public PreconditionFailedException(String message, ErrorDetail detail) {
    super(message, detail, null);
  }

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   * @param cause the underlying failure, or {@code null}
   */
  public PreconditionFailedException(String message, ErrorDetail detail, Throwable cause) {
    super(message, detail, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.PRECONDITION_FAILED;
  }
}
