package io.omnigraph.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.ResourceLimitException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/** One request being served: the Jetty request/response, its id, its actor, its graph and path values. */
final class Exchange {
  static final String JSON_TYPE = "application/json";
  static final String NDJSON_TYPE = "application/x-ndjson";

  final Request request;
  final Response response;
  final Callback callback;
  final String requestId;
  private long bodyLimit;
  String actor;
  String graphId;
  Graph graph;
  Map<String, String> pathValues = Map.of();
  private LimitedInputStream body;
  private Fields query;
  boolean completed;
  /** True once a streamed response may have started: failures then abort instead of answering. */
  boolean streaming;

  Exchange(Request request, Response response, Callback callback, String requestId, long bodyLimit) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.requestId = requestId;
    this.bodyLimit = bodyLimit;
  }

  void setBodyLimit(long limit) {
    this.bodyLimit = limit;
  }

  String header(String name) {
    return request.getHeaders().get(name);
  }

  /** @return a query parameter, or {@code null} */
  String queryParam(String name) {
    if (query == null) {
      query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
    }
    return query.getValue(name);
  }

  /** Refuses query parameters other than {@code allowed} (a typo must not silently do something else). */
  void allowQueryParams(Set<String> allowed) {
    queryParam("");
    for (String name : query.getNames()) {
      if (!allowed.contains(name)) {
        throw new InvalidInputException("unknown query parameter '" + name + "'; accepted: " + allowed,
            new ErrorDetail.Validation(null, null, name, "unknown_parameter"));
      }
    }
  }

  /**
   * Checks the media type and the declared length, and returns the body as a stream that fails once
   * more than the route's limit has been read. A declared length over the limit is refused here,
   * before any of the body is read.
   *
   * @param mediaType the required media type; {@code null} accepts any
   * @param required when true a missing Content-Type is refused too
   */
  InputStream body(String mediaType, boolean required) {
    String ct = header(HttpHeader.CONTENT_TYPE.asString());
    if (mediaType != null) {
      String base = ct == null ? null : ct.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
      if ((ct == null && required) || (base != null && !base.equals(mediaType))) {
        throw HttpFailure.unsupportedMediaType("this route takes Content-Type: " + mediaType
            + (ct == null ? " (none was given)" : ", not " + ct));
      }
    }
    long declared = request.getLength();
    if (declared > bodyLimit) {
      throw bodyTooLarge(declared);
    }
    body = new LimitedInputStream(Content.Source.asInputStream(request), bodyLimit);
    return body;
  }

  /**
   * Before an error answer: reads and discards the rest of a request body the route did not read to
   * its end, up to the route's body limit. Otherwise the server would close the connection with
   * unread bytes, and the client — still sending, or reusing the connection — would see a reset
   * instead of the answer. A body over the limit (or cut short by the client) is not read further:
   * the answer then says {@code Connection: close}.
   *
   * @param overLimit the answer refuses the body for its size: never read the rest
   */
  void settleBody(boolean overLimit) {
    if (body != null && body.eof) {
      return;
    }
    long declared = request.getLength();
    boolean chunked = header(HttpHeader.TRANSFER_ENCODING.asString()) != null;
    if (declared == 0 || (declared < 0 && !chunked)) {
      return;
    }
    if (!overLimit && declared <= bodyLimit) {
      try {
        InputStream in = body != null ? body : new LimitedInputStream(Content.Source.asInputStream(request), bodyLimit);
        byte[] skip = new byte[8192];
        while (in.read(skip) >= 0) {
          // discard
        }
        return;
      } catch (IOException | RuntimeException e) {
        // over the limit after all, or the client went away: close the connection
      }
    }
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
  }

  /** @return true when the body stream was cut at the limit */
  boolean bodyExceeded() {
    return body != null && body.exceeded;
  }

  long bodyCount() {
    return body == null ? 0 : body.count;
  }

  ResourceLimitException bodyTooLarge(long actual) {
    return new ResourceLimitException("request body exceeds the limit of " + bodyLimit + " bytes for this route;"
        + " split the input into several requests",
        new ErrorDetail.ResourceLimit("http_body_bytes", bodyLimit, actual));
  }

  /**
   * Reads a JSON object body with only the {@code allowed} members (an empty body is {@code {}}).
   *
   * @throws InvalidInputException not one JSON object, a duplicate or unknown member
   */
  ObjectNode jsonBody(Set<String> allowed) {
    InputStream in = body(JSON_TYPE, false);
    JsonNode node;
    try {
      byte[] bytes = in.readAllBytes();
      if (bytes.length == 0) {
        return Wire.object();
      }
      node = Wire.JSON.readTree(bytes);
    } catch (IOException e) {
      if (bodyExceeded()) {
        throw bodyTooLarge(body.count);
      }
      String m = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw new InvalidInputException("request body is not valid JSON: " + m,
          new ErrorDetail.Validation(null, null, null, "invalid_json"), e);
    }
    if (node == null || !node.isObject()) {
      throw new InvalidInputException("request body must be one JSON object",
          new ErrorDetail.Validation(null, null, null, "invalid_json"));
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw new InvalidInputException("unknown request field '" + f + "'; accepted: " + List.copyOf(allowed),
            new ErrorDetail.Validation(null, null, f, "unknown_field"));
      }
    }
    return (ObjectNode) node;
  }

  static String text(ObjectNode body, String field) {
    JsonNode n = body.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isTextual()) {
      throw new InvalidInputException("request field '" + field + "' must be a string",
          new ErrorDetail.Validation(null, null, field, "type_mismatch"));
    }
    return n.textValue();
  }

  static boolean bool(ObjectNode body, String field) {
    JsonNode n = body.get(field);
    if (n == null || n.isNull()) {
      return false;
    }
    if (!n.isBoolean()) {
      throw new InvalidInputException("request field '" + field + "' must be true or false",
          new ErrorDetail.Validation(null, null, field, "type_mismatch"));
    }
    return n.booleanValue();
  }

  static String requiredText(ObjectNode body, String... names) {
    for (String n : names) {
      String v = text(body, n);
      if (v != null) {
        return v;
      }
    }
    throw new InvalidInputException("request field '" + names[0] + "' is required",
        new ErrorDetail.Validation(null, null, names[0], "missing_field"));
  }

  void sendJson(int status, JsonNode body) {
    byte[] bytes;
    try {
      bytes = Wire.JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    send(status, JSON_TYPE, bytes);
  }

  void send(int status, String contentType, byte[] bytes) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
    completed = true;
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  /** A body stream that counts and fails once more than {@code limit} bytes have been read. */
  static final class LimitedInputStream extends InputStream {
    final InputStream in;
    private final long limit;
    long count;
    boolean exceeded;
    /** True once a read returned the end of the body. */
    boolean eof;

    LimitedInputStream(InputStream in, long limit) {
      this.in = in;
      this.limit = limit;
    }

    private int check(int n) throws IOException {
      if (n < 0) {
        eof = true;
      }
      if (n > 0) {
        count += n;
        if (count > limit) {
          exceeded = true;
          throw new IOException("request body exceeds the limit of " + limit + " bytes");
        }
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        check(1);
      } else {
        eof = true;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return check(in.read(b, off, len));
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
