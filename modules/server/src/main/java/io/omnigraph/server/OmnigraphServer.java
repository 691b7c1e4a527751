package io.omnigraph.server;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The OmniGraph HTTP server (docs/server.md): serves open {@link Graph}s by id under {@code
 * /graphs/{id}} on Jetty 12.
 *
 * <pre>{@code
 * try (Graph g = Omnigraph.open("/data/lib");
 *      OmnigraphServer server = OmnigraphServer.builder()
 *          .graph("lib", g).tokens(Tokens.of(Map.of("alice", "s3cret"))).bind("127.0.0.1", 8080).start()) {
 *   server.join();
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops gracefully: it stops accepting connections, lets requests in flight finish
 * up to the stop timeout, then ends the rest. The graphs stay open: whoever opened them closes them.
 */
public final class OmnigraphServer implements AutoCloseable {
  /** Default body limit of every route but the load routes: 1 MB. */
  public static final long DEFAULT_BODY_LIMIT = 1_000_000L;
  /** Default body limit of {@code load} and {@code load/ndjson}: 32 MiB, the loader's per-request limit. */
  public static final long DEFAULT_LOAD_BODY_LIMIT = 32L * 1024 * 1024;
  /** Default cap of writes in flight per actor. */
  public static final int DEFAULT_MAX_IN_FLIGHT_PER_ACTOR = 16;

  private static final Pattern GRAPH_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /** Everything a running server was configured with. */
  record Settings(Tokens tokens, boolean unauthenticated, boolean readOnly, long bodyLimit, long loadBodyLimit,
      int maxInFlightPerActor, Consumer<String> accessLog, Consumer<String> errorLog) {}

  private final Server jetty;
  private final ServerConnector connector;
  private final Map<String, Graph> graphs;

  private OmnigraphServer(Server jetty, ServerConnector connector, Map<String, Graph> graphs) {
    this.jetty = jetty;
    this.connector = connector;
    this.graphs = graphs;
  }

  /** @return a builder with the defaults: 127.0.0.1:8080, no graphs, no tokens */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the release version, or {@code dev} when run from classes */
  public static String version() {
    String v = OmnigraphServer.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /** @return the address the server listens on (the real port when 0 was asked for) */
  public InetSocketAddress address() {
    String host = connector.getHost() == null ? "0.0.0.0" : connector.getHost();
    return new InetSocketAddress(host, connector.getLocalPort());
  }

  /** @return {@code http://host:port} */
  public URI uri() {
    InetSocketAddress a = address();
    String host = a.getHostString().contains(":") ? "[" + a.getHostString() + "]" : a.getHostString();
    return URI.create("http://" + host + ":" + a.getPort());
  }

  /** @return the graphs served, by id */
  public Map<String, Graph> graphs() {
    return graphs;
  }

  /** Blocks until the server has stopped. */
  public void join() throws InterruptedException {
    jetty.join();
  }

  /** Stops gracefully (see the class comment). Idempotent. */
  @Override
  public void close() {
    try {
      if (!jetty.isStopped()) {
        jetty.stop();
      }
    } catch (Exception e) {
      throw new InternalErrorException("the HTTP server did not stop cleanly: " + e, null, e);
    }
  }

  /**
   * A request that ends while the server stops gives its connection back the shutdown idle timeout
   * (1 s): the stop had given it the whole stop deadline because a request was still being handled.
   * Without this, a client that has its response but keeps the connection open held the stop for the
   * whole deadline (seen once as a graceful-stop timeout in a contract test's clean-up).
   */
  private static void idleAgainOnStop(ServerConnector connector, EndPoint ep) {
    if (connector.isShutdown()) {
      ep.setIdleTimeout(connector.getShutdownIdleTimeout());
    }
  }

  /** Configures and starts a server. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = 8080;
    private final Map<String, Graph> graphs = new LinkedHashMap<>();
    private Tokens tokens = Tokens.none();
    private boolean unauthenticated;
    private boolean readOnly;
    private long bodyLimit = DEFAULT_BODY_LIMIT;
    private long loadBodyLimit = DEFAULT_LOAD_BODY_LIMIT;
    private int maxInFlightPerActor = DEFAULT_MAX_IN_FLIGHT_PER_ACTOR;
    private Duration stopTimeout = Duration.ofSeconds(30);
    private Consumer<String> accessLog;
    private Consumer<String> errorLog = System.err::println;
    private int maxThreads = 64;

    private Builder() {}

    /** Listens on {@code host:port} ({@code port} 0: any free port). */
    public Builder bind(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /**
     * Listens on {@code host:port}, {@code :port} or {@code port} ({@code [v6]:port} for IPv6).
     *
     * @throws InvalidInputException not one of those forms
     */
    public Builder bind(String hostPort) {
      String h = host;
      String p = hostPort;
      int colon = hostPort.lastIndexOf(':');
      if (colon >= 0) {
        h = hostPort.substring(0, colon);
        p = hostPort.substring(colon + 1);
        if (h.startsWith("[") && h.endsWith("]")) {
          h = h.substring(1, h.length() - 1);
        }
        if (h.isEmpty()) {
          h = host;
        }
      }
      try {
        int n = Integer.parseInt(p);
        if (n < 0 || n > 65535) {
          throw new NumberFormatException();
        }
        return bind(h, n);
      } catch (NumberFormatException e) {
        throw new InvalidInputException("--bind must be host:port with a port 0..65535, not '" + hostPort + "'",
            new ErrorDetail.Validation(null, null, "bind", "invalid_bind"));
      }
    }

    /** Serves {@code graph} under {@code /graphs/<id>}. */
    public Builder graph(String id, Graph graph) {
      if (!GRAPH_ID.matcher(id).matches()) {
        throw new InvalidInputException("graph id '" + id + "' must be 1-128 letters, digits, '.', '_' or '-'",
            new ErrorDetail.Validation(null, null, "graph_id", "invalid_graph_id"));
      }
      if (graphs.putIfAbsent(id, Objects.requireNonNull(graph, "graph")) != null) {
        throw new InvalidInputException("graph id '" + id + "' is given twice",
            new ErrorDetail.Validation(null, null, "graph_id", "duplicate_graph_id"));
      }
      return this;
    }

    /** The bearer tokens; each actor's token makes that actor the commit actor of its writes. */
    public Builder tokens(Tokens tokens) {
      this.tokens = Objects.requireNonNull(tokens, "tokens");
      return this;
    }

    /** Serves without authentication (writes have no actor). Without it, starting with no tokens fails. */
    public Builder unauthenticated(boolean unauthenticated) {
      this.unauthenticated = unauthenticated;
      return this;
    }

    /** Refuses every write route with 403. */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /** Body limit of every route but the load routes (default 1 MB). */
    public Builder bodyLimit(long bytes) {
      this.bodyLimit = bytes;
      return this;
    }

    /** Body limit of the load routes (default 32 MiB). */
    public Builder loadBodyLimit(long bytes) {
      this.loadBodyLimit = bytes;
      return this;
    }

    /** Writes in flight per actor before 429 (default 16). */
    public Builder maxInFlightPerActor(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxInFlightPerActor must be at least 1");
      }
      this.maxInFlightPerActor = n;
      return this;
    }

    /** How long {@link #close()} lets requests in flight finish (default 30 s). */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** Receives one line per request ({@code null}: no access log). */
    public Builder accessLog(Consumer<String> log) {
      this.accessLog = log;
      return this;
    }

    /** Receives server-side failures with their stack traces (default: stderr). */
    public Builder errorLog(Consumer<String> log) {
      this.errorLog = Objects.requireNonNull(log, "log");
      return this;
    }

    /** Worker threads (default 64). */
    public Builder maxThreads(int n) {
      this.maxThreads = n;
      return this;
    }

    /**
     * Binds and starts.
     *
     * @return the running server
     * @throws InvalidInputException no graphs, or no tokens without {@link #unauthenticated}
     * @throws io.omnigraph.api.StorageFailureException the address cannot be bound
     */
    public OmnigraphServer start() {
      if (graphs.isEmpty()) {
        throw new InvalidInputException("no graphs to serve", new ErrorDetail.Validation(null, null, "graphs", "no_graphs"));
      }
      if (tokens.isEmpty() && !unauthenticated) {
        throw new InvalidInputException("no bearer tokens: give --tokens-file <f.json> or set " + Tokens.FILE_ENV + ", "
            + Tokens.JSON_ENV + " or " + Tokens.SINGLE_ENV + "; or pass --unauthenticated to serve without authentication",
            new ErrorDetail.Validation(null, null, "tokens", "no_tokens"));
      }
      Settings settings = new Settings(tokens, unauthenticated, readOnly, bodyLimit, loadBodyLimit, maxInFlightPerActor,
          accessLog, errorLog);
      QueuedThreadPool pool = new QueuedThreadPool(maxThreads, Math.min(4, maxThreads));
      pool.setName("omnigraph-http");
      Server jetty = new Server(pool);
      HttpConfiguration http = new HttpConfiguration();
      http.setSendServerVersion(false);
      http.setSendDateHeader(true);
      long stopMillis = stopTimeout.toMillis();
      Set<EndPoint> handling = ConcurrentHashMap.newKeySet();
      ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http)) {
        @Override
        public CompletableFuture<Void> shutdown() {
          // Jetty gives every open connection the 1 s shutdown idle timeout: that ends idle keep-alive
          // connections. A connection whose request is still being handled keeps its client until the
          // stop deadline instead, so a write in flight is never cut because its client paused for a
          // second; the deadline itself still ends it.
          CompletableFuture<Void> done = super.shutdown();
          handling.forEach(ep -> ep.setIdleTimeout(stopMillis));
          return done;
        }
      };
      connector.setHost(host);
      connector.setPort(port);
      // Long loads and exports keep a connection busy without I/O; do not cut them.
      connector.setIdleTimeout(Duration.ofMinutes(10).toMillis());
      // During a graceful stop a connection without a request in the handler that is idle for more
      // than 1 s is closed (Jetty's shutdown idle timeout): that ends idle keep-alive connections.
      jetty.addConnector(connector);
      Map<String, Graph> served = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(graphs));
      Handler.Wrapper tracking = new Handler.Wrapper(new ApiHandler(settings, served)) {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
          EndPoint ep = request.getConnectionMetaData().getConnection().getEndPoint();
          handling.add(ep);
          if (connector.isShutdown()) { // the stop began while this request came in
            ep.setIdleTimeout(stopMillis);
          }
          Callback done = Callback.from(callback.getInvocationType(), () -> {
            handling.remove(ep);
            callback.succeeded();
            idleAgainOnStop(connector, ep);
          }, failure -> {
            handling.remove(ep);
            callback.failed(failure);
            idleAgainOnStop(connector, ep);
          });
          boolean handled = false;
          try {
            handled = super.handle(request, response, done);
            return handled;
          } finally {
            if (!handled) {
              handling.remove(ep);
            }
          }
        }
      };
      jetty.setHandler(new GracefulHandler(tracking));
      jetty.setErrorHandler(new JsonErrorHandler());
      jetty.setStopTimeout(stopTimeout.toMillis());
      jetty.setStopAtShutdown(false);
      try {
        jetty.start();
      } catch (Exception e) {
        try {
          jetty.stop();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
        throw new io.omnigraph.api.StorageFailureException("cannot listen on " + host + ":" + port + ": " + e.getMessage(),
            new ErrorDetail.Storage("BIND", host + ":" + port), e);
      }
      return new OmnigraphServer(jetty, connector, served);
    }
  }
}
