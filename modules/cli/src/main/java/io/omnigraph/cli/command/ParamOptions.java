package io.omnigraph.cli.command;

import io.omnigraph.api.QueryParams;
import io.omnigraph.cli.CliFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The parameter options of {@code query} and {@code mutate} (docs/cli.md): repeated {@code --param
 * k=v} (each value parsed by its declared type), {@code --params '<json>'} (alias {@code
 * --params-json}) or {@code --params-file <f.json>}, exactly one way.
 */
public final class ParamOptions {
  @Option(names = "--param", paramLabel = "<k=v>", description = "A parameter value, parsed by its declared type (repeatable).")
  List<String> pairs = new ArrayList<>();

  @Option(names = {"--params", "--params-json"}, paramLabel = "<json>",
      description = "All parameters as one JSON object, e.g. '{\"h\": \"tolkien\", \"year\": 1954}'.")
  String json;

  @Option(names = "--params-file", paramLabel = "<file.json>", description = "All parameters from a JSON file.")
  Path file;

  /**
   * @return the parameters as given
   * @throws CliFailure a usage error when more than one way is used
   */
  QueryParams values() {
    int kinds = (pairs.isEmpty() ? 0 : 1) + (json == null ? 0 : 1) + (file == null ? 0 : 1);
    if (kinds > 1) {
      throw CliFailure.usage("give parameters one way: repeated --param k=v, --params '<json>' or --params-file <f.json>");
    }
    if (json != null) {
      return QueryParams.json(json);
    }
    if (file != null) {
      return QueryParams.json(GraphCommand.readLocalText(file, "parameters"));
    }
    return QueryParams.pairs(pairs);
  }
}
