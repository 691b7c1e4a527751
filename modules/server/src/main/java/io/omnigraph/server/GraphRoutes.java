package io.omnigraph.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ExportOptions;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadProgressListener;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;

/** The routes under {@code /graphs/{id}} (docs/server.md, "Routes"). */
final class GraphRoutes {
  /** The precondition header of {@code mutate/if-graph-commit} (also honoured by {@code mutate} and the load routes). */
  static final String IF_GRAPH_COMMIT = "Omnigraph-If-Graph-Commit";

  private static final Pattern QUERY_DECL = Pattern.compile("(?m)^\\s*query\\s+([A-Za-z_][A-Za-z0-9_]*)");

  private GraphRoutes() {}

  static List<Route> all() {
    List<Route> r = new ArrayList<>();
    r.add(new Route("GET", "snapshot", false, false,
        "The head of a branch: commit, manifest version, and every table's dataset path, published version and entity count",
        null, Exchange.JSON_TYPE, GraphRoutes::snapshot));
    r.add(new Route("POST", "mutate", true, false, "Run one mutation query as one commit",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, x -> mutate(x, false)));
    r.add(new Route("POST", "mutate/if-graph-commit", true, false,
        "Run one mutation query only if the branch head is the commit in the Omnigraph-If-Graph-Commit header (412 otherwise)",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, x -> mutate(x, true)));
    r.add(new Route("POST", "change", true, false, "Deprecated alias of mutate",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, x -> mutate(x, false)));
    r.add(new Route("POST", "mutate/prepare", false, false,
        "Parse and type-check a mutation query against the schema without running it",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::prepare));
    // --- reads ---
    r.add(new Route("POST", "query", false, false, "Run one read query against a branch head or a commit (ReadOutput)",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, QueryRoutes::query));
    r.add(new Route("POST", "query/prepare", false, false, "Parse and type-check a read query; its result columns",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, QueryRoutes::prepare));
    r.add(new Route("POST", "query/check", false, false, "Check every query of a .gq text: {queries: [{name, kind, rule?, line?, column?, message?}]}",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, QueryRoutes::check));
    r.add(new Route("POST", "query/explain", false, false, "The plan of a read query, as text",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, QueryRoutes::explain));
    // --- schema & maintenance ---
    r.add(new Route("POST", "ensure-indices", true, false,
        "Build every index the schema calls for that the graph lacks (one commit; none when nothing is missing)",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::ensureIndices));
    r.add(new Route("GET", "schema", false, false, "The accepted schema source",
        null, Exchange.JSON_TYPE, GraphRoutes::schema));
    r.add(new Route("POST", "schema/plan", false, false,
        "Plan the migration from the accepted schema to a desired .pg ({schema_source}); writes nothing",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::schemaPlan));
    r.add(new Route("POST", "schema/apply", true, false,
        "Apply a desired .pg as one commit ({schema_source, allow_data_loss?, message?})",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::schemaApply));
    r.add(new Route("POST", "load", true, true, "Load NDJSON given as a JSON string as one commit",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::loadJson));
    r.add(new Route("POST", "load/ndjson", true, true, "Load a raw NDJSON body, streamed into the loader, as one commit",
        Exchange.NDJSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::loadNdjson));
    r.add(new Route("POST", "export", false, false, "The graph as NDJSON (nodes, then edges), streamed",
        Exchange.JSON_TYPE, Exchange.NDJSON_TYPE, GraphRoutes::export));
    r.add(new Route("GET", "commits", false, false, "The commits of a branch, newest first",
        null, Exchange.JSON_TYPE, GraphRoutes::commits));
    r.add(new Route("GET", "commits/{commit_id}", false, false, "One commit",
        null, Exchange.JSON_TYPE, GraphRoutes::commit));
    // --- branches ---
    r.add(new Route("GET", "branches", false, false, "Every branch: name, head, the branch it was created from",
        null, Exchange.JSON_TYPE, GraphRoutes::branches));
    r.add(new Route("POST", "branches", true, false, "Create a branch at a branch head or a commit ({name, from})",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::createBranch));
    r.add(new Route("POST", "branches/merge", true, false,
        "Merge a source branch into a target branch ({source, target?, message?, delete_branch?}); 409 merge_conflicts",
        Exchange.JSON_TYPE, Exchange.JSON_TYPE, GraphRoutes::merge));
    r.add(new Route("DELETE", "branches/{branch*}", true, false, "Delete a branch; never main",
        null, Exchange.JSON_TYPE, GraphRoutes::deleteBranchByPath));
    r.add(new Route("GET", "recoveries", false, false, "The recovery audit, oldest first",
        null, Exchange.JSON_TYPE, x -> x.sendJson(200, Wire.recoveries(x.graph.recoveries()))));
    return List.copyOf(r);
  }

