package io.omnigraph.testkit.gcs;

/**
 * A failure the emulator answers with, independent of the API flavour: the JSON API renders it as
 * {@code {"error":{"code":..,"errors":[{"reason":..}]}}}, the XML API as {@code <Error><Code>..}.
 */
final class GcsError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final int status;
  /** JSON API reason, e.g. {@code notFound}, {@code conditionNotMet}. */
  final String reason;
  /** XML API code, e.g. {@code NoSuchKey}, {@code PreconditionFailed}. */
  final String xmlCode;

  GcsError(int status, String reason, String xmlCode, String message) {
    super(message, null, false, false);
    this.status = status;
    this.reason = reason;
    this.xmlCode = xmlCode;
  }

  static GcsError noSuchObject(String bucket, String name) {
    return new GcsError(404, "notFound", "NoSuchKey", "No such object: " + bucket + "/" + name);
  }

  static GcsError noSuchBucket(String bucket) {
    return new GcsError(404, "notFound", "NoSuchBucket", "The specified bucket does not exist: " + bucket);
  }

  static GcsError preconditionFailed(String what) {
    return new GcsError(412, "conditionNotMet", "PreconditionFailed",
        "At least one of the pre-conditions you specified did not hold: " + what);
  }

  static GcsError notModified() {
    return new GcsError(304, "notModified", "NotModified", "Not modified");
  }

  static GcsError badRequest(String message) {
    return new GcsError(400, "invalid", "InvalidArgument", message);
  }

  static GcsError forbidden(String bucket) {
    return new GcsError(403, "forbidden", "AccessDenied",
        "anonymous caller does not have storage access to bucket " + bucket + ".");
  }

  static GcsError unauthorized() {
    return new GcsError(401, "required", "AuthenticationRequired",
        "Anonymous caller does not have storage.objects access (login required).");
  }

  static GcsError unsupported(String what) {
    // 501 is not in any client's retryable set, so an unimplemented route fails fast.
    return new GcsError(501, "notImplemented", "NotImplemented", "GCS emulator does not implement: " + what);
  }
}
