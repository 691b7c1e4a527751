package io.omnigraph.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Plain HTTP for the status tests: java.net.http for whole requests, a raw socket for partial ones. */
final class Http {
  static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private Http() {}

  static HttpResponse<String> send(URI base, String method, String path, String token, String contentType, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    try {
      return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  static HttpResponse<String> get(URI base, String path, String token) {
    return send(base, "GET", path, token, null, null);
  }

  static HttpResponse<String> postJson(URI base, String path, String token, String json) {
    return send(base, "POST", path, token, "application/json", json);
  }

  /** A request written by hand on a socket; the test decides when (and whether) the body ends. */
  static final class Raw implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final InputStream in;

    Raw(URI base) throws IOException {
      socket = new Socket(base.getHost(), base.getPort());
      socket.setSoTimeout(60_000);
      out = socket.getOutputStream();
      in = socket.getInputStream();
    }

    Raw write(String s) throws IOException {
      out.write(s.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return this;
    }

    /** Starts a chunked request: the headers are sent, the body follows in {@link #chunk} calls. */
    Raw startChunked(String method, String path, String token, String contentType) throws IOException {
      return write(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
          + "\r\nContent-Type: " + contentType + "\r\nTransfer-Encoding: chunked\r\n\r\n");
    }

    Raw chunk(String data) throws IOException {
      byte[] b = data.getBytes(StandardCharsets.UTF_8);
      write(Integer.toHexString(b.length) + "\r\n");
      out.write(b);
      return write("\r\n");
    }

    Raw endChunks() throws IOException {
      return write("0\r\n\r\n");
    }

    /** Reads the status line, headers and a Content-Length body. */
    String response() throws IOException {
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int c = in.read();
        if (c < 0) {
          break;
        }
        head.append((char) c);
      }
      int length = 0;
      for (String line : head.toString().split("\r\n")) {
        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).trim());
        }
      }
      byte[] body = in.readNBytes(length);
      return head + new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
