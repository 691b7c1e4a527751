package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadProgressListener;
import io.omnigraph.api.LoadResult;
import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph load --mode append|merge|overwrite --data f.ndjson <uri>}: one load, one commit. */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Load NDJSON into a graph as one commit. Node lines: {\"type\":T,\"data\":{...}};"
          + " edge lines: {\"edge\":E,\"from\":id,\"to\":id,\"data\":{...}}.",
      "Modes: append (strict insert; an existing id is a conflict), merge (upsert by id),"
          + " overwrite (replace every table the input touches)."
    })
public final class LoadCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--mode", required = true, paramLabel = "<mode>",
      description = "append, merge or overwrite (case-insensitive).")
  LoadMode mode;

  @Option(names = "--data", required = true, paramLabel = "<file.ndjson>",
      description = "The NDJSON input; '-' reads standard input.")
  String data;

  @Mixin CommitOptions commit;

  @Option(names = {"-q", "--quiet"}, description = "No progress on stderr (shown for loads over a second).")
  boolean quiet;

  @Override
  public Integer call() {
    String uri = uri(positional);
    Path file = "-".equals(data) ? null : Path.of(data);
    if (file != null && !Files.exists(file)) {
      throw new CliFailure(ExitCode.USAGE, "input_not_found", "data file not found: " + file);
    }
    LoadProgressListener progress =
        quiet ? LoadProgressListener.NONE : new ProgressPrinter(terminal().err(), terminal().interactive());
    LoadOptions options = LoadOptions.defaults().withActor(commit.actor()).withMessage(commit.message()).withProgress(progress)
        .withExpectedHead(commit.expectHead());
    try (Graph graph = open(positional)) {
      LoadResult result = file == null
          ? graph.load(mode, terminal().stdin(), options)
          : graph.load(mode, file, options);
      print(uri, result, graph.commit(result.commitId()).orElse(null));
    }
    return 0;
  }

  private void print(String uri, LoadResult result, CommitInfo commit) {
    PrintWriter out = terminal().out();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri);
      o.put("mode", result.mode().wireName());
      o.put("rows_read", result.rowsRead());
      ObjectNode tables = o.putObject("tables");
      for (Map.Entry<String, Long> e : result.rowsByTable().entrySet()) {
        tables.put(e.getKey(), e.getValue());
      }
      o.set("commit", commit != null ? CommitJson.of(commit) : Json.object().put("graph_commit_id", result.commitId()));
      out.println(Json.write(o));
      return;
    }
    out.println("loaded " + result.rowsRead() + " rows (" + result.mode().wireName() + ") into " + uri
        + " as commit " + result.commitId());
    for (Map.Entry<String, Long> e : new java.util.TreeMap<>(result.rowsByTable()).entrySet()) {
      out.println("  " + e.getKey() + ": " + e.getValue());
    }
  }
}
