package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
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
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
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
        .withExpectedHead(commit.expectHead()).withBranch(commit.branch());
    PushbackInputStream stdin = file == null ? new PushbackInputStream(terminal().stdin(), 1) : null;
    try (Graph graph = open(positional)) {
      if (file == null ? isBlank(stdin) : isBlank(file)) {
        printNothingToLoad(uri, graph);
        return 0;
      }
      LoadResult result = file == null
          ? graph.load(mode, stdin, options)
          : graph.load(mode, file, options);
      print(uri, result, graph.commit(result.commitId()).orElse(null), TableOrder.of(graph.schema()));
      // The write is published; what failed after it (automatic maintenance) is reported, not an error.
      result.warnings().forEach(w -> terminal().err().println("warning: " + w.code() + ": " + w.message()));
    }
    return 0;
  }

  /**
   * An input with no line but blank ones publishes no commit: there is nothing to record. Only the
   * leading whitespace is read, so a large input costs nothing here.
   */
  private static boolean isBlank(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return firstNonBlank(in) < 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read data file " + file, e);
    }
  }

  private static boolean isBlank(PushbackInputStream stdin) {
    try {
      int b = firstNonBlank(stdin);
      if (b < 0) {
        return true;
      }
      stdin.unread(b);
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read standard input", e);
    }
  }

  /** @return the first byte that is not JSON whitespace, or -1 at the end of the input */
  private static int firstNonBlank(InputStream in) throws IOException {
    int b;
    do {
      b = in.read();
    } while (b == ' ' || b == '\t' || b == '\n' || b == '\r');
    return b;
  }

  private void printNothingToLoad(String uri, Graph graph) {
    PrintWriter out = terminal().out();
    String head = graph.commits().get(0).id();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri);
      o.put("mode", mode.wireName());
      o.put("rows_read", 0);
      o.putObject("tables");
      o.putNull("commit");
      o.put("head", head);
      out.println(Json.write(o));
    } else {
      out.println("nothing to load: the input has no lines; no commit made (head stays " + head + ")");
    }
  }

  private void print(String uri, LoadResult result, CommitInfo commit, TableOrder order) {
    PrintWriter out = terminal().out();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri);
      o.put("mode", result.mode().wireName());
      o.put("rows_read", result.rowsRead());
      ObjectNode tables = o.putObject("tables");
      for (Map.Entry<String, Long> e : order.sorted(result.rowsByTable()).entrySet()) {
        tables.put(e.getKey(), e.getValue());
      }
      o.set("commit", commit != null ? CommitJson.of(commit, order) : Json.object().put("graph_commit_id", result.commitId()));
      out.println(Json.write(o));
      return;
    }
    out.println("loaded " + Counts.rows(result.rowsRead()) + " (" + result.mode().wireName() + ") into " + uri
        + " as commit " + result.commitId());
    for (Map.Entry<String, Long> e : order.sorted(result.rowsByTable()).entrySet()) {
      out.println("  " + e.getKey() + ": " + e.getValue());
    }
  }
}
