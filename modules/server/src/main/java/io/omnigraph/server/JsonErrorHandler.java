package io.omnigraph.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (a malformed request line, headers too large, a request during
 * shutdown) are ErrorOutput JSON too, never an HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {

  static String code(int status) {
    return switch (status) {
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 409 -> "conflict";
      case 429 -> "too_many_requests";
      default -> status >= 500 ? "internal" : "bad_request";
    };
  }

  static byte[] body(int status, String message) {
    ObjectNode o = Wire.object();
    o.put("error", message == null || message.isBlank() ? HttpStatus.getMessage(status) : message);
    o.put("code", code(status));
    return o.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
      Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Exchange.JSON_TYPE);
    response.write(true, ByteBuffer.wrap(body(code, message)), callback);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, Exchange.JSON_TYPE);
    return ByteBuffer.wrap(body(status, reason));
  }
}
