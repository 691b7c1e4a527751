package io.omnigraph.testkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {

  /** What the upstream saw of one request. */
  record Seen(String method, String target, String host, String custom, byte[] body) {}

  private HttpServer upstream;
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private FaultProxy proxy;

  @BeforeEach
  void startUpstreamAndProxy() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    upstream.createContext("/", this::echo);
    upstream.setExecutor(java.util.concurrent.Executors.newCachedThreadPool()); // concurrent handling
    upstream.start();
    proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + upstream.getAddress().getPort()));
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.stop(0);
  }

  private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger maxInFlight = new java.util.concurrent.atomic.AtomicInteger();

  private void echo(HttpExchange ex) throws IOException {
    // "In flight" ends just before the response goes out: once the proxy has the response it may
    // release the path, so counting until the handler returns would race with the next request.
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    try {
      if (ex.getRequestURI().getPath().startsWith("/slow")) {
        try {
          Thread.sleep(50); // widens the window in which a second request could overlap
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    } finally {
      inFlight.decrementAndGet();
    }
    echoBody(ex);
  }

  private void echoBody(HttpExchange ex) throws IOException {
    byte[] body = ex.getRequestBody().readAllBytes();
    seen.add(new Seen(ex.getRequestMethod(), ex.getRequestURI().toString(),
        ex.getRequestHeaders().getFirst("Host"), ex.getRequestHeaders().getFirst("X-Custom"), body));
    byte[] reply = ("echo " + ex.getRequestMethod() + " " + ex.getRequestURI() + " " + body.length)
        .getBytes(StandardCharsets.UTF_8);
    if (ex.getRequestURI().getPath().startsWith("/chunked")) {
      ex.sendResponseHeaders(200, 0); // 0 = chunked response
    } else {
      ex.sendResponseHeaders(200, reply.length);
    }
    try (OutputStream out = ex.getResponseBody()) {
      out.write(reply);
    }
  }

  /** A minimal HTTP/1.1 client on a raw socket, so tests control every byte and connection. */
  static final class Raw implements AutoCloseable {
    final Socket socket;
    final InputStream in;
    final OutputStream out;

    Raw(FaultProxy proxy) throws IOException {
      socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
      socket.setSoTimeout(20_000);
      in = new BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    }

    void send(String head) throws IOException {
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }

    void send(byte[] bytes) throws IOException {
      out.write(bytes);
      out.flush();
    }

    record Response(int status, String body, HttpHead head) {}

    Response read(String method) throws IOException {
      HttpHead head = HttpHead.read(in);
      if (head == null) {
        throw new IOException("connection closed before a response");
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      int status = head.status();
      if (status >= 200 && !method.equals("HEAD")) {
        boolean untilEof = !head.isChunked() && head.contentLength() < 0;
        // strip chunk framing for assertions by re-reading through the framing-aware copier
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        head.copyBody(in, framed, untilEof);
        body.write(head.isChunked() ? unchunk(framed.toByteArray()) : framed.toByteArray());
      }
      return new Response(status, body.toString(StandardCharsets.UTF_8), head);
    }

    static byte[] unchunk(byte[] framed) {
      String s = new String(framed, StandardCharsets.ISO_8859_1);
      StringBuilder out = new StringBuilder();
      int i = 0;
      while (true) {
        int eol = s.indexOf("\r\n", i);
        int size = Integer.parseInt(s.substring(i, eol).split(";")[0].trim(), 16);
        if (size == 0) {
          return out.toString().getBytes(StandardCharsets.ISO_8859_1);
        }
        out.append(s, eol + 2, eol + 2 + size);
        i = eol + 2 + size + 2;
      }
    }

    /** @return whether the proxy ended the connection (EOF or reset) */
    boolean closedByPeer() {
      try {
        return in.read() < 0;
      } catch (IOException e) {
        return true;
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  private static String get(String target, String host) {
    return "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nX-Custom: kept\r\n\r\n";
  }

  private static String put(String target, int length) {
    return "PUT " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + length + "\r\n\r\n";
  }

  @Test
  void forwardsTheRequestHeadVerbatimIncludingTheClientsHostHeader() throws IOException {
    try (Raw c = new Raw(proxy)) {
      c.send(get("/bucket/a%20b?list-type=2&prefix=dir/", "signed.example:4711"));
      Raw.Response r = c.read("GET");
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("echo GET /bucket/a%20b?list-type=2&prefix=dir/ 0");
    }
    assertThat(seen).singleElement().satisfies(s -> {
      assertThat(s.host()).isEqualTo("signed.example:4711");
      assertThat(s.custom()).isEqualTo("kept");
      assertThat(s.target()).isEqualTo("/bucket/a%20b?list-type=2&prefix=dir/");
    });
    assertThat(proxy.problems()).isEmpty();
  }

  @Test
  void keepAliveCarriesSeveralRequestsOverOneClientConnection() throws IOException {
    try (Raw c = new Raw(proxy)) {
      for (int i = 0; i < 3; i++) {
        c.send(put("/k" + i, 5));
        c.send("hello".getBytes(StandardCharsets.US_ASCII));
        assertThat(c.read("PUT").body()).isEqualTo("echo PUT /k" + i + " 5");
      }
    }
    assertThat(seen).extracting(Seen::target).containsExactly("/k0", "/k1", "/k2");
    assertThat(proxy.requests()).extracting(RecordedRequest::bodyBytes).containsExactly(5L, 5L, 5L);
  }

  @Test
  void chunkedRequestAndResponseBodiesAreRelayed() throws IOException {
    try (Raw c = new Raw(proxy)) {
      c.send("POST /chunked/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n");
      Raw.Response r = c.read("POST");
      assertThat(r.head().isChunked()).isTrue();
      assertThat(r.body()).isEqualTo("echo POST /chunked/x 11");
    }
    assertThat(new String(seen.get(0).body(), StandardCharsets.US_ASCII)).isEqualTo("hello world");
    assertThat(proxy.requests().get(0).bodyBytes()).isEqualTo(11);
  }

  @Test
  void expectContinueRelaysTheInterimResponseBeforeTheBodyIsSent() throws IOException {
    try (Raw c = new Raw(proxy)) {
      c.send("PUT /obj HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
      Raw.Response interim = c.read("PUT");
      assertThat(interim.status()).isEqualTo(100);
      assertThat(seen).isEmpty();
      c.send("data".getBytes(StandardCharsets.US_ASCII));
      assertThat(c.read("PUT").body()).isEqualTo("echo PUT /obj 4");
      // and the connection stays usable
      c.send(get("/after", "h"));
      assertThat(c.read("GET").status()).isEqualTo(200);
    }
    assertThat(new String(seen.get(0).body(), StandardCharsets.US_ASCII)).isEqualTo("data");
  }

  @Test
  void theNthMatchingRequestGetsTheArmedStatusAndTheOthersAreForwarded() throws IOException {
    ArmedFault armed = proxy.arm(FaultRule.on("PUT", "/b/.*").nth(2).then(Fault.s3Error(503, "SlowDown", "slow")));
    try (Raw c = new Raw(proxy)) {
      int[] statuses = new int[4];
      String[] targets = {"/b/1", "/other", "/b/2", "/b/3"};
      for (int i = 0; i < targets.length; i++) {
        c.send(put(targets[i], 2));
        c.send("ab".getBytes(StandardCharsets.US_ASCII));
        Raw.Response r = c.read("PUT");
        statuses[i] = r.status();
        if (i == 2) {
          assertThat(r.body()).contains("<Code>SlowDown</Code>");
        }
      }
      assertThat(statuses).containsExactly(200, 200, 503, 200);
    }
    assertThat(seen).extracting(Seen::target).containsExactly("/b/1", "/other", "/b/3");
    assertThat(armed.matched()).isEqualTo(3);
    assertThat(armed.fired()).isEqualTo(1);
    assertThat(proxy.unfired()).isEmpty();
    assertThat(proxy.requests()).extracting(RecordedRequest::status).containsExactly(200, 200, 503, 200);
  }

  @Test
  void aRuleWithTimesFiresOnConsecutiveMatchingRequests() throws IOException {
    ArmedFault armed = proxy.arm(FaultRule.on(null, "/t").times(2).then(Fault.status(500, "boom")));
    try (Raw c = new Raw(proxy)) {
      for (int expected : new int[] {500, 500, 200}) {
        c.send(get("/t", "h"));
        assertThat(c.read("GET").status()).isEqualTo(expected);
      }
    }
    assertThat(armed.fired()).isEqualTo(2);
    assertThat(armed.exhausted()).isTrue();
    assertThat(seen).hasSize(1);
  }

  @Test
  void theMethodAndTheWholeTargetMustMatch() throws IOException {
    ArmedFault armed = proxy.arm(FaultRule.on("DELETE", "/b/x").then(Fault.status(500, "no")));
    try (Raw c = new Raw(proxy)) {
      c.send(get("/b/x", "h"));
      assertThat(c.read("GET").status()).isEqualTo(200);
      c.send("DELETE /b/x?versionId=1 HTTP/1.1\r\nHost: h\r\n\r\n");
      assertThat(c.read("DELETE").status()).isEqualTo(200);
    }
    assertThat(armed.matched()).isZero();
    assertThat(proxy.unfired()).containsExactly(armed);
  }

  @Test
  void aStatusFaultOnAnExpectContinueRequestAnswersWithoutReadingTheBodyAndCloses() throws IOException {
    proxy.arm(FaultRule.on("PUT", "/obj").then(Fault.status(412, "nope")));
    try (Raw c = new Raw(proxy)) {
      c.send("PUT /obj HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
      Raw.Response r = c.read("PUT");
      assertThat(r.status()).isEqualTo(412);
      assertThat(r.body()).isEqualTo("nope");
      assertThat(r.head().headerHasToken("Connection", "close")).isTrue();
      assertThat(c.closedByPeer()).isTrue();
    }
    assertThat(seen).isEmpty();
  }

  @Test
  void aResetFaultResetsTheConnectionAndNeverReachesTheUpstream() throws IOException {
    proxy.arm(FaultRule.on("PUT", "/obj").then(Fault.reset()));
    try (Raw c = new Raw(proxy)) {
      c.send(put("/obj", 3));
      c.send("abc".getBytes(StandardCharsets.US_ASCII));
      assertThatThrownBy(() -> c.read("PUT")).isInstanceOf(IOException.class);
    }
    assertThat(seen).isEmpty();
    assertThat(proxy.requests()).singleElement().satisfies(r -> {
      assertThat(r.status()).isEqualTo(-1);
      assertThat(r.fault()).isInstanceOf(Fault.Reset.class);
    });
    assertThat(proxy.problems()).isEmpty();
  }

  @Test
  void forwardThenDropAppliesTheRequestUpstreamButTheClientGetsNoResponse() throws IOException {
    proxy.arm(FaultRule.on("PUT", "/obj").then(Fault.forwardThenDrop()));
    try (Raw c = new Raw(proxy)) {
      c.send(put("/obj", 3));
      c.send("abc".getBytes(StandardCharsets.US_ASCII));
      assertThatThrownBy(() -> c.read("PUT")).isInstanceOf(IOException.class);
    }
    assertThat(seen).singleElement().satisfies(s -> assertThat(new String(s.body(), StandardCharsets.US_ASCII))
        .isEqualTo("abc"));
    assertThat(proxy.requests()).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(-1));
  }

  @Test
  void forwardThenDropWorksWithExpectContinue() throws IOException {
    proxy.arm(FaultRule.on("PUT", "/obj").then(Fault.forwardThenDrop()));
    try (Raw c = new Raw(proxy)) {
      c.send("PUT /obj HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
      assertThat(c.read("PUT").status()).isEqualTo(100);
      c.send("data".getBytes(StandardCharsets.US_ASCII));
      assertThatThrownBy(() -> c.read("PUT")).isInstanceOf(IOException.class);
    }
    assertThat(seen).hasSize(1);
  }

  @Test
  void theRequestLogCountsByMethodAndTarget() throws IOException {
    try (Raw c = new Raw(proxy)) {
      for (String t : new String[] {"/b?list-type=2", "/b?list-type=2&continuation-token=x", "/b/k"}) {
        c.send(get(t, "h"));
        c.read("GET");
      }
    }
    assertThat(proxy.count("GET", "/b\\?list-type=2.*")).isEqualTo(2);
    assertThat(proxy.count(null, ".*")).isEqualTo(3);
    assertThat(proxy.requests()).extracting(RecordedRequest::sequence).containsExactly(1L, 2L, 3L);
    assertThat(proxy.requests().get(2).header("x-custom")).contains("kept");
    proxy.clearLog();
    assertThat(proxy.requests()).isEmpty();
  }

  @Test
  void anUnreachableUpstreamResetsTheClientAndIsReportedAsAProblem() throws IOException {
    upstream.stop(0);
    try (Raw c = new Raw(proxy)) {
      c.send(get("/x", "h"));
      assertThatThrownBy(() -> c.read("GET")).isInstanceOf(IOException.class);
    }
    assertThat(proxy.problems()).singleElement().satisfies(p -> assertThat(p).hasMessageContaining("unreachable"));
  }

  @Test
  void closeEndsOpenClientConnections() throws IOException {
    // (whether the port refuses new connections is not asserted: on a shared machine another
    // process may bind the freed port at once)
    try (Raw c = new Raw(proxy)) {
      c.send(get("/x", "h"));
      assertThat(c.read("GET").status()).isEqualTo(200);
      proxy.close();
      assertThat(c.closedByPeer()).isTrue();
    }
  }

  @Test
  void serializedRequestsToOnePathNeverOverlapUpstream() throws Exception {
    proxy.serializePerPath("PUT", "/slow/.*");
    int clients = 6;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
    try {
      java.util.List<java.util.concurrent.Future<Integer>> results = new java.util.ArrayList<>();
      for (int i = 0; i < clients; i++) {
        results.add(pool.submit(() -> {
          try (Raw c = new Raw(proxy)) {
            c.send(put("/slow/one-key?attempt=x", 2));
            c.send("ab".getBytes(StandardCharsets.US_ASCII));
            return c.read("PUT").status();
          }
        }));
      }
      for (var f : results) {
        assertThat(f.get(1, java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(seen).hasSize(clients);
    assertThat(maxInFlight.get()).as("requests to one path in flight at once upstream").isEqualTo(1);
  }
}
