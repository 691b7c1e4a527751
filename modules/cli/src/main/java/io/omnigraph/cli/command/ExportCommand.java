package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

  /** Refuses a --type the schema does not have, before anything is written. */
  private void checkTypes(Graph graph) {
    if (types == null) {
      return;
    }
    List<String> known = new ArrayList<>();
    io.omnigraph.api.SchemaInfo schema = graph.schema();
    for (String key : schema.tableKeys().stream().sorted(TableOrder.of(schema)).toList()) {
      known.add(key.substring(key.indexOf(':') + 1));
    }
    for (String t : types) {
      if (!known.contains(t)) {
        throw io.omnigraph.cli.CliFailure.usage("--type " + t + ": the schema has no node or edge type '" + t + "' (types: "
            + String.join(", ", known) + ")");
      }
    }
  }

  private void exportTo(Graph graph, OutputStream target) throws IOException {
    if (branch != null && commit != null) {
      throw io.omnigraph.cli.CliFailure.usage("--branch and --commit (--at) exclude each other");
    }
    TypeFilter filter = types == null ? null : new TypeFilter(target, Set.copyOf(types));
    OutputStream out = filter == null ? target : filter;
    if (commit != null) {
      graph.exportCommit(out, commit);
    } else if (branch != null) {
      graph.export(out, branch);
    } else {
      graph.export(out);
    }
    if (filter != null) {
      filter.finish();
    }
  }

  @Override
  public Integer call() throws IOException {
    try (Graph graph = open(positional)) {
      checkTypes(graph);
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

  /**
   * Passes on only the export lines of the chosen types. Export lines start with their type member
   * ({@code {"type":"T",...}} or {@code {"edge":"E",...}}), which is read with a JSON parser.
   */
  private static final class TypeFilter extends OutputStream {
    private static final com.fasterxml.jackson.core.JsonFactory JSON = new com.fasterxml.jackson.core.JsonFactory();
    private final OutputStream out;
    private final Set<String> names;
    private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(256);

    TypeFilter(OutputStream out, Set<String> names) {
      this.out = out;
      this.names = names;
    }

    @Override
    public void write(int b) throws IOException {
      line.write(b);
      if (b == '\n') {
        endLine();
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int start = off;
      for (int i = off; i < off + len; i++) {
        if (b[i] == '\n') {
          line.write(b, start, i + 1 - start);
          endLine();
          start = i + 1;
        }
      }
      line.write(b, start, off + len - start);
    }

    private void endLine() throws IOException {
      byte[] bytes = line.toByteArray();
      line.reset();
      if (keep(bytes)) {
        out.write(bytes);
      }
    }

    private boolean keep(byte[] bytes) throws IOException {
      try (com.fasterxml.jackson.core.JsonParser p = JSON.createParser(bytes)) {
        if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
          return false;
        }
        while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
          String f = p.currentName();
          com.fasterxml.jackson.core.JsonToken v = p.nextToken();
          if ((f.equals("type") || f.equals("edge")) && v == com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
            return names.contains(p.getText());
          }
          p.skipChildren();
        }
        return false;
      }
    }

    /** Passes on a last line without a newline, if any. */
    void finish() throws IOException {
      if (line.size() > 0) {
        endLine();
      }
      out.flush();
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }
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
