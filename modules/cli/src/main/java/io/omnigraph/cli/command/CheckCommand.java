package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.QueryDiagnostic;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph check --query f.gq <uri>}: type-checks every query of a {@code .gq} file
 * against the graph's schema and lists each one with its error, for editors and CI (docs/cli.md,
 * "check"). Exit 0 when every query checks, 2 when any does not.
 */
@Command(
    name = "check",
    aliases = "lint",
    mixinStandardHelpOptions = true,
    description = {
      "Type-check every query of a .gq file against the graph's schema and list each error with line:column.",
      "Exit 0 when all queries check, 2 when any query (or the file) has an error."
    })
public final class CheckCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positionalUri;

  @Option(names = "--query", required = true, paramLabel = "<file.gq>", description = "The .gq file to check.")
  Path queryFile;

  @Override
  public Integer call() {
    String gq = readLocalText(queryFile, "query");
    List<QueryDiagnostic> diagnostics;
    try (Graph graph = open(positionalUri)) {
      diagnostics = graph.checkQueries(gq);
    }
    boolean ok = diagnostics.stream().allMatch(QueryDiagnostic::ok);
    PrintWriter out = terminal().out();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("file", queryFile.toString());
      o.put("ok", ok);
      ArrayNode qs = o.putArray("queries");
      for (QueryDiagnostic d : diagnostics) {
        ObjectNode q = qs.addObject();
        q.put("name", d.queryName());
        q.put("kind", d.kind());
        q.put("ok", d.ok());
        if (!d.ok()) {
          q.put("rule", d.rule());
          if (d.line() != null) {
            q.put("line", d.line());
            q.put("column", d.column());
          }
          q.put("message", d.message());
        }
      }
      out.println(Json.write(o));
    } else {
      for (QueryDiagnostic d : diagnostics) {
        String where = queryFile + (d.line() != null ? ":" + d.line() + ":" + d.column() : "");
        if (d.ok()) {
          out.println("ok     " + d.kind() + " " + d.queryName());
        } else {
          out.println("error  " + where + ": " + (d.queryName() == null ? "" : d.kind() + " " + d.queryName() + ": ")
              + d.message());
        }
      }
      long bad = diagnostics.stream().filter(d -> !d.ok()).count();
      out.println(bad == 0 ? diagnostics.size() + " queries checked, no errors"
          : bad + " of " + diagnostics.size() + " checked with errors");
    }
    out.flush();
    if (!ok) {
      return ExitCode.DATA;
    }
    return ExitCode.OK;
  }
}
