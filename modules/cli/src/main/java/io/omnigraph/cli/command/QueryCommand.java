package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph query <uri> [<name>] --query f.gq | -e '<gq>' [--param k=v …] [--branch b |
 * --at <commit>] [--format table|csv|jsonl|json] [--explain]}: runs one read query on one
 * snapshot and prints its rows (docs/cli.md, "query"; docs/queries.md).
 */
@Command(
    name = "query",
    aliases = "read",
    mixinStandardHelpOptions = true,
    description = {
      "Run one read query (match … return …) of a .gq file and print its rows.",
      "The query reads one snapshot: the head of --branch (default main) or the commit --at names.",
      "Output: --format table (default on a terminal), jsonl (default otherwise: a metadata line, then one"
          + " JSON object per row), csv, or json (one object; also --json). --explain prints the plan instead."
    })
public final class QueryCommand extends GraphCommand implements Callable<Integer> {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Parameters(arity = "0..2", paramLabel = "<uri> <name>",
      description = "Graph root (or --store), then the query name (or --name).")
  List<String> positionals = new ArrayList<>();

  @Option(names = "--query", paramLabel = "<file.gq>", description = "The .gq file holding the query.")
  Path queryFile;

  @Option(names = {"-e", "--query-string"}, paramLabel = "<gq>", description = "The .gq source text itself.")
  String queryText;

  @Option(names = "--name", paramLabel = "<query>",
      description = "The query to run (or give it as an argument; optional when the text declares one query).")
  String name;

  @Mixin ParamOptions params = new ParamOptions();

  @Option(names = "--branch", paramLabel = "<branch>", description = "Read the head of this branch (default main).")
  String branch;

  @Option(names = {"--at", "--snapshot"}, paramLabel = "<commit>", description = "Read the graph as of this commit.")
  String at;

  @Option(names = "--format", paramLabel = "<format>",
      description = "table, csv, jsonl or json (default: table on a terminal, jsonl otherwise).")
  String format;

  @Option(names = "--explain", description = "Print the plan the query would run with, and do not run it.")
  boolean explain;

  @Override
  public Integer call() {
    String positionalUri = null;
    String positionalName = null;
    if (positionals.size() == 2) {
      positionalUri = positionals.get(0);
      positionalName = positionals.get(1);
    } else if (positionals.size() == 1) {
      if (graphOptions.store != null && name == null) {
        positionalName = positionals.get(0);
      } else {
        positionalUri = positionals.get(0);
      }
    }
    if (name != null && positionalName != null && !name.equals(positionalName)) {
      throw CliFailure.usage("the query name was given twice: '" + positionalName + "' and --name '" + name + "'");
    }
    if (branch != null && at != null) {
      throw CliFailure.usage("give one target: --branch <branch> or --at <commit>, not both");
    }
    String fmt = format();
    String gq = source();
    QueryParams values = params.values();
    QueryOptions options = at != null ? QueryOptions.atCommit(at) : branch != null ? QueryOptions.onBranch(branch)
        : QueryOptions.defaults();
    try (Graph graph = open(positionalUri)) {
      String queryName = name != null ? name : positionalName != null ? positionalName : onlyQuery(graph, gq);
      PrintWriter out = terminal().out();
      if (explain) {
        out.print(graph.explainQuery(gq, queryName, values, options));
        out.flush();
        return 0;
      }
      try (QueryResult result = graph.query(gq, queryName, values, options)) {
        switch (fmt) {
          case "json" -> out.println(json(result, options));
          case "jsonl" -> {
            ObjectNode meta = Json.object();
            meta.put("kind", "metadata");
            meta.put("query_name", result.queryName());
            meta.put("commit_id", result.commitId());
            meta.put("row_count", result.rowCount());
            meta.set("columns", columns(result));
            out.println(Json.write(meta));
            for (String row : result.jsonRows()) {
              out.println(row);
            }
          }
          case "csv" -> csv(result, out);
          default -> table(result, out);
        }
      }
      out.flush();
    }
    return 0;
  }

