package io.omnigraph.server;

import java.util.Map;

/**
 * A failure the server decides itself, before or around the engine: a missing token, an unknown
 * route, a wrong media type, a full admission queue. Engine failures stay {@code
 * OmnigraphException}s; both are rendered as one ErrorOutput object (docs/server.md, "Errors").
 */
final class HttpFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final int status;
  final String code;
  final transient Map<String, String> headers;

  HttpFailure(int status, String code, String message, Map<String, String> headers) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.headers = Map.copyOf(headers);
  }

  HttpFailure(int status, String code, String message) {
    this(status, code, message, Map.of());
  }

  static HttpFailure unauthorized(String message) {
    return new HttpFailure(401, "unauthorized", message, Map.of("WWW-Authenticate", "Bearer realm=\"omnigraph\""));
  }

  static HttpFailure forbidden(String message) {
    return new HttpFailure(403, "forbidden", message);
  }

  static HttpFailure notFound(String message) {
    return new HttpFailure(404, "not_found", message);
  }

  static HttpFailure methodNotAllowed(String method, String path, String allow) {
    return new HttpFailure(405, "method_not_allowed", "method " + method + " is not allowed on " + path
        + "; allowed: " + allow, Map.of("Allow", allow));
  }

  static HttpFailure unsupportedMediaType(String message) {
    return new HttpFailure(415, "bad_request", message);
  }

  static HttpFailure tooManyRequests(String message, int retryAfterSeconds) {
    return new HttpFailure(429, "too_many_requests", message, Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
  }
}
