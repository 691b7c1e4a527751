package io.omnigraph.testkit.fault;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An HTTP/1.1 reverse proxy on {@code 127.0.0.1} (random port) that sits between a client and an
 * emulator and injects faults into selected requests.
 *
 * <p>Point the client's endpoint at {@link #endpoint()}; every request is forwarded to the upstream
 * <em>verbatim</em> (start line and headers byte for byte, {@code Host} included), so request
 * signatures such as AWS SigV4 still verify at the upstream. Supported: keep-alive connections,
 * {@code Content-Length} and chunked bodies in both directions, {@code Expect: 100-continue}, and
 * close-delimited responses. TLS is not supported (emulators speak plain HTTP).
 *
 * <p>Faults are armed with {@link #arm(FaultRule)}: a rule selects the n-th request matching a
 * method and a request-target pattern, and applies a {@link Fault} (answer with a status, reset the
 * connection, or forward and then drop the response). Rules are checked in the order they were
 * armed; every armed rule counts each request it matches, and the first rule that fires decides.
 * A {@link Fault.Delay} holds the request, then forwards it.
 *
 * <p>Every request is recorded ({@link #requests()}, {@link #count(String, String)}), which lets
 * tests count the requests an operation makes. Failures of the proxy itself (a malformed message,
 * an upstream that is down) are never hidden: the client connection is reset, and the failure is
 * kept in {@link #problems()}.
 *
 * <p>Thread-safe. {@link #close()} stops the listener and closes every connection.
 */
public final class FaultProxy implements AutoCloseable {
  private static final long UPSTREAM_MAX_IDLE_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final InetSocketAddress upstream;
  private final URI upstreamUri;
  private final ServerSocket server;
  private final ExecutorService connections;
  private final Set<Socket> openSockets = ConcurrentHashMap.newKeySet();
  private final List<ArmedFault> rules = new ArrayList<>(); // guarded by itself
  private final List<Selector> serialized = new CopyOnWriteArrayList<>();
  private final ConcurrentHashMap<String, Object> pathLocks = new ConcurrentHashMap<>();
  private final List<RecordedRequest> log = new CopyOnWriteArrayList<>();
  private final List<Throwable> problems = new CopyOnWriteArrayList<>();
  private final AtomicLong sequence = new AtomicLong();
  private volatile boolean closed;

  private FaultProxy(URI upstreamUri) throws IOException {
    if (!"http".equalsIgnoreCase(upstreamUri.getScheme()) || upstreamUri.getHost() == null) {
      throw new IllegalArgumentException("upstream must be an http://host:port URI: " + upstreamUri);
    }
    this.upstreamUri = upstreamUri;
    this.upstream = new InetSocketAddress(upstreamUri.getHost(), upstreamUri.getPort() < 0 ? 80 : upstreamUri.getPort());
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    AtomicInteger n = new AtomicInteger();
    this.connections = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fault-proxy-" + server.getLocalPort() + "-conn-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-" + server.getLocalPort() + "-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * Starts a proxy on {@code 127.0.0.1} with an OS-assigned port, forwarding to {@code upstream}.
   *
   * @param upstream {@code http://host:port} of the emulator (a path, if any, is ignored)
   * @throws IOException when the listener cannot be bound
   */
  public static FaultProxy start(URI upstream) throws IOException {
    return new FaultProxy(upstream);
  }

  /** @return the URI clients should use as their endpoint: {@code http://127.0.0.1:<port>} */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** @return the port the proxy listens on */
  public int port() {
    return server.getLocalPort();
  }

  /** @return the upstream this proxy forwards to */
  public URI upstream() {
    return upstreamUri;
  }

  /** Arms a rule; it counts matching requests from now on. */
  public ArmedFault arm(FaultRule rule) {
    ArmedFault armed = new ArmedFault(rule);
    synchronized (rules) {
      rules.add(armed);
    }
    return armed;
  }

  /**
   * Serializes matching requests per request path: while one such request to a path is being
   * forwarded and answered, another one to the same path waits. Requests to other paths, and
   * requests that do not match, are not held up. This makes an upstream whose writes of one object
   * are not atomic (check-then-write without a lock) behave like one whose writes are.
   *
   * @param method an HTTP method, or {@code null} for any
   * @param targetRegex a pattern the whole raw request target must match
   */
  public void serializePerPath(String method, String targetRegex) {
    serialized.add(new Selector(method, Pattern.compile(targetRegex)));
  }

  private record Selector(String method, Pattern target) {
    boolean matches(String m, String t) {
      return (method == null || method.equalsIgnoreCase(m)) && target.matcher(t).matches();
    }
  }

  private Object serialLock(String method, String target) {
    for (Selector r : serialized) {
      if (r.matches(method, target)) {
        int q = target.indexOf('?');
        return pathLocks.computeIfAbsent(q < 0 ? target : target.substring(0, q), k -> new Object());
      }
    }
    return null;
  }

  /** @return every rule armed and not disarmed, in arming order */
  public List<ArmedFault> armed() {
    synchronized (rules) {
      return rules.stream().filter(r -> !r.disarmed()).collect(Collectors.toUnmodifiableList());
    }
  }

  /** @return the armed (not disarmed) rules that have not fired even once */
  public List<ArmedFault> unfired() {
    return armed().stream().filter(r -> r.fired() == 0).collect(Collectors.toUnmodifiableList());
  }

  /** Disarms and forgets every rule. */
  public void disarmAll() {
    synchronized (rules) {
      rules.forEach(ArmedFault::disarm);
      rules.clear();
    }
  }

  /** @return every request seen so far, in arrival order */
  public List<RecordedRequest> requests() {
    List<RecordedRequest> out = new ArrayList<>(log);
    out.sort(Comparator.comparingLong(RecordedRequest::sequence));
    return List.copyOf(out);
  }

  /**
   * @param method an HTTP method, or {@code null} for any
   * @param targetRegex a pattern the whole raw request target must match
   * @return the recorded requests that match, in arrival order
   */
  public List<RecordedRequest> requests(String method, String targetRegex) {
    Pattern p = Pattern.compile(targetRegex);
    return requests().stream()
        .filter(r -> (method == null || method.equalsIgnoreCase(r.method())) && p.matcher(r.target()).matches())
        .collect(Collectors.toUnmodifiableList());
  }

  /** @return how many recorded requests match, as {@link #requests(String, String)} */
  public long count(String method, String targetRegex) {
    return requests(method, targetRegex).size();
  }

  /** Forgets the recorded requests (rules and their counters are kept). */
  public void clearLog() {
    log.clear();
  }

  /**
   * @return failures of the proxy itself while it was open (malformed messages, upstream
   *     unreachable); each also reset the client's connection. Empty in a healthy test.
   */
  public List<Throwable> problems() {
    return List.copyOf(problems);
  }

  /** Stops listening and closes every open connection. Idempotent. */
  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the fault proxy listener", e);
    } finally {
      for (Socket s : openSockets) {
        closeQuietly(s);
      }
      connections.shutdownNow();
    }
  }

  @Override
  public String toString() {
    return "FaultProxy[" + endpoint() + " -> " + upstreamUri + "]";
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        if (!closed) {
          problems.add(e);
        }
        return;
      }
      openSockets.add(client);
      try {
        connections.execute(() -> serve(client));
      } catch (RuntimeException e) { // rejected after close()
        openSockets.remove(client);
        closeQuietly(client);
      }
    }
  }

  /** One upstream connection, reused for keep-alive while the client connection lives. */
  private final class Upstream implements AutoCloseable {
    final Socket socket;
    final InputStream in;
    final OutputStream out;
    long lastUsed = System.nanoTime();

    Upstream() throws IOException {
      socket = new Socket();
      openSockets.add(socket);
      try {
        socket.connect(upstream, 10_000);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream());
        out = new BufferedOutputStream(socket.getOutputStream());
      } catch (IOException e) {
        close();
        throw e;
      }
    }

    boolean stale() {
      return socket.isClosed() || System.nanoTime() - lastUsed > UPSTREAM_MAX_IDLE_NANOS;
    }

    @Override
    public void close() {
      openSockets.remove(socket);
      closeQuietly(socket);
    }
  }

  private void serve(Socket client) {
    Upstream up = null;
    try {
      client.setTcpNoDelay(true);
      InputStream cin = new BufferedInputStream(client.getInputStream());
      OutputStream cout = new BufferedOutputStream(client.getOutputStream());
      while (!closed) {
        HttpHead req = HttpHead.read(cin);
        if (req == null) {
          return;
        }
        Exchange ex = new Exchange(req);
        try {
          if (up != null && up.stale()) {
            up.close();
            up = null;
          }
          Object lock = serialLock(ex.method, ex.target);
          Outcome outcome;
          if (lock == null) {
            outcome = handle(ex, cin, cout, up);
          } else {
            synchronized (lock) {
              outcome = handle(ex, cin, cout, up);
            }
          }
          up = outcome.upstream;
          if (outcome.closeClient) {
            return;
          }
        } finally {
          ex.log(); // no-op when already logged before the response went out
        }
      }
    } catch (ResetRequested e) {
      reset(client); // the fault asked for it: not a problem of the proxy
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        problems.add(e);
        reset(client);
      }
    } finally {
      if (up != null) {
        up.close();
      }
      openSockets.remove(client);
      closeQuietly(client);
    }
  }

  /** The state of one request while it is being handled, turned into a {@link RecordedRequest}. */
  private final class Exchange {
    final long seq = sequence.incrementAndGet();
    final HttpHead req;
    final String method;
    final String target;
    long bodyBytes;
    int status = -1;
    Fault fault;

    Exchange(HttpHead req) throws IOException {
      this.req = req;
      String[] parts = req.startLineParts();
      this.method = parts[0];
      this.target = parts[1];
    }

    private boolean logged;

    /**
     * Adds this exchange to the request log, once. Called before the client can see the outcome,
     * so a test that reacts to a response always finds the request logged.
     */
    void log() {
      if (!logged) {
        logged = true;
        FaultProxy.this.log.add(new RecordedRequest(seq, method, target, req.headers, bodyBytes, status, fault));
      }
    }
  }

  private record Outcome(Upstream upstream, boolean closeClient) {}

  private Fault select(String method, String target) {
    Fault chosen = null;
    synchronized (rules) {
      for (ArmedFault r : rules) {
        // every rule counts the request; the first one in its firing window decides
        if (r.offer(method, target) && chosen == null) {
          chosen = r.rule().fault();
        }
      }
    }
    return chosen;
  }

  private Outcome handle(Exchange ex, InputStream cin, OutputStream cout, Upstream up) throws IOException {
    HttpHead req = ex.req;
    boolean expectContinue = "100-continue".equalsIgnoreCase(trimmed(req.header("Expect")));
    boolean clientWantsClose = req.headerHasToken("Connection", "close") || "HTTP/1.0".equals(req.version());
    ex.fault = select(ex.method, ex.target);

    if (ex.fault instanceof Fault.Respond r) {
      boolean close = clientWantsClose || expectContinue; // with 100-continue the body was never read
      if (!expectContinue) {
        ex.bodyBytes = req.copyBody(cin, null, false);
      }
      ex.status = r.status();
      ex.log();
      writeResponse(cout, r, ex.method, close);
      return new Outcome(up, close);
    }
    if (ex.fault instanceof Fault.Reset) {
      if (!expectContinue) {
        ex.bodyBytes = req.copyBody(cin, null, false);
      }
      ex.log();
      throw new ResetRequested();
    }

    if (ex.fault instanceof Fault.Delay d) {
      try {
        Thread.sleep(d.millis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while holding " + ex.method + " " + ex.target, e);
      }
    }
    boolean drop = ex.fault instanceof Fault.ForwardThenDrop;
    if (up == null) {
      try {
        up = new Upstream();
      } catch (IOException e) {
        throw new IOException("upstream " + upstream + " unreachable for " + ex.method + " " + ex.target, e);
      }
    }
    try {
      up.out.write(req.raw);
      boolean bodySent = !expectContinue;
      boolean closeAfter = clientWantsClose;
      if (!expectContinue) {
        ex.bodyBytes = req.copyBody(cin, up.out, false);
      }
      up.out.flush();
      HttpHead resp = HttpHead.read(up.in);
      while (true) {
        if (resp == null) {
          throw new IOException("upstream closed the connection without answering " + ex.method + " " + ex.target);
        }
        int status = resp.status();
        if (status >= 200) {
          break;
        }
        if (status == 100 && !bodySent) {
          cout.write(resp.raw);
          cout.flush();
          ex.bodyBytes = req.copyBody(cin, up.out, false);
          up.out.flush();
          bodySent = true;
        } else if (status != 100) {
          cout.write(resp.raw); // other interim responses are relayed as they come
          cout.flush();
        }
        resp = HttpHead.read(up.in);
      }
      if (!bodySent) {
        // final answer instead of 100: the client may or may not send its body now, so this
        // connection cannot carry another request reliably
        closeAfter = true;
      }
      int status = resp.status();
      boolean noBody = "HEAD".equalsIgnoreCase(ex.method) || status == 204 || status == 304;
      boolean closeDelimited = !noBody && !resp.isChunked() && resp.contentLength() < 0;
      boolean upstreamCloses = closeDelimited || resp.headerHasToken("Connection", "close");
      if (drop) {
        if (!noBody) {
          resp.copyBody(up.in, null, closeDelimited);
        }
        up.close();
        ex.log();
        throw new ResetRequested();
      }
      ex.status = status;
      cout.write(resp.raw);
      if (!noBody) {
        resp.copyBody(up.in, cout, closeDelimited);
      }
      ex.log();
      cout.flush();
      up.lastUsed = System.nanoTime();
      if (upstreamCloses) {
        up.close();
        up = null;
      }
      return new Outcome(up, closeAfter || upstreamCloses);
    } catch (IOException | RuntimeException e) {
      up.close();
      throw e;
    }
  }

  private static String trimmed(String s) {
    return s == null ? null : s.trim();
  }

  private static void writeResponse(OutputStream out, Fault.Respond r, String method, boolean close)
      throws IOException {
    byte[] body = r.body();
    StringBuilder head = new StringBuilder();
    head.append("HTTP/1.1 ").append(r.status()).append(' ').append(reason(r.status())).append("\r\n");
    for (Map.Entry<String, String> h : r.headers().entrySet()) {
      if (!h.getKey().equalsIgnoreCase("Content-Length") && !h.getKey().equalsIgnoreCase("Connection")) {
        head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
      }
    }
    head.append("Content-Length: ").append(body.length).append("\r\n");
    if (close) {
      head.append("Connection: close\r\n");
    }
    head.append("\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!"HEAD".equalsIgnoreCase(method)) {
      out.write(body);
    }
    out.flush();
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 409 -> "Conflict";
      case 412 -> "Precondition Failed";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "Fault";
    };
  }

  /** Thrown inside the handler to end the exchange with a TCP reset of the client connection. */
  private static final class ResetRequested extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ResetRequested() {
      super("fault: reset the client connection", null, false, false);
    }
  }

  private static void reset(Socket s) {
    try {
      s.setSoLinger(true, 0); // close() now sends RST instead of FIN
    } catch (SocketException e) {
      // the socket is already closed or broken; closing it below is all that is left to do
    }
    closeQuietly(s);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing a socket during teardown: nothing can be done, and the peer sees a reset either way
    }
  }
}
