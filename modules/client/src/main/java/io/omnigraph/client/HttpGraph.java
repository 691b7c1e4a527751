package io.omnigraph.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.WriteWarning;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryResult;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.api.StorageFailureException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Graph} served by an OmniGraph server (docs/server.md): every call is one HTTP request to
 * {@code <server>/graphs/<id>/...}, and every failure is the typed exception the embedded engine
 * throws, rebuilt from the server's ErrorOutput body ({@link ErrorOutputs}).
 *
 * <pre>{@code
 * try (Graph g = HttpGraph.connect(URI.create("http://127.0.0.1:8080"), "lib", System.getenv("OMNIGRAPH_TOKEN"))) {
 *   g.load(LoadMode.MERGE, Path.of("books.ndjson"), LoadOptions.defaults());
 * }
 * }</pre>
 *
 * <p>Differences from an embedded graph: the commit actor is the token's actor (the server decides;
 * {@code options.actor()} is not sent); load progress is not reported; HTTP-only refusals (401, 403,
 * 405, 415) arrive as {@link InvalidInputException} and 429 as {@link io.omnigraph.api.ConflictException}, each
 * with a {@code validation} detail whose rule is the server's code; a server that cannot be reached is a
 * {@link StorageFailureException} with storage kind {@code TRANSIENT}. Thread-safe.
 */
public final class HttpGraph implements Graph {
  private static final String IF_GRAPH_COMMIT = "Omnigraph-If-Graph-Commit";
  static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final HttpClient http;
  private final URI base;
  private final String graphId;
  private final String token;
  private final Duration timeout;
  private volatile boolean closed;

  private HttpGraph(HttpClient http, URI base, String graphId, String token, Duration timeout) {
    this.http = http;
    this.base = base;
    this.graphId = graphId;
    this.token = token;
    this.timeout = timeout;
  }

  /**
   * @param server the server's base URI, e.g. {@code http://127.0.0.1:8080}
   * @param graphId the graph's id on that server
   * @param token the bearer token, or {@code null} for a server run with {@code --unauthenticated}
   * @return the remote graph (no request is made until the first call)
   */
  public static HttpGraph connect(URI server, String graphId, String token) {
    return connect(server, graphId, token, Duration.ofMinutes(10));
  }

