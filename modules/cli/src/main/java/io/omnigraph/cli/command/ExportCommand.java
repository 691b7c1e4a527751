package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ExportOptions;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph export <uri>}: the graph as NDJSON that loads back identically. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Write the graph as NDJSON (nodes, then edges) to stdout or --out; the output loads back identically.",
      "With --json and --out, prints a summary object; without --out the NDJSON itself is the output."
    })
public final class ExportCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Option(names = {"-o", "--out"}, paramLabel = "<file>",
      description = "Write to this file instead of stdout: a regular file is replaced atomically when complete;"
          + " a symbolic link, FIFO or device is written through, never replaced.")
  Path outFile;

  @Option(names = "--branch", paramLabel = "<branch>", description = "Export this branch's head (default: main).")
  String branch;

  @Option(names = {"--commit", "--at"}, paramLabel = "<commit_id>", description = "Export the graph as this commit left it.")
  String commit;

  @Option(names = "--type", paramLabel = "<type>", split = ",",
      description = "Export only these node or edge types (repeatable or comma-separated; exact names as in the schema).")
  List<String> types;

  /** One export through the engine's {@link ExportOptions} (types are filtered by table, not by line). */
  private void exportTo(Graph graph, OutputStream out) {
    if (branch != null && commit != null) {
      throw io.omnigraph.cli.CliFailure.usage("--branch and --commit (--at) exclude each other");
    }
    ExportOptions options = commit != null ? ExportOptions.atCommit(commit)
        : branch != null ? ExportOptions.onBranch(branch) : ExportOptions.defaults();
    try {
      graph.export(out, options.withTypes(types));
    } catch (InvalidInputException e) {
      if (e.detail().orElse(null) instanceof ErrorDetail.Validation v && "unknown_type".equals(v.rule())) {
        throw io.omnigraph.cli.CliFailure.usage("--type: " + e.getMessage());
      }
      throw e;
    }
  }

  @Override
  public Integer call() throws IOException {
    try (Graph graph = open(positional)) {
      if (outFile == null) {
        terminal().out().flush();
        OutputStream stdout = terminal().stdout();
        exportTo(graph, stdout);
        stdout.flush();
        return 0;
      }
      Path target = outFile.toAbsolutePath();
      CountingOutputStream counted;
      try (OutputFile file = OutputFile.open(target)) {
        counted = new CountingOutputStream(file.stream());
        exportTo(graph, counted);
        file.commit();
      }
      if (output.json()) {
        ObjectNode o = Json.object();
        o.put("uri", uri(positional));
        o.put("out", target.toString());
        o.put("lines", counted.lines);
        o.put("bytes", counted.bytes);
        terminal().out().println(Json.write(o));
      } else {
        terminal().out().println("exported " + counted.lines + " lines to " + target);
      }
    }
    return 0;
  }

  /** Counts bytes and newline-terminated lines on their way to a file. */
  private static final class CountingOutputStream extends java.io.FilterOutputStream {
    long bytes;
    long lines;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      bytes++;
      if (b == '\n') {
        lines++;
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      bytes += len;
      for (int i = off; i < off + len; i++) {
        if (b[i] == '\n') {
          lines++;
        }
      }
    }
  }
}
