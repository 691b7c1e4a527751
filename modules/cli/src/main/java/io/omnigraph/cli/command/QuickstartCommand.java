package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.cli.OmnigraphCli;
import io.omnigraph.cli.quickstart.QuickstartData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code omnigraph quickstart [dir]}: builds the built-in demo graph on local disk (init, an
 * overwrite load of ~1,000 rows, a small merge, export, commit list) and prints each step.
 *
 * <p>Re-running it replaces a previous quickstart graph in the same directory (recognized by its
 * accepted schema); any other non-empty directory is refused.
 */
@Command(
    name = "quickstart",
    mixinStandardHelpOptions = true,
    description = "Build a demo graph on local disk and show each step: init, load, merge, export, commits"
        + " (default dir: ./quickstart-graph).")
public final class QuickstartCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin OutputOptions output;

  @Parameters(index = "0", arity = "0..1", paramLabel = "<dir>", description = "Directory for the demo graph.")
  Path dir = Path.of("quickstart-graph");

  private PrintWriter out;
  private ArrayNode steps;

  @Override
  public Integer call() throws IOException {
    out = ((OmnigraphCli) spec.root().userObject()).terminal().out();
    Path root = dir.toAbsolutePath().normalize();
    String uri = root.toString();
    ObjectNode result = Json.object();
    result.put("uri", uri);
    steps = result.putArray("steps");

    clearPreviousQuickstart(root);
    try (Graph graph = Omnigraph.init(uri, QuickstartData.SCHEMA, OpenOptions.defaults())) {
      step("init", "created graph " + uri + " with tables " + graph.schema().tableKeys());

      LoadResult loaded = graph.load(LoadMode.OVERWRITE, new ByteArrayInputStream(QuickstartData.ndjson()),
          LoadOptions.defaults().withActor("quickstart").withMessage("demo data"));
      step("load", "loaded " + Counts.rows(loaded.rowsRead()) + " (overwrite) as commit " + loaded.commitId()
          + ": " + tables(TableOrder.of(graph.schema()).sorted(loaded.rowsByTable())));

      LoadResult merged = graph.load(LoadMode.MERGE, new ByteArrayInputStream(QuickstartData.mergeUpdate()),
          LoadOptions.defaults().withActor("quickstart").withMessage("re-rate five books, add a reader"));
      step("merge", "merged " + Counts.rows(merged.rowsRead()) + " (5 books re-rated, 1 reader and 1 edge added) as commit "
          + merged.commitId());

      ByteArrayOutputStream exported = new ByteArrayOutputStream();
      graph.export(exported);
      String[] lines = exported.toString(StandardCharsets.UTF_8).split("\n");
      step("export", "exported " + lines.length + " NDJSON lines; the first: " + lines[0]);
      result.put("exported_lines", lines.length);

      List<CommitInfo> commits = graph.commits();
      TableOrder order = TableOrder.of(graph.schema());
      step("commits", commits.size() + " commits, newest first:");
      ArrayNode commitArray = result.putArray("commits");
      for (CommitInfo c : commits) {
        commitArray.add(CommitJson.of(c, order));
        if (!output.json()) {
          out.println("    " + CommitJson.line(c));
        }
      }
    }
    if (output.json()) {
      out.println(Json.write(result));
    } else {
      String g = root.equals(Path.of("quickstart-graph").toAbsolutePath().normalize()) ? "quickstart-graph" : uri;
      out.println();
      out.println("Next, try:");
      out.println("  ./omnigraph schema show " + g);
      out.println("  ./omnigraph export " + g + " | head");
      out.println("  ./omnigraph commit list " + g + " --json");
    }
    out.flush();
    return 0;
  }

  private void step(String name, String text) {
    steps.add(Json.object().put("step", name).put("result", text));
    if (!output.json()) {
      out.println("[" + name + "] " + text);
      out.flush();
    }
  }

  private static String tables(Map<String, Long> rows) {
    StringBuilder sb = new StringBuilder();
    rows.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
    return sb.toString();
  }

  /** Deletes {@code root} if it holds an earlier quickstart graph; refuses any other non-empty directory. */
  private void clearPreviousQuickstart(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    if (!Files.isDirectory(root)) {
      throw CliFailure.usage(root + " exists and is not a directory; choose another quickstart directory");
    }
    try (Stream<Path> children = Files.list(root)) {
      if (children.findAny().isEmpty()) {
        return;
      }
    }
    Path schema = root.resolve("_schema.pg");
    boolean previous = Files.isRegularFile(schema)
        && Files.readString(schema, StandardCharsets.UTF_8).equals(QuickstartData.SCHEMA);
    if (!previous) {
      throw new CliFailure(ExitCode.USAGE, "usage", root + " is not empty and does not hold a quickstart graph;"
          + " choose another directory: omnigraph quickstart <dir>");
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    step("clean", "removed the previous quickstart graph in " + root);
  }
}
