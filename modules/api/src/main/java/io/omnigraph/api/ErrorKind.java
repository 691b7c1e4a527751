package io.omnigraph.api;

/**
 * The closed set of failure categories of the public API. Each kind fixes the HTTP status and the
 * stable machine-readable {@linkplain #code() code} that an {@link OmnigraphException} of that kind
 * carries; callers (the CLI's exit codes, an HTTP server) decide from the kind alone.
 */
public enum ErrorKind {
  /** The caller's input is wrong: schema text, NDJSON data, arguments. Retrying the same input fails again. */
  INVALID_INPUT(400, "bad_request"),
  /** A graph, commit or other named thing does not exist. */
  NOT_FOUND(404, "not_found"),
  /** A concurrent or pre-existing state conflicts with the request (existing key, moved head, lost race). */
  CONFLICT(409, "conflict"),
  /** A caller-supplied expectation (for example an expected head commit) did not hold. */
  PRECONDITION_FAILED(412, "precondition_failed"),
  /** The request is larger than a documented per-transaction limit; split it. Nothing was written. */
  RESOURCE_LIMIT(413, "bad_request"),
  /** The graph root was written by a storage format this release does not serve. */
  UNSUPPORTED_STORAGE_VERSION(500, "unsupported_storage_version"),
  /** An interrupted write must be recovered before this operation can run; retry after recovery. */
  RECOVERY_REQUIRED(503, "recovery_required"),
  /** The storage backend failed (permissions, network, missing bucket). */
  STORAGE(500, "internal"),
  /** A bug or a corrupted graph root: an invariant did not hold. */
  INTERNAL(500, "internal");

  private final int httpStatus;
  private final String code;

  ErrorKind(int httpStatus, String code) {
    this.httpStatus = httpStatus;
    this.code = code;
  }

  /** @return the HTTP status a server maps this kind to */
  public int httpStatus() {
    return httpStatus;
  }

  /** @return the stable snake_case code written as {@code "code"} in the error JSON */
  public String code() {
    return code;
  }
}