  /** As {@link #connect(URI, String, String)} with a per-request timeout. */
  public static HttpGraph connect(URI server, String graphId, String token, Duration requestTimeout) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(graphId, "graphId");
    String s = server.toString();
    URI base = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
      throw new InvalidInputException("the server must be an http:// or https:// URL, not '" + server + "'",
          new ErrorDetail.Validation(null, null, "server", "invalid_server_url"));
    }
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    return new HttpGraph(http, base, graphId, token, requestTimeout);
  }

  @Override
  public String uri() {
    return base + "/graphs/" + graphId;
  }

  // --- load ---

  @Override
  public LoadResult load(LoadMode mode, InputStream ndjson, LoadOptions options) {
    InputStream keepOpen = new FilterInputStream(ndjson) {
      @Override
      public void close() {}
    };
    return loadBody(mode, options, HttpRequest.BodyPublishers.ofInputStream(() -> keepOpen));
  }

  @Override
  public LoadResult load(LoadMode mode, Path ndjson, LoadOptions options) {
    HttpRequest.BodyPublisher body;
    try {
      body = HttpRequest.BodyPublishers.ofFile(ndjson);
    } catch (java.io.FileNotFoundException e) {
      throw new InvalidInputException("cannot read " + ndjson + ": no such file",
          new ErrorDetail.Validation(null, null, null, "input_not_found"), e);
    }
    if (!Files.isReadable(ndjson)) {
      throw new InvalidInputException("cannot read " + ndjson, new ErrorDetail.Validation(null, null, null, "input_not_found"));
    }
    return loadBody(mode, options, body);
  }

  private LoadResult loadBody(LoadMode mode, LoadOptions options, HttpRequest.BodyPublisher body) {
    StringBuilder q = new StringBuilder("load/ndjson?mode=").append(mode.wireName());
    if (options.message() != null) {
      q.append("&message=").append(URLEncoder.encode(options.message(), StandardCharsets.UTF_8));
    }
    if (options.branch() != null) {
      q.append("&branch=").append(URLEncoder.encode(options.branch(), StandardCharsets.UTF_8));
    }
    HttpRequest.Builder b = request(q.toString()).header("Content-Type", "application/x-ndjson").POST(body);
    if (options.expectedHead() != null) {
      b.header(IF_GRAPH_COMMIT, options.expectedHead());
    }
    JsonNode r = json(b);
    Map<String, Long> rows = new LinkedHashMap<>();
    r.path("nodes").forEach(n -> rows.put("node:" + n.path("name").asText(), n.path("entities_loaded").asLong()));
    r.path("edges").forEach(n -> rows.put("edge:" + n.path("name").asText(), n.path("entities_loaded").asLong()));
    Map<String, Long> phases = new LinkedHashMap<>();
    r.path("phase_nanos").fields().forEachRemaining(e -> phases.put(e.getKey(), e.getValue().asLong()));
    return new LoadResult(r.path("commit").path("graph_commit_id").asText(), LoadMode.parse(r.path("mode").asText()),
        r.path("rows_read").asLong(), rows, phases, warnings(r));
  }

  // --- mutations ---

  @Override
  public MutationResult mutate(String gqText, String queryName, QueryParams params, MutationOptions options) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", gqText);
    body.put("name", queryName);
    params(body, params);
    if (options.message() != null) {
      body.put("message", options.message());
    }
    if (options.branch() != null) {
      body.put("branch", options.branch());
    }
    HttpRequest.Builder b = options.expectedHead() == null
        ? post("mutate", body)
        : post("mutate/if-graph-commit", body).header(IF_GRAPH_COMMIT, options.expectedHead());
    JsonNode r = json(b);
    Map<String, MutationResult.TableChanges> tables = new LinkedHashMap<>();
    r.path("tables").fields().forEachRemaining(e -> tables.put(e.getKey(), new MutationResult.TableChanges(
        e.getValue().path("inserted").asLong(), e.getValue().path("updated").asLong(), e.getValue().path("deleted").asLong())));
    JsonNode commit = r.path("commit");
    return new MutationResult(r.path("query_name").asText(),
        commit.isObject() ? commit.path("graph_commit_id").asText() : null,
        r.path("affected_nodes").asLong(), r.path("affected_edges").asLong(), tables, warnings(r));
  }

  /** The {@code warnings} of a load or mutation answer, each rebuilt with its typed cause. */
  private static List<WriteWarning> warnings(JsonNode r) {
    List<WriteWarning> out = new ArrayList<>();
    r.path("warnings").forEach(w -> out.add(new WriteWarning(w.path("code").asText(), w.path("message").asText(),
        ErrorOutputs.rebuild(w.path("status").asInt(500), w.path("error")))));
    return out;
  }

  @Override
  public PreparedMutation prepareMutation(String gqText, String queryName) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", gqText);
    body.put("name", queryName);
    JsonNode r = json(post("mutate/prepare", body));
    return new Prepared(gqText, r.path("query_name").asText(), this);
  }

  @Override
  public MutationResult mutate(PreparedMutation query, QueryParams params, MutationOptions options) {
    if (!(query instanceof Prepared p) || p.owner != this) {
      throw new InvalidInputException("this prepared mutation was not prepared by this HttpGraph",
          new ErrorDetail.Validation(null, null, null, "foreign_prepared_mutation"));
    }
    return mutate(p.text, p.queryName, params, options);
  }

  private record Prepared(String text, String queryName, HttpGraph owner) implements PreparedMutation {}

  private static void params(ObjectNode body, QueryParams params) {
    if (params instanceof QueryParams.Json j) {
      try {
        body.set("params", JSON.readTree(j.text()));
      } catch (IOException e) {
        // Sent as text: the server reports it exactly as the engine does.
        body.put("params_json", j.text());
      }
    } else if (params instanceof QueryParams.Pairs p) {
      ArrayNode a = body.putArray("param_pairs");
      p.pairs().forEach(a::add);
    } else if (params instanceof QueryParams.Values v) {
      ObjectNode o = body.putObject("params");
      v.values().forEach((k, val) -> o.set(k.startsWith("$") ? k.substring(1) : k, value(val)));
    }
  }

  private static JsonNode value(Object v) {
    if (v == null) {
      return JSON.nullNode();
    }
    if (v instanceof byte[] bytes) {
      return JSON.getNodeFactory().textNode("base64:" + Base64.getEncoder().encodeToString(bytes));
    }
    if (v instanceof float[] fs) {
      ArrayNode a = JSON.createArrayNode();
      for (float f : fs) {
        a.add(f);
      }
      return a;
    }
    if (v instanceof TemporalAccessor) {
      return JSON.getNodeFactory().textNode(v.toString());
    }
    if (v instanceof Collection<?> c) {
      ArrayNode a = JSON.createArrayNode();
      c.forEach(item -> a.add(value(item)));
      return a;
    }
    return JSON.valueToTree(v);
  }

  // --- reads ---

  private static ObjectNode queryBody(String gqText, String queryName, QueryParams params, QueryOptions options) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", gqText);
    body.put("name", queryName);
    params(body, params);
    options.branch().ifPresent(b -> body.put("branch", b));
    options.commitId().ifPresent(c -> body.put("snapshot", c));
    return body;
  }

  @Override
  public QueryResult query(String gqText, String queryName, QueryParams params, QueryOptions options) {
    return new HttpQueryResult(json(post("query", queryBody(gqText, queryName, params, options))));
  }

  @Override
  public PreparedQuery prepareQuery(String gqText, String queryName) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", gqText);
    body.put("name", queryName);
    JsonNode r = json(post("query/prepare", body));
    return new PreparedRead(gqText, r.path("query_name").asText(), HttpQueryResult.columns(r.path("columns")), this);
  }

  @Override
  public QueryResult query(PreparedQuery query, QueryParams params, QueryOptions options) {
    if (!(query instanceof PreparedRead p) || p.owner != this) {
      throw new InvalidInputException("this prepared query was not prepared by this HttpGraph",
          new ErrorDetail.Validation(null, null, null, "foreign_prepared_query"));
    }
    return query(p.text, p.queryName, params, options);
  }

  @Override
  public String explainQuery(String gqText, String queryName, QueryParams params, QueryOptions options) {
    return json(post("query/explain", queryBody(gqText, queryName, params, options))).path("plan").asText();
  }

  /** {@code POST query/check {"query": text}} → {@code {"queries": [{name, kind, rule?, line?, column?, message?}]}}. */
  @Override
  public List<io.omnigraph.api.QueryDiagnostic> checkQueries(String gqText) {
    ObjectNode body = JSON.createObjectNode();
    body.put("query", gqText);
    JsonNode r = json(post("query/check", body));
    List<io.omnigraph.api.QueryDiagnostic> out = new java.util.ArrayList<>();
    for (JsonNode q : r.path("queries")) {
      out.add(new io.omnigraph.api.QueryDiagnostic(checkText(q, "name"), checkText(q, "kind"), checkText(q, "rule"),
          q.hasNonNull("line") ? q.get("line").asLong() : null, q.hasNonNull("column") ? q.get("column").asLong() : null,
          checkText(q, "message")));
    }
    return out;
  }

  private static String checkText(JsonNode o, String field) {
    return o.hasNonNull(field) ? o.get(field).asText() : null;
  }

  private record PreparedRead(String text, String queryName, List<QueryResult.Column> columns, HttpGraph owner)
      implements PreparedQuery {}

  // --- export, commits, schema ---

  /** {@code POST export {"branch"|"commit", "type_names"}}, the NDJSON stream copied to {@code out}. */
  @Override
  public void export(OutputStream out, io.omnigraph.api.ExportOptions options) {
    Objects.requireNonNull(out, "out");
    ObjectNode body = JSON.createObjectNode();
    options.branch().ifPresent(b -> body.put("branch", b));
    options.commitId().ifPresent(c -> body.put("commit", c));
    options.typeNames().ifPresent(names -> names.forEach(body.putArray("type_names")::add));
    export(out, body);
  }

  // --- branches ---

  @Override
  public List<io.omnigraph.api.BranchInfo> branches() {
    List<io.omnigraph.api.BranchInfo> out = new ArrayList<>();
    json(request("branches").GET()).path("branches").forEach(b -> out.add(branch(b)));
    return out;
  }

  @Override
  public io.omnigraph.api.BranchInfo createBranch(String name, String from) {
    ObjectNode body = JSON.createObjectNode();
    body.put("name", name);
    if (from != null) {
      body.put("from", from);
    }
    return branch(json(post("branches", body)));
  }

  @Override
  public void deleteBranch(String name) {
    StringBuilder path = new StringBuilder("branches");
    for (String segment : name.split("/", -1)) {
      path.append('/').append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    json(request(path.toString()).DELETE());
  }

  @Override
  public List<CommitInfo> commits(String branch) {
    List<CommitInfo> out = new ArrayList<>();
    json(request("commits?branch=" + URLEncoder.encode(branch, StandardCharsets.UTF_8).replace("+", "%20")).GET())
        .path("commits").forEach(c -> out.add(commit(c)));
    return out;
  }

  /**
   * {@code POST branches/merge} with {@code {"source","target","message","delete_branch"}}; the answer
   * is {@link #mergeResult(JsonNode)}'s shape (docs/server.md).
   */
  @Override
  public io.omnigraph.api.MergeResult merge(String source, String target, io.omnigraph.api.MergeOptions options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(options, "options");
    ObjectNode body = JSON.createObjectNode();
    body.put("source", source);
    if (target != null) {
      body.put("target", target);
    }
    if (options.message() != null) {
      body.put("message", options.message());
    }
    body.put("delete_branch", options.deleteSourceBranch());
    return mergeResult(json(post("branches/merge", body)));
  }

  /** Reads {@code {"outcome","source","target","source_commit_id","base_commit_id","commit_id","tables":{key:{"route","inserted","updated","deleted","transactions"}},"source_deleted"}}. */
  static io.omnigraph.api.MergeResult mergeResult(JsonNode m) {
    Map<String, io.omnigraph.api.MergeResult.TableMerge> tables = new LinkedHashMap<>();
    m.path("tables").fields().forEachRemaining(e -> tables.put(e.getKey(), new io.omnigraph.api.MergeResult.TableMerge(
        e.getValue().path("route").asText(), e.getValue().path("inserted").asLong(), e.getValue().path("updated").asLong(),
        e.getValue().path("deleted").asLong(), e.getValue().path("transactions").asLong())));
    return new io.omnigraph.api.MergeResult(io.omnigraph.api.MergeOutcome.fromCode(m.path("outcome").asText()),
        m.path("source").asText(), m.path("target").asText(), m.path("source_commit_id").asText(),
        text(m, "base_commit_id"), m.path("commit_id").asText(), tables, m.path("source_deleted").asBoolean());
  }

  private static io.omnigraph.api.BranchInfo branch(JsonNode b) {
    return new io.omnigraph.api.BranchInfo(b.path("name").asText(), b.path("head").asText(), text(b, "parent"));
  }

  private void export(OutputStream out, ObjectNode body) {
    HttpResponse<InputStream> r = send(post("export", body), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      if (r.statusCode() != 200) {
        throw ErrorOutputs.rebuild(r.statusCode(), in.readAllBytes(), JSON);
      }
      in.transferTo(out);
      out.flush();
    } catch (IOException e) {
      throw new StorageFailureException("export from " + uri() + " was cut off: " + e.getMessage(),
          new ErrorDetail.Storage("TRANSIENT", uri()), e);
    }
  }

  @Override
  public List<CommitInfo> commits() {
    List<CommitInfo> out = new ArrayList<>();
    json(request("commits").GET()).path("commits").forEach(c -> out.add(commit(c)));
    return out;
  }

  @Override
  public Optional<CommitInfo> commit(String commitId) {
    try {
      return Optional.of(commit(json(request("commits/" + URLEncoder.encode(commitId, StandardCharsets.UTF_8)
          .replace("+", "%20")).GET())));
    } catch (NotFoundException e) {
      if (e.detail().orElse(null) instanceof ErrorDetail.Validation v && "unknown_commit".equals(v.rule())) {
        return Optional.empty();
      }
      throw e;
    }
  }

  static CommitInfo commit(JsonNode c) {
    List<String> parents = new ArrayList<>();
    c.path("parent_commit_ids").forEach(p -> parents.add(p.asText()));
    Map<String, Long> tables = new LinkedHashMap<>();
    c.path("table_versions").fields().forEachRemaining(e -> tables.put(e.getKey(), e.getValue().asLong()));
    return new CommitInfo(c.path("graph_commit_id").asText(), c.path("graph_branch").asText("main"), parents, text(c, "actor_id"), text(c, "message"),
        Instant.parse(c.path("created_at").asText()), c.path("graph_manifest_version").asLong(), tables);
  }

  // --- snapshot (server) ---

  /** {@code GET snapshot?branch=}. */
  @Override
  public io.omnigraph.api.SnapshotInfo snapshot(String branch) {
    String path = branch == null ? "snapshot"
        : "snapshot?branch=" + URLEncoder.encode(branch, StandardCharsets.UTF_8).replace("+", "%20");
    JsonNode r = json(request(path).GET());
    List<io.omnigraph.api.SnapshotInfo.Dataset> datasets = new ArrayList<>();
    for (JsonNode d : r.path("datasets")) {
      datasets.add(new io.omnigraph.api.SnapshotInfo.Dataset(d.path("table_key").asText(), d.path("dataset_path").asText(),
          d.path("published_dataset_version").asLong(), text(d, "native_dataset_branch"), d.path("entity_count").asLong()));
    }
    return new io.omnigraph.api.SnapshotInfo(r.path("graph_branch").asText(), r.path("graph_commit_id").asText(),
        r.path("graph_manifest_version").asLong(), r.path("internal_schema_version").asInt(),
        // the wire lists them in schema order; SnapshotInfo's are sorted by table key
        datasets.stream().sorted(java.util.Comparator.comparing(io.omnigraph.api.SnapshotInfo.Dataset::tableKey)).toList());
  }

  @Override
  public SchemaInfo schema() {
    return schema(null);
  }

  /** {@code GET schema?branch=}. */
  @Override
  public SchemaInfo schema(String branch) {
    String path = branch == null ? "schema"
        : "schema?branch=" + URLEncoder.encode(branch, StandardCharsets.UTF_8).replace("+", "%20");
    JsonNode s = json(request(path).GET());
    List<String> keys = new ArrayList<>();
    s.path("table_keys").forEach(k -> keys.add(k.asText()));
    return new SchemaInfo(s.path("schema_source").asText(), s.path("schema_ir_json").asText(),
        s.path("schema_identity").asText(), keys);
  }

  // --- schema & maintenance ---

  /** {@code POST schema/plan {"schema_source"}} → {@code {supported, accepted_identity, desired_identity, steps}}. */
  @Override
  public io.omnigraph.api.SchemaPlan planSchema(String pgText) {
    Objects.requireNonNull(pgText, "pgText");
    ObjectNode body = JSON.createObjectNode();
    body.put("schema_source", pgText);
    JsonNode r = json(post("schema/plan", body));
    return new io.omnigraph.api.SchemaPlan(r.path("supported").asBoolean(), steps(r.path("steps")),
        r.path("accepted_identity").asText(), r.path("desired_identity").asText());
  }

  /**
   * {@code POST schema/apply {"schema_source", "allow_data_loss", "message"}}; the commit (if any) is
   * authored by the token's actor.
   */
  @Override
  public io.omnigraph.api.SchemaApplyResult applySchema(String pgText, io.omnigraph.api.SchemaApplyOptions options) {
    Objects.requireNonNull(pgText, "pgText");
    Objects.requireNonNull(options, "options");
    ObjectNode body = JSON.createObjectNode();
    body.put("schema_source", pgText);
    body.put("allow_data_loss", options.allowDataLoss());
    if (options.message() != null) {
      body.put("message", options.message());
    }
    JsonNode r = json(post("schema/apply", body));
    JsonNode commit = r.path("commit");
    return new io.omnigraph.api.SchemaApplyResult(uri(), r.path("applied").asBoolean(),
        commit.isObject() ? commit.path("graph_commit_id").asText() : null, r.path("schema_identity").asText(),
        steps(r.path("steps")));
  }

  private static List<io.omnigraph.api.SchemaPlanStep> steps(JsonNode steps) {
    List<io.omnigraph.api.SchemaPlanStep> out = new ArrayList<>();
    for (JsonNode step : steps) {
      Map<String, Object> fields = new LinkedHashMap<>();
      step.fields().forEachRemaining(e -> {
        if (e.getKey().equals("kind")) {
          return;
        }
        if (e.getValue().isArray()) {
          List<String> values = new ArrayList<>();
          e.getValue().forEach(v -> values.add(v.asText()));
          fields.put(e.getKey(), values);
        } else {
          fields.put(e.getKey(), e.getValue().asText());
        }
      });
      out.add(new io.omnigraph.api.SchemaPlanStep(step.path("kind").asText(), fields));
    }
    return out;
  }

  /** {@code POST ensure-indices}; the commit (if any) is authored by the token's actor. */
  @Override
  public io.omnigraph.api.EnsureIndicesResult ensureIndices() {
    JsonNode r = json(post("ensure-indices", JSON.createObjectNode()));
    List<io.omnigraph.api.IndexStatus> indexes = new ArrayList<>();
    r.path("indexes").forEach(i -> indexes.add(new io.omnigraph.api.IndexStatus(i.path("table").asText(),
        i.path("column").asText(), i.path("kind").asText(), i.path("name").asText(), i.path("state").asText(),
        text(i, "reason"))));
    JsonNode commit = r.path("commit");
    return new io.omnigraph.api.EnsureIndicesResult(commit.isObject() ? commit.path("graph_commit_id").asText() : null,
        indexes);
  }

  /**
   * Not served over HTTP: the served {@code ensure-indices} builds every index
   * ({@link #ensureIndices()}).
   *
   * @throws io.omnigraph.api.InvalidInputException always
   */
  @Override
  public io.omnigraph.api.EnsureIndicesResult ensureKeyIndices() {
    throw new io.omnigraph.api.InvalidInputException("ensureKeyIndices is not available through the HTTP client;"
        + " use ensureIndices() (every index), or Graph.ensureKeyIndices on an embedded graph", null);
  }

  /**
   * Not served over HTTP yet: maintenance is operator work against the graph root.
   *
   * @throws io.omnigraph.api.InvalidInputException always
   */
  @Override
  public io.omnigraph.api.OptimizeResult optimize() {
    throw new io.omnigraph.api.InvalidInputException("optimize is not available through the HTTP client;"
        + " run 'omnigraph optimize <uri>' (or Graph.optimize on an embedded graph) against the graph root", null);
  }

  @Override
  public List<RecoveryRecord> recoveries() {
    List<RecoveryRecord> out = new ArrayList<>();
    json(request("recoveries").GET()).path("recoveries").forEach(r -> {
      List<RecoveryRecord.TableOutcome> tables = new ArrayList<>();
      r.path("tables").forEach(t -> tables.add(new RecoveryRecord.TableOutcome(t.path("table_key").asText(),
          t.path("from_version").asLong(), t.path("to_version").asLong())));
      out.add(new RecoveryRecord(r.path("graph_commit_id").asText(), r.path("kind").asText(), text(r, "for_actor"),
          r.path("operation_id").asText(), text(r, "writer_kind"), tables, Instant.parse(r.path("created_at").asText())));
    });
    return out;
  }

  @Override
  public void close() {
    closed = true;
  }

  // --- transport ---

  private HttpRequest.Builder request(String path) {
    if (closed) {
      throw new InvalidInputException("this graph handle is closed", new ErrorDetail.Validation(null, null, null, "closed"));
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri() + "/" + path)).timeout(timeout)
        .header("Accept", "application/json");
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  private HttpRequest.Builder post(String path, ObjectNode body) {
    try {
      return request(path).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private JsonNode json(HttpRequest.Builder b) {
    HttpResponse<byte[]> r = send(b, HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw ErrorOutputs.rebuild(r.statusCode(), r.body(), JSON);
    }
    try {
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new io.omnigraph.api.InternalErrorException("the server's answer is not JSON: " + e.getMessage(), null, e);
    }
  }

  private <T> HttpResponse<T> send(HttpRequest.Builder b, HttpResponse.BodyHandler<T> handler) {
    HttpRequest req = b.build();
    try {
      return http.send(req, handler);
    } catch (IOException e) {
      OmnigraphException cause = unwrap(e);
      if (cause != null) {
        throw cause;
      }
      throw new StorageFailureException("cannot reach the OmniGraph server at " + base + " (" + req.method() + " "
          + req.uri().getPath() + "): " + e, new ErrorDetail.Storage("TRANSIENT", req.uri().toString()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageFailureException("interrupted while waiting for " + base,
          new ErrorDetail.Storage("TRANSIENT", req.uri().toString()), e);
    }
  }

  /** A failure of the caller's own input stream while it was being sent, if that is what this is. */
  private static OmnigraphException unwrap(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OmnigraphException o) {
        return o;
      }
    }
    return null;
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
