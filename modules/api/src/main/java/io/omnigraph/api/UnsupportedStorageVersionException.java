package io.omnigraph.api;

/** The graph root carries an internal storage version this release does not serve ({@link ErrorDetail.UnsupportedStamp}). Kind {@link ErrorKind#UNSUPPORTED_STORAGE_VERSION}. */
public final class UnsupportedStorageVersionException extends OmnigraphException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   */
  public UnsupportedStorageVersionException(String message, ErrorDetail detail) {
    super(message, detail, null);
  }

  /**
   * @param message what happened, for people
   * @param detail the structured detail, or {@code null}
   * @param cause the underlying failure, or {@code null}
   */
  public UnsupportedStorageVersionException(String message, ErrorDetail detail, Throwable cause) {
    super(message, detail, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.UNSUPPORTED_STORAGE_VERSION;
  }
}