  /** The one table order of every JSON map and list (main's schema order, see {@link TableOrder}). */
  private static TableOrder order(Exchange x) {
    return TableOrder.of(x.graph.schema());
  }

  private static void snapshot(Exchange x) {
    x.allowQueryParams(Set.of("branch"));
    x.sendJson(200, Wire.snapshot(x.graph.snapshot(x.queryParam("branch")), order(x)));
  }

  private static void schema(Exchange x) {
    x.allowQueryParams(Set.of("branch"));
    x.sendJson(200, Wire.schema(x.graph.schema(x.queryParam("branch"))));
  }

  private static void schemaPlan(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("schema_source"));
    io.omnigraph.api.SchemaPlan plan = x.graph.planSchema(Exchange.requiredText(body, "schema_source"));
    x.sendJson(200, Wire.schemaPlan(plan));
  }

  private static void schemaApply(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("schema_source", "allow_data_loss", "message"));
    String source = Exchange.requiredText(body, "schema_source");
    io.omnigraph.api.SchemaApplyResult r = x.graph.applySchema(source,
        new io.omnigraph.api.SchemaApplyOptions(Exchange.bool(body, "allow_data_loss"), x.actor, Exchange.text(body, "message")));
    ObjectNode o = Wire.schemaApply(r, r.commitId() == null ? null : x.graph.commit(r.commitId()).orElse(null), order(x));
    if (x.actor != null) {
      o.put("actor_id", x.actor);
    }
    x.sendJson(200, o);
  }

  private static void merge(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("source", "target", "message", "delete_branch"));
    String source = Exchange.requiredText(body, "source");
    io.omnigraph.api.MergeResult r = x.graph.merge(source, Exchange.text(body, "target"),
        new io.omnigraph.api.MergeOptions(x.actor, Exchange.text(body, "message"), Exchange.bool(body, "delete_branch")));
    ObjectNode o = Wire.merge(r);
    if (x.actor != null) {
      o.put("actor_id", x.actor);
    }
    x.sendJson(200, o);
  }

  private static void ensureIndices(Exchange x) {
    x.allowQueryParams(Set.of());
    x.jsonBody(Set.of());
    io.omnigraph.api.EnsureIndicesResult r = x.graph.ensureIndices();
    ObjectNode o = Wire.object();
    if (r.commitId() == null) {
      o.putNull("commit");
    } else {
      o.set("commit", x.graph.commit(r.commitId()).map(c -> Wire.commit(c, order(x))).orElse(null));
    }
    o.put("created", r.created());
    com.fasterxml.jackson.databind.node.ArrayNode a = o.putArray("indexes");
    for (io.omnigraph.api.IndexStatus i : r.indexes()) {
      ObjectNode n = a.addObject().put("table", i.table()).put("column", i.column()).put("kind", i.kind())
          .put("name", i.name()).put("state", i.state());
      if (i.reason() != null) {
        n.put("reason", i.reason());
      }
    }
    if (x.actor != null) {
      o.put("actor_id", x.actor);
    }
    x.sendJson(200, o);
  }

  private static void commits(Exchange x) {
    x.allowQueryParams(Set.of("branch"));
    String branch = x.queryParam("branch");
    x.sendJson(200, Wire.commits(branch == null ? x.graph.commits() : x.graph.commits(branch), order(x)));
  }

  static com.fasterxml.jackson.databind.node.ObjectNode branchJson(io.omnigraph.api.BranchInfo b) {
    ObjectNode o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    o.put("name", b.name());
    o.put("head", b.head());
    if (b.parent() == null) {
      o.putNull("parent");
    } else {
      o.put("parent", b.parent());
    }
    return o;
  }

  private static void branches(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    com.fasterxml.jackson.databind.node.ArrayNode a = o.putArray("branches");
    x.graph.branches().forEach(b -> a.add(branchJson(b)));
    x.sendJson(200, o);
  }

  private static void createBranch(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("name", "from"));
    String name = Exchange.text(body, "name");
    if (name == null) {
      throw new InvalidInputException("request field 'name' is required",
          new ErrorDetail.Validation(null, null, "name", "missing_field"));
    }
    String from = Exchange.text(body, "from");
    ObjectNode o = branchJson(x.graph.createBranch(name, from));
    o.put("uri", x.graph.uri());
    o.put("from", from == null ? "main" : from);
    if (x.actor != null) {
      o.put("actor_id", x.actor);
    }
    x.sendJson(200, o);
  }

  /** {@code DELETE branches/{branch}}: the reference's spelling; answers {@code {uri, name, actor_id}}. */
  private static void deleteBranchByPath(Exchange x) {
    x.allowQueryParams(Set.of());
    String name = x.pathValues.get("branch");
    x.graph.deleteBranch(name);
    ObjectNode o = Wire.object();
    o.put("uri", x.graph.uri());
    o.put("name", name);
    if (x.actor != null) {
      o.put("actor_id", x.actor);
    }
    x.sendJson(200, o);
  }

  private static void commit(Exchange x) {
    x.allowQueryParams(Set.of());
    String id = x.pathValues.get("commit_id");
    CommitInfo c = x.graph.commit(id).orElseThrow(() -> new NotFoundException("no commit '" + id + "' in this graph",
        new ErrorDetail.Validation(null, null, "commit_id", "unknown_commit")));
    x.sendJson(200, Wire.commit(c, order(x)));
  }

  private static final Set<String> MUTATE_FIELDS = Set.of("query", "query_source", "name", "query_name", "params", "params_json",
      "param_pairs", "branch", "message");

  private static void mutate(Exchange x, boolean preconditionRoute) {
    x.allowQueryParams(Set.of());
    String expected = x.header(IF_GRAPH_COMMIT);
    if (preconditionRoute && (expected == null || expected.isBlank())) {
      throw new InvalidInputException("this route needs the " + IF_GRAPH_COMMIT + " header (the expected head commit id)",
          new ErrorDetail.Validation(null, null, IF_GRAPH_COMMIT, "missing_header"));
    }
    ObjectNode body = x.jsonBody(MUTATE_FIELDS);
    String query = Exchange.requiredText(body, "query", "query_source");
    String name = queryName(body, query);
    String branch = Exchange.text(body, "branch");
    QueryParams params = params(body);
    MutationOptions options = new MutationOptions(x.actor, Exchange.text(body, "message"),
        expected == null || expected.isBlank() ? null : expected.trim()).withBranch(branch);
    MutationResult r = x.graph.mutate(query, name, params, options);
    CommitInfo c = r.commitId() == null ? null : x.graph.commit(r.commitId()).orElse(null);
    x.sendJson(200, Wire.mutation(r, branch == null ? "main" : branch, x.actor, c, order(x)));
  }

  private static void prepare(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("query", "query_source", "name", "query_name"));
    String query = Exchange.requiredText(body, "query", "query_source");
    String name = queryName(body, query);
    ObjectNode o = Wire.object();
    o.put("query_name", x.graph.prepareMutation(query, name).queryName());
    x.sendJson(200, o);
  }

  /** The query name from {@code name}/{@code query_name}, or the only query the text declares. */
  static String queryName(ObjectNode body, String query) {
    String name = Exchange.text(body, "name");
    if (name == null) {
      name = Exchange.text(body, "query_name");
    }
    if (name != null) {
      return name;
    }
    Set<String> declared = new HashSet<>();
    Matcher m = QUERY_DECL.matcher(query);
    while (m.find()) {
      declared.add(m.group(1));
    }
    if (declared.size() == 1) {
      return declared.iterator().next();
    }
    throw new InvalidInputException("request field 'name' is required when the query text does not declare exactly one query",
        new ErrorDetail.Validation(null, null, "name", "missing_field"));
  }

  static QueryParams params(ObjectNode body) {
    String json = Exchange.text(body, "params_json");
    JsonNode pairs = body.get("param_pairs");
    if (json != null || (pairs != null && !pairs.isNull())) {
      if (body.hasNonNull("params") || (json != null && pairs != null && !pairs.isNull())) {
        throw new InvalidInputException("give the parameters one way: params, params_json or param_pairs",
            new ErrorDetail.Validation(null, null, "params", "params_twice"));
      }
      if (json != null) {
        return QueryParams.json(json);
      }
      List<String> list = new ArrayList<>();
      if (!pairs.isArray()) {
        throw new InvalidInputException("request field 'param_pairs' must be an array of \"name=value\" strings",
            new ErrorDetail.Validation(null, null, "param_pairs", "type_mismatch"));
      }
      for (JsonNode n : pairs) {
        if (!n.isTextual()) {
          throw new InvalidInputException("request field 'param_pairs' must be an array of \"name=value\" strings",
              new ErrorDetail.Validation(null, null, "param_pairs", "type_mismatch"));
        }
        list.add(n.textValue());
      }
      return QueryParams.pairs(list);
    }
    JsonNode p = body.get("params");
    if (p == null || p.isNull()) {
      return QueryParams.none();
    }
    if (!p.isObject()) {
      throw new InvalidInputException("request field 'params' must be a JSON object",
          new ErrorDetail.Validation(null, null, "params", "type_mismatch"));
    }
    return QueryParams.json(p.toString());
  }

  private static LoadMode mode(String mode) {
    return mode == null ? LoadMode.MERGE : LoadMode.parse(mode);
  }

  /**
   * The branch a load writes to: {@code branch} (default main). When it does not exist and {@code from}
   * is given, it is first created from {@code from} (a branch or a commit) — a step of its own, like
   * {@code POST branches}, that stays when the load then fails. Without {@code from} an unknown branch
   * is left to the loader (404, rule {@code unknown_branch}).
   */
  private record LoadTarget(String branch, String baseBranch, boolean created) {}

  private static LoadTarget loadTarget(Exchange x, String branch, String from) {
    if (branch == null || branch.equals("main")) {
      return new LoadTarget("main", null, false);
    }
    if (from == null || x.graph.branches().stream().anyMatch(b -> b.name().equals(branch))) {
      return new LoadTarget(branch, null, false);
    }
    try {
      x.graph.createBranch(branch, from);
      return new LoadTarget(branch, from, true);
    } catch (ConflictException e) {
      // Another request created it meanwhile: load into it like into any existing branch.
      if (e.detail().orElse(null) instanceof ErrorDetail.Validation v && "branch_exists".equals(v.rule())) {
        return new LoadTarget(branch, null, false);
      }
      throw e;
    }
  }

  private static LoadOptions loadOptions(Exchange x, String message, LoadTarget target) {
    String expected = x.header(IF_GRAPH_COMMIT);
    return new LoadOptions(x.actor, message, LoadProgressListener.NONE,
        expected == null || expected.isBlank() ? null : expected.trim(), target.branch());
  }

  private static ObjectNode loadOutput(Exchange x, LoadResult r, LoadTarget target) {
    ObjectNode o = Wire.load(r, x.actor, x.graph.commit(r.commitId()).orElse(null), target.branch(), target.created(),
        order(x));
    if (target.baseBranch() != null) {
      o.put("base_branch", target.baseBranch());
    }
    return o;
  }

  private static void loadJson(Exchange x) {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("data", "branch", "from", "mode", "message"));
    String data = Exchange.requiredText(body, "data");
    LoadMode mode = mode(Exchange.text(body, "mode"));
    LoadTarget target = loadTarget(x, Exchange.text(body, "branch"), Exchange.text(body, "from"));
    LoadResult r = x.graph.load(mode, new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)),
        loadOptions(x, Exchange.text(body, "message"), target));
    x.sendJson(200, loadOutput(x, r, target));
  }

  private static void loadNdjson(Exchange x) {
    x.allowQueryParams(Set.of("branch", "from", "mode", "message"));
    LoadMode mode = mode(x.queryParam("mode"));
    LoadTarget target = loadTarget(x, x.queryParam("branch"), x.queryParam("from"));
    LoadOptions options = loadOptions(x, x.queryParam("message"), target);
    // The body goes straight into the loader: one request = one load = one commit, answered only after
    // the commit is published; nothing is buffered or logged on the side.
    InputStream in = x.body(Exchange.NDJSON_TYPE, true);
    LoadResult r = x.graph.load(mode, in, options);
    x.sendJson(200, loadOutput(x, r, target));
  }

  private static void export(Exchange x) throws Exception {
    x.allowQueryParams(Set.of());
    ObjectNode body = x.jsonBody(Set.of("branch", "commit", "type_names"));
    String branch = Exchange.text(body, "branch");
    String commit = Exchange.text(body, "commit");
    if (branch != null && commit != null) {
      throw new InvalidInputException("request fields 'branch' and 'commit' exclude each other",
          new ErrorDetail.Validation(null, null, "commit", "conflicting_fields"));
    }
    ExportOptions options = commit != null ? ExportOptions.atCommit(commit)
        : branch != null ? ExportOptions.onBranch(branch) : ExportOptions.defaults();
    JsonNode names = body.get("type_names");
    if (names != null && !names.isNull()) {
      if (!names.isArray()) {
        throw new InvalidInputException("request field 'type_names' must be an array of strings",
            new ErrorDetail.Validation(null, null, "type_names", "type_mismatch"));
      }
      List<String> types = new ArrayList<>();
      for (JsonNode n : names) {
        if (!n.isTextual()) {
          throw new InvalidInputException("request field 'type_names' must be an array of strings",
              new ErrorDetail.Validation(null, null, "type_names", "type_mismatch"));
        }
        types.add(n.textValue());
      }
      options = options.withTypes(types);
    }
    x.response.setStatus(200);
    x.response.getHeaders().put(HttpHeader.CONTENT_TYPE, Exchange.NDJSON_TYPE);
    // Streamed: 64 KiB buffers. A failure before the first flush is an ordinary error response; a
    // failure after it aborts the response, so a client never takes a cut export for a complete one.
    x.streaming = true;
    OutputStream sink = Content.Sink.asOutputStream(x.response);
    OutputStream buffered = new java.io.BufferedOutputStream(sink, 1 << 16);
    // An unknown type name fails inside export before its first byte: an ordinary 400 answer.
    x.graph.export(buffered, options);
    buffered.flush();
    buffered.close();
    x.completed = true;
    x.callback.succeeded();
  }
}
