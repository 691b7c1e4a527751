package io.omnigraph.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryResult;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/** The read routes: {@code query}, {@code query/prepare}, {@code query/explain} (docs/server.md). */
final class QueryRoutes {
  private static final Set<String> FIELDS = Set.of("query", "query_source", "name", "query_name", "params", "params_json",
      "param_pairs", "branch", "snapshot");

  private QueryRoutes() {}

  private static QueryOptions options(ObjectNode body) {
    String branch = Exchange.text(body, "branch");
    String snapshot = Exchange.text(body, "snapshot");
    if (branch != null && snapshot != null) {
      throw new InvalidInputException("give 'branch' or 'snapshot', not both",
          new ErrorDetail.Validation(null, null, "snapshot", "branch_and_snapshot"));
    }
    return snapshot != null ? QueryOptions.atCommit(snapshot)
        : branch != null ? QueryOptions.onBranch(branch) : QueryOptions.defaults();
  }

  /** ReadOutput: {@code {query_name, target:{branch, snapshot}, row_count, columns, rows, graph_commit_id}}. */
  static void query(Exchange x) throws IOException {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(FIELDS);
    String query = Exchange.requiredText(body, "query", "query_source");
    String name = GraphRoutes.queryName(body, query);
    QueryOptions options = options(body);
    try (QueryResult r = x.graph.query(query, name, GraphRoutes.params(body), options)) {
      ObjectNode o = Wire.object();
      o.put("query_name", r.queryName());
      ObjectNode target = o.putObject("target");
      target.put("branch", options.commitId().isPresent() ? null : options.branch().orElse("main"));
      target.put("snapshot", options.commitId().orElse(null));
      o.put("row_count", r.rowCount());
      columns(o.putArray("columns"), r.columns());
      ArrayNode rows = o.putArray("rows");
      for (String row : r.jsonRows()) {
        rows.add(Wire.JSON.readTree(row));
      }
      o.put("graph_commit_id", r.commitId());
      x.sendJson(200, o);
    }
  }

  static void prepare(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("query", "query_source", "name", "query_name"));
    String query = Exchange.requiredText(body, "query", "query_source");
    PreparedQuery p = x.graph.prepareQuery(query, GraphRoutes.queryName(body, query));
    ObjectNode o = Wire.object();
    o.put("query_name", p.queryName());
    columns(o.putArray("columns"), p.columns());
    x.sendJson(200, o);
  }

  static void explain(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(FIELDS);
    String query = Exchange.requiredText(body, "query", "query_source");
    String plan = x.graph.explainQuery(query, GraphRoutes.queryName(body, query), GraphRoutes.params(body), options(body));
    ObjectNode o = Wire.object();
    o.put("plan", plan);
    x.sendJson(200, o);
  }

  static void check(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("query", "query_source"));
    String query = Exchange.requiredText(body, "query", "query_source");
    ObjectNode o = Wire.object();
    ArrayNode a = o.putArray("queries");
    for (io.omnigraph.api.QueryDiagnostic d : x.graph.checkQueries(query)) {
      ObjectNode n = a.addObject();
      n.put("name", d.queryName());
      n.put("kind", d.kind());
      n.put("ok", d.ok());
      if (d.rule() != null) {
        n.put("rule", d.rule());
        n.put("message", d.message());
      }
      if (d.line() != null) {
        n.put("line", d.line());
      }
      if (d.column() != null) {
        n.put("column", d.column());
      }
    }
    x.sendJson(200, o);
  }

  private static void columns(ArrayNode a, List<QueryResult.Column> columns) {
    for (QueryResult.Column c : columns) {
      a.addObject().put("name", c.name()).put("type", c.type()).put("nullable", c.nullable());
    }
  }
}