  private String format() {
    if (output.json()) {
      if (format != null && !format.equals("json")) {
        throw CliFailure.usage("--json and --format " + format + " disagree; give one");
      }
      return "json";
    }
    if (format == null) {
      return terminal().interactive() ? "table" : "jsonl";
    }
    if (!List.of("table", "csv", "jsonl", "json").contains(format)) {
      throw CliFailure.usage("unknown --format '" + format + "': use table, csv, jsonl or json");
    }
    return format;
  }

  /** The name of the file's only query, when no name was given. */
  private static String onlyQuery(Graph graph, String gq) {
    List<String> names = graph.checkQueries(gq).stream().map(d -> d.queryName()).filter(n -> n != null).toList();
    if (names.size() == 1) {
      return names.get(0);
    }
    throw CliFailure.usage("no query name given: pass --name <query> (or the name after the graph URI)"
        + (names.isEmpty() ? "" : "; the text declares " + String.join(", ", names)));
  }

  private String source() {
    if ((queryFile == null) == (queryText == null)) {
      throw CliFailure.usage("give the query as exactly one of --query <file.gq> or -e/--query-string <gq>");
    }
    return queryFile != null ? readLocalText(queryFile, "query") : queryText;
  }

  private static ArrayNode columns(QueryResult result) {
    ArrayNode cols = MAPPER.createArrayNode();
    for (QueryResult.Column c : result.columns()) {
      cols.addObject().put("name", c.name()).put("type", c.type()).put("nullable", c.nullable());
    }
    return cols;
  }

  private String json(QueryResult result, QueryOptions options) {
    ObjectNode o = Json.object();
    o.put("query_name", result.queryName());
    ObjectNode target = o.putObject("target");
    if (options.commitId().isPresent()) {
      target.putNull("branch");
      target.put("snapshot", options.commitId().get());
    } else {
      target.put("branch", options.branch().orElse("main"));
      target.putNull("snapshot");
    }
    o.put("commit_id", result.commitId());
    o.put("row_count", result.rowCount());
    o.set("columns", columns(result));
    ArrayNode rows = o.putArray("rows");
    for (String row : result.jsonRows()) {
      rows.add(parse(row));
    }
    return Json.write(o);
  }

  private static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The text of one cell: JSON for lists and vectors, the JSON scalar's text otherwise, empty for null. */
  private static String cell(JsonNode v) {
    if (v == null || v.isNull()) {
      return "";
    }
    return v.isValueNode() ? v.asText() : v.toString();
  }

  private static void csv(QueryResult result, PrintWriter out) {
    List<String> header = result.columns().stream().map(QueryResult.Column::name).toList();
    out.println(String.join(",", header.stream().map(QueryCommand::csvField).toList()));
    for (String row : result.jsonRows()) {
      JsonNode r = parse(row);
      List<String> cells = new ArrayList<>();
      for (String h : header) {
        cells.add(csvField(cell(r.get(h))));
      }
      out.println(String.join(",", cells));
    }
  }

  private static String csvField(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }

  private static void table(QueryResult result, PrintWriter out) {
    List<String> header = result.columns().stream().map(QueryResult.Column::name).toList();
    List<List<String>> cells = new ArrayList<>();
    for (String row : result.jsonRows()) {
      JsonNode r = parse(row);
      List<String> line = new ArrayList<>();
      for (String h : header) {
        JsonNode v = r.get(h);
        line.add(v == null || v.isNull() ? "null" : cell(v));
      }
      cells.add(line);
    }
    int[] width = new int[header.size()];
    for (int i = 0; i < header.size(); i++) {
      width[i] = header.get(i).length();
      for (List<String> l : cells) {
        width[i] = Math.max(width[i], l.get(i).length());
      }
    }
    out.println(line(header, width));
    StringBuilder sep = new StringBuilder();
    for (int i = 0; i < width.length; i++) {
      sep.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
    }
    out.println(sep);
    for (List<String> l : cells) {
      out.println(line(l, width));
    }
    out.println("(" + result.rowCount() + (result.rowCount() == 1 ? " row)" : " rows)"));
  }

  private static String line(List<String> values, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        b.append(" | ");
      }
      String v = values.get(i);
      b.append(v).append(" ".repeat(width[i] - v.length()));
    }
    return b.toString().stripTrailing();
  }
}
