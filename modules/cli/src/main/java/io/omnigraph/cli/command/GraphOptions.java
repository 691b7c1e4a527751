package io.omnigraph.cli.command;

import io.omnigraph.cli.CliFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where the graph lives: {@code --store <uri>} (alias {@code --uri}), or the command's positional
 * URI, or else the {@code OMNIGRAPH_STORE} environment variable; plus storage options for the
 * adapter as repeated {@code --option k=v}.
 */
public final class GraphOptions {
  /** The environment variable naming the default graph, so scripts need not repeat the path. */
  public static final String STORE_ENV = "OMNIGRAPH_STORE";

  @Option(
      names = {"--store", "--uri"},
      paramLabel = "<uri>",
      description = "Graph root: a local path, file://, s3://, gs:// or az:// URI (instead of the positional URI;"
          + " default: $OMNIGRAPH_STORE).")
  String store;

  @Option(
      names = "--option",
      paramLabel = "<key=value>",
      description = "Storage option passed to the adapter (repeatable), e.g. --option region=us-east-1 for s3:// roots.")
  Map<String, String> options = new LinkedHashMap<>();

  // --- server lane: a served graph instead of a storage root ---

  /** The environment variable holding the bearer token for {@code --server}. */
  public static final String TOKEN_ENV = "OMNIGRAPH_BEARER_TOKEN";

  @Option(
      names = "--server",
      paramLabel = "<url>",
      description = "Work on a graph served by 'omnigraph serve' at this http(s):// URL instead of a storage root"
          + " (token from $" + TOKEN_ENV + "); the graph id is --graph or the positional argument.")
  String server;

  @Option(names = "--graph", paramLabel = "<id>", description = "With --server: the graph's id on the server.")
  String graph;

  /** @return the server URL when {@code --server} was given */
  public String server() {
    return server;
  }

  /**
   * @param positional the command's positional argument, or {@code null}
   * @return the graph id on the server: {@code --graph}, else the positional argument
   */
  public String graphId(String positional) {
    if (positional != null && graph != null && !positional.equals(graph)) {
      throw CliFailure.usage("the graph was given twice: positional '" + positional + "' and --graph '" + graph + "'");
    }
    String id = graph != null ? graph : positional;
    if (id == null || id.isBlank()) {
      throw CliFailure.usage("no graph given: with --server, pass the graph's id with --graph <id> or as the argument");
    }
    return id;
  }

  /**
   * @param positional the command's positional URI, or {@code null}
   * @param fromEnv the value of {@code OMNIGRAPH_STORE}, or {@code null}; used only when neither
   *     the positional URI nor {@code --store} is given
   * @return the graph URI the user named
   * @throws CliFailure a usage error when none or two different URIs were given
   */
  public String uri(String positional, String fromEnv) {
    if (server != null) {
      return server.replaceAll("/+$", "") + "/graphs/" + graphId(positional);
    }
    if (positional != null && (positional.startsWith("http://") || positional.startsWith("https://"))) {
      throw CliFailure.usage("'" + positional + "' is a server, not a storage root: use --server " + positional + " --graph <id>");
    }
    if (positional != null && store != null && !positional.equals(store)) {
      throw CliFailure.usage("the graph was given twice: positional '" + positional + "' and --store '" + store + "'");
    }
    String uri = positional != null ? positional : store != null ? store : blankToNull(fromEnv);
    if (uri == null || uri.isBlank()) {
      throw CliFailure.usage("no graph given: pass its URI as an argument, with --store <uri>, or in " + STORE_ENV);
    }
    return uri;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  /** @return the storage options, in the order given (a copy) */
  public Map<String, String> options() {
    return Map.copyOf(options);
  }
}
