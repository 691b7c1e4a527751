package io.omnigraph.api;

/** The caller's input (schema text, data, arguments) is invalid; usually with a {@link ErrorDetail.Validation} detail. Kind {@link ErrorKind#INVALID_INPUT}. */
public final class InvalidInputException extends OmnigraphException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   */
  public InvalidInputException(String message, ErrorDetail detail) {
    super(message, detail, null);
  }

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   * @param cause the underlying failure, or {@code null}
   */
  public InvalidInputException(String message, ErrorDetail detail, Throwable cause) {
    super(message, detail, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.INVALID_INPUT;
  }
}
