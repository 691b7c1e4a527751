package io.omnigraph.testkit.fault;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link FaultProxy} does to a request that a {@link FaultRule} selected. A closed set.
 */
public sealed interface Fault {

  /**
   * Answers with this status, headers and body instead of forwarding; the upstream never sees the
   * request. When the client announced {@code Expect: 100-continue}, the answer is sent in place of
   * the {@code 100} interim response (the body is never requested) and the connection is closed.
   *
   * @param status the HTTP status code (100-599, not 1xx interim codes)
   * @param headers extra response headers (Content-Length is always computed by the proxy)
   * @param body the response body
   */
  record Respond(int status, Map<String, String> headers, byte[] body) implements Fault {
    public Respond {
      if (status < 200 || status > 599) {
        throw new IllegalArgumentException("status must be a final status 200-599: " + status);
      }
      headers = Map.copyOf(headers);
      body = body.clone();
    }

    @Override
    public byte[] body() {
      return body.clone();
    }

    @Override
    public String toString() {
      return "respond " + status;
    }
  }

  /**
   * Resets the client connection (TCP RST) after the request head, and the body if one was sent
   * without {@code Expect: 100-continue}, was received. The upstream never sees the request, so it
   * has no effect: the client sees a connection reset.
   */
  record Reset() implements Fault {
    @Override
    public String toString() {
      return "reset";
    }
  }

  /**
   * Forwards the whole request to the upstream and reads its whole response, then resets the
   * client connection instead of relaying the response: the request took effect, but the client
   * cannot know it (outcome unknown).
   */
  record ForwardThenDrop() implements Fault {
    @Override
    public String toString() {
      return "forward-then-drop";
    }
  }

  /**
   * Holds the request for {@code millis} before forwarding it normally (the upstream then sees it
   * and answers as usual): widens the window between a client's requests, so that races between
   * concurrent clients interleave on every run instead of by luck.
   *
   * @param millis how long to hold each selected request, at least 1
   */
  record Delay(long millis) implements Fault {
    public Delay {
      if (millis < 1) {
        throw new IllegalArgumentException("millis must be >= 1: " + millis);
      }
    }

    @Override
    public String toString() {
      return "delay " + millis + " ms";
    }
  }

  /** @return a {@link Respond} fault with a plain-text body */
  static Fault status(int status, String body) {
    return new Respond(status, Map.of("Content-Type", "text/plain; charset=utf-8"),
        body.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * @return a {@link Respond} fault with an S3-style XML error body, which the AWS SDK parses into
   *     an error code (e.g. {@code SlowDown}, {@code InternalError}, {@code AccessDenied})
   */
  static Fault s3Error(int status, String code, String message) {
    Objects.requireNonNull(code, "code");
    String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>"
        + message + "</Message><RequestId>faultproxy</RequestId></Error>";
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/xml");
    headers.put("x-amz-request-id", "faultproxy");
    return new Respond(status, headers, xml.getBytes(StandardCharsets.UTF_8));
  }

  /** @return the {@link Reset} fault */
  static Fault reset() {
    return new Reset();
  }

  /** @return a {@link Delay} fault */
  static Fault delay(long millis) {
    return new Delay(millis);
  }

  /** @return the {@link ForwardThenDrop} fault */
  static Fault forwardThenDrop() {
    return new ForwardThenDrop();
  }
}
