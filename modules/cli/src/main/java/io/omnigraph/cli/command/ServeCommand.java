package io.omnigraph.cli.command;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.OmnigraphCli;
import io.omnigraph.cli.Terminal;
import io.omnigraph.server.OmnigraphServer;
import io.omnigraph.server.Tokens;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code omnigraph serve <uri>...}: serves graphs over HTTP until SIGTERM/SIGINT (docs/server.md).
 * Prints {@code OMNIGRAPH_LISTEN_ADDR=<host:port>} on stdout once listening.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve graphs over HTTP (routes under /graphs/<id>; see docs/server.md).",
        "Each graph is <uri> (its id is the last path segment) or <id>=<uri>. Prints OMNIGRAPH_LISTEN_ADDR=<host:port>"
            + " once listening; SIGTERM stops accepting, lets requests in flight finish (--stop-timeout), closes the graphs."})
public final class ServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin OutputOptions output;

  @Parameters(arity = "1..*", paramLabel = "<[id=]uri>", description = "Graphs to serve.")
  List<String> graphs = new ArrayList<>();

  @Option(names = "--bind", paramLabel = "<host:port>", defaultValue = "127.0.0.1:8080",
      description = "Address to listen on (default ${DEFAULT-VALUE}; port 0: any free port).")
  String bind;

  @Option(names = "--tokens-file", paramLabel = "<f.json>",
      description = "Bearer tokens {\"<actor>\": \"<token>\" or \"sha256:<hex>\"} (else $" + Tokens.FILE_ENV + ", $"
          + Tokens.JSON_ENV + ", $" + Tokens.SINGLE_ENV + ").")
  Path tokensFile;

  @Option(names = "--unauthenticated", description = "Serve without authentication (writes have no actor).")
  boolean unauthenticated;

  @Option(names = "--read-only", description = "Refuse every write route with 403.")
  boolean readOnly;

  @Option(names = "--max-in-flight-per-actor", paramLabel = "<n>", defaultValue = "16",
      description = "Writes in flight per actor before 429 (default ${DEFAULT-VALUE}).")
  int maxInFlight;

  @Option(names = "--stop-timeout", paramLabel = "<seconds>", defaultValue = "30",
      description = "On SIGTERM, how long requests in flight may finish (default ${DEFAULT-VALUE}).")
  int stopTimeoutSeconds;

  @Option(names = "--no-access-log", description = "Do not write the access log (one line per request) to stderr.")
  boolean noAccessLog;

  @Option(names = "--option", paramLabel = "<key=value>",
      description = "Storage option passed to every graph's adapter (repeatable).")
  Map<String, String> options = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    Terminal terminal = ((OmnigraphCli) spec.root().userObject()).terminal();
    Tokens tokens;
    if (tokensFile != null) {
      tokens = Tokens.fromFile(tokensFile);
    } else {
      tokens = Tokens.fromEnvironment(terminal.env()).orElse(Tokens.none());
    }
    if (tokens.isEmpty() && !unauthenticated) {
      throw CliFailure.usage("no bearer tokens: pass --tokens-file <f.json>, set " + Tokens.FILE_ENV + ", " + Tokens.JSON_ENV
          + " or " + Tokens.SINGLE_ENV + ", or pass --unauthenticated");
    }
    Map<String, String> byId = new LinkedHashMap<>();
    for (String g : graphs) {
      int eq = g.indexOf('=');
      String id = eq > 0 && !g.substring(0, eq).contains("/") ? g.substring(0, eq) : null;
      String uri = id == null ? g : g.substring(eq + 1);
      if (id == null) {
        String trimmed = uri.replaceAll("/+$", "");
        id = trimmed.substring(trimmed.lastIndexOf('/') + 1);
      }
      if (byId.putIfAbsent(id, uri) != null) {
        throw CliFailure.usage("graph id '" + id + "' is given twice; name them <id>=<uri>");
      }
    }
    PrintWriter err = terminal.err();
    Map<String, Graph> open = new LinkedHashMap<>();
    OmnigraphServer server;
    try {
      for (Map.Entry<String, String> e : byId.entrySet()) {
        StorageOptionKeys.check(e.getValue(), options);
        open.put(e.getKey(), Omnigraph.open(e.getValue(), new OpenOptions(options)));
      }
      OmnigraphServer.Builder b = OmnigraphServer.builder().bind(bind).tokens(tokens).unauthenticated(unauthenticated)
          .readOnly(readOnly).maxInFlightPerActor(maxInFlight).stopTimeout(Duration.ofSeconds(stopTimeoutSeconds))
          .errorLog(line -> {
            synchronized (err) {
              err.println(line);
              err.flush();
            }
          });
      if (!noAccessLog) {
        b.accessLog(line -> {
          synchronized (err) {
            err.println(line);
            err.flush();
          }
        });
      }
      open.forEach(b::graph);
      server = b.start();
    } catch (RuntimeException e) {
      open.values().forEach(Graph::close);
      throw e;
    }
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop = () -> {
      if (stopped.compareAndSet(false, true)) {
        try {
          server.close();
        } finally {
          open.values().forEach(Graph::close);
          synchronized (err) {
            err.println("omnigraph serve: stopped");
            err.flush();
          }
        }
      }
    };
    Thread hook = new Thread(stop, "omnigraph-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    String addr = server.address().getHostString() + ":" + server.address().getPort();
    var out = terminal.out();
    if (output.json()) {
      var o = io.omnigraph.cli.Json.object().put("listen_addr", addr).put("url", server.uri().toString());
      var ids = o.putArray("graphs");
      open.keySet().forEach(ids::add);
      out.println(io.omnigraph.cli.Json.write(o));
    } else {
      out.println("OMNIGRAPH_LISTEN_ADDR=" + addr);
    }
    out.flush();
    synchronized (err) {
      err.println("omnigraph serve: " + server.uri() + " serving " + open.keySet()
          + (unauthenticated ? " without authentication" : " to " + tokens.size() + " actor(s)") + (readOnly ? ", read-only" : ""));
      err.flush();
    }
    server.join();
    if (!stopped.get()) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is already running
      }
      stop.run();
    }
    return 0;
  }
}
