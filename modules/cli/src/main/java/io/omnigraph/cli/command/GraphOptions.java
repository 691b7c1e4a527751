package io.omnigraph.cli.command;

import io.omnigraph.cli.CliFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where the graph lives: {@code --store <uri>} (alias {@code --uri}), or the command's positional
 * URI; plus storage options for the adapter as repeated {@code --option k=v}.
 */
public final class GraphOptions {

  @Option(
      names = {"--store", "--uri"},
      paramLabel = "<uri>",
      description = "Graph root: a local path, file://, s3://, gs:// or az:// URI (instead of the positional URI).")
  String store;

  @Option(
      names = "--option",
      paramLabel = "<key=value>",
      description = "Storage option passed to the adapter (repeatable), e.g. --option aws_region=us-east-1.")
  Map<String, String> options = new LinkedHashMap<>();

  /**
   * @param positional the command's positional URI, or {@code null}
   * @return the graph URI the user named
   * @throws CliFailure a usage error when none or two different URIs were given
   */
  public String uri(String positional) {
    if (positional != null && store != null && !positional.equals(store)) {
      throw CliFailure.usage("the graph was given twice: positional '" + positional + "' and --store '" + store + "'");
    }
    String uri = positional != null ? positional : store;
    if (uri == null || uri.isBlank()) {
      throw CliFailure.usage("no graph given: pass its URI as an argument or with --store <uri>");
    }
    return uri;
  }

  /** @return the storage options, in the order given (a copy) */
  public Map<String, String> options() {
    return Map.copyOf(options);
  }
}
