package io.omnigraph.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.conformance.graph.GraphContract;
import io.omnigraph.server.OmnigraphServer;
import io.omnigraph.server.Tokens;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's own statuses through real HTTP on 127.0.0.1 (docs/server.md, "Statuses"): auth, read-only,
 * routing, body limits, media types, admission, preconditions, Jetty's own errors, graceful stop.
 */
class ServerHttpTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String ALICE = "token-of-alice";
  static final String BOB = "token-of-bob";

  @TempDir Path tmp;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final List<String> accessLog = Collections.synchronizedList(new ArrayList<>());
  private Graph graph;

  private URI start(Consumer<OmnigraphServer.Builder> config) {
    return start(GraphContract.SCHEMA, config);
  }

  private URI start(String schema, Consumer<OmnigraphServer.Builder> config) {
    graph = Omnigraph.init(tmp.resolve("g").toString(), schema);
    resources.add(graph);
    OmnigraphServer.Builder b = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("lib", graph)
        .tokens(Tokens.of(Map.of("alice", ALICE, "bob", "sha256:" + HexFormat.of().formatHex(sha256(BOB)))))
        .accessLog(accessLog::add).errorLog(line -> { });
    config.accept(b);
    OmnigraphServer server = b.start();
    resources.add(server);
    return server.uri();
  }

  private static byte[] sha256(String s) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
  }

  static JsonNode json(HttpResponse<String> r) {
    try {
      return JSON.readTree(r.body());
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + r.body(), e);
    }
  }

  /** Every error: the status, the code, a request id equal to the header, and no stack trace or HTML. */
  static JsonNode error(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
    JsonNode e = json(r);
    assertThat(e.path("code").asText()).isEqualTo(code);
    assertThat(e.path("error").asText()).isNotBlank().doesNotContain("\tat ").doesNotContain("<html");
    assertThat(e.path("request_id").asText()).isNotBlank().isEqualTo(r.headers().firstValue("X-Request-Id").orElse(null));
    return e;
  }

  private static final String ADD = "{\"query\":" + quote(GraphContract.MUTATIONS)
      + ",\"name\":\"add_author\",\"params\":{\"handle\":\"h1\",\"name\":\"N\"}}";

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void healthAndOpenApiAreOpenEverythingElseNeedsAValidToken() {
    URI u = start(b -> { });
    assertThat(Http.get(u, "/healthz", null).statusCode()).isEqualTo(200);
    JsonNode api = json(Http.get(u, "/openapi.json", null));
    assertThat(api.path("paths").has("/graphs/{graph_id}/load/ndjson")).isTrue();
    assertThat(api.path("paths").has("/graphs/{graph_id}/commits/{commit_id}")).isTrue();
    HttpResponse<String> missing = Http.get(u, "/graphs/lib/commits", null);
    error(missing, 401, "unauthorized");
    assertThat(missing.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    error(Http.get(u, "/graphs/lib/commits", "wrong"), 401, "unauthorized");
    error(Http.get(u, "/graphs", "wrong"), 401, "unauthorized");
    assertThat(Http.get(u, "/graphs/lib/commits", ALICE).statusCode()).isEqualTo(200);
    // bob's token is configured only as a sha256: digest
    assertThat(Http.get(u, "/graphs/lib/commits", BOB).statusCode()).isEqualTo(200);
  }

  @Test
  void theTokensActorIsTheCommitActor() {
    URI u = start(b -> { });
    HttpResponse<String> r = Http.postJson(u, "/graphs/lib/mutate", BOB, ADD);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = json(r);
    assertThat(body.path("actor_id").asText()).isEqualTo("bob");
    assertThat(body.path("commit").path("actor_id").asText()).isEqualTo("bob");
    assertThat(graph.commits().get(0).actor()).isEqualTo("bob");
    assertThat(body.path("affected_nodes").asLong()).isEqualTo(1);
    assertThat(body.path("query_name").asText()).isEqualTo("add_author");
  }

  @Test
  void aServerWithoutTokensRefusesToStartUnlessUnauthenticated() {
    Graph g = Omnigraph.init(tmp.resolve("solo").toString(), GraphContract.SCHEMA);
    resources.add(g);
    assertThatThrownBy(() -> OmnigraphServer.builder().bind("127.0.0.1", 0).graph("x", g).start())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("no bearer tokens");
    OmnigraphServer open = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("x", g).unauthenticated(true).start();
    resources.add(open);
    assertThat(Http.get(open.uri(), "/graphs/x/commits", null).statusCode()).isEqualTo(200);
  }

  @Test
  void readOnlyRefusesEveryWriteRouteWith403AndServesReads() {
    URI u = start(b -> b.readOnly(true));
    String head = graph.commits().get(0).id();
    // valid requests: a route not flagged as a write would answer 200 here
    error(Http.postJson(u, "/graphs/lib/mutate", ALICE, ADD), 403, "forbidden");
    error(Http.postJson(u, "/graphs/lib/change", ALICE, ADD), 403, "forbidden");
    error(Http.send(u, "POST", "/graphs/lib/mutate/if-graph-commit", ALICE, "application/json", ADD), 403, "forbidden");
    error(Http.send(u, "POST", "/graphs/lib/load/ndjson", ALICE, "application/x-ndjson", GraphContract.DATA), 403, "forbidden");
    error(Http.postJson(u, "/graphs/lib/load", ALICE, "{\"data\":" + quote(GraphContract.DATA) + "}"), 403, "forbidden");
    error(Http.postJson(u, "/graphs/lib/ensure-indices", ALICE, "{}"), 403, "forbidden");
    error(Http.postJson(u, "/graphs/lib/schema/apply", ALICE, "{\"schema_source\":" + quote(GraphContract.SCHEMA) + "}"),
        403, "forbidden");
    error(Http.postJson(u, "/graphs/lib/branches", ALICE, "{\"name\":\"ro\"}"), 403, "forbidden");
    error(Http.postJson(u, "/graphs/lib/branches/merge", ALICE, "{\"source\":\"main\",\"target\":\"main\"}"), 403, "forbidden");
    error(Http.send(u, "DELETE", "/graphs/lib/branches/ro", ALICE, null, null), 403, "forbidden");
    assertThat(Http.get(u, "/graphs/lib/schema", ALICE).statusCode()).isEqualTo(200);
    assertThat(Http.get(u, "/graphs/lib/snapshot", ALICE).statusCode()).isEqualTo(200);
    assertThat(Http.postJson(u, "/graphs/lib/export", ALICE, "{}").statusCode()).isEqualTo(200);
    assertThat(Http.postJson(u, "/graphs/lib/schema/plan", ALICE, "{\"schema_source\":" + quote(GraphContract.SCHEMA) + "}")
        .statusCode()).isEqualTo(200);
    assertThat(json(Http.get(u, "/healthz", null)).path("read_only").asBoolean()).isTrue();
    assertThat(graph.commits()).extracting(io.omnigraph.api.CommitInfo::id).containsExactly(head);
    assertThat(graph.branches()).extracting(io.omnigraph.api.BranchInfo::name).containsExactly("main");
  }

  @Test
  void anErrorAnswerBeforeTheBodyIsReadKeepsTheConnectionUsable() throws Exception {
    URI u = start(b -> b.readOnly(true));
    String body = "{\"name\":\"ro\"}";
    try (Http.Raw raw = new Http.Raw(u)) {
      // the body arrives after the refusal is decided: it is read and discarded, the connection stays open
      raw.write("POST /graphs/lib/branches HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ALICE
          + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body.substring(0, 5));
      Thread.sleep(300);
      raw.write(body.substring(5));
      assertThat(raw.response()).startsWith("HTTP/1.1 403").doesNotContainIgnoringCase("connection: close");
      raw.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      assertThat(raw.response()).startsWith("HTTP/1.1 200");
    }
    try (Http.Raw raw = new Http.Raw(u)) {
      // a chunked body likewise (HttpGraph streams loads chunked)
      raw.startChunked("POST", "/graphs/lib/load/ndjson", ALICE, "application/x-ndjson");
      raw.chunk("{\"type\":\"Author\",\"data\":{\"handle\":\"x\"}}\n");
      Thread.sleep(300);
      raw.chunk("{\"type\":\"Author\",\"data\":{\"handle\":\"y\"}}\n");
      raw.endChunks();
      assertThat(raw.response()).startsWith("HTTP/1.1 403").doesNotContainIgnoringCase("connection: close");
      raw.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      assertThat(raw.response()).startsWith("HTTP/1.1 200");
    }
    try (Http.Raw raw = new Http.Raw(u)) {
      // a body over its limit is never read: the answer says the connection closes
      raw.write("POST /graphs/lib/branches HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ALICE
          + "\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{");
      assertThat(raw.response()).startsWith("HTTP/1.1 403").containsIgnoringCase("connection: close");
    }
    // and through a pooling client, alternating refused writes and reads never meets a dead connection
    for (int i = 0; i < 30; i++) {
      error(Http.postJson(u, "/graphs/lib/branches", ALICE, body), 403, "forbidden");
      error(Http.postJson(u, "/graphs/lib/load", ALICE, "{\"data\":" + quote("x".repeat(100_000)) + "}"), 403, "forbidden");
      assertThat(Http.get(u, "/graphs/lib/branches", ALICE).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void unknownGraphsRoutesCommitsAndBranchesAre404AndAWrongMethodIs405() {
    URI u = start(b -> { });
    error(Http.get(u, "/graphs/nope/commits", ALICE), 404, "not_found");
    error(Http.get(u, "/graphs/lib/nope", ALICE), 404, "not_found");
    error(Http.get(u, "/elsewhere", ALICE), 404, "not_found");
    JsonNode commit = error(Http.get(u, "/graphs/lib/commits/01ZZZZZZZZZZZZZZZZZZZZZZZZ", ALICE), 404, "not_found");
    assertThat(commit.path("validation").path("rule").asText()).isEqualTo("unknown_commit");
    error(Http.get(u, "/graphs/lib/commits?branch=nope", ALICE), 404, "not_found");
    HttpResponse<String> wrong = Http.send(u, "DELETE", "/graphs/lib/commits", ALICE, null, null);
    error(wrong, 405, "method_not_allowed");
    assertThat(wrong.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void badBodiesAreBadRequests() {
    URI u = start(b -> { });
    error(Http.postJson(u, "/graphs/lib/mutate", ALICE, "{not json"), 400, "bad_request");
    JsonNode unknown = error(Http.postJson(u, "/graphs/lib/mutate", ALICE, "{\"query\":\"x\",\"bogus\":1}"), 400, "bad_request");
    assertThat(unknown.path("validation").path("field").asText()).isEqualTo("bogus");
    error(Http.postJson(u, "/graphs/lib/export", ALICE, "{\"type_names\":[\"Nope\"]}"), 400, "bad_request");
    error(Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=sideways", ALICE, "application/x-ndjson", "{}"), 400, "bad_request");
    error(Http.send(u, "POST", "/graphs/lib/load/ndjson?bogus=1", ALICE, "application/x-ndjson", "{}"), 400, "bad_request");
  }

  @Test
  void theWrongMediaTypeIs415() {
    URI u = start(b -> { });
    error(Http.send(u, "POST", "/graphs/lib/load/ndjson", ALICE, "application/json", GraphContract.DATA), 415, "bad_request");
    error(Http.send(u, "POST", "/graphs/lib/load/ndjson", ALICE, null, GraphContract.DATA), 415, "bad_request");
    error(Http.send(u, "POST", "/graphs/lib/mutate", ALICE, "text/plain", ADD), 415, "bad_request");
    assertThat(graph.commits()).hasSize(1);
  }

  @Test
  void aDeclaredBodyOverTheLimitIs413BeforeTheBodyIsSent() throws Exception {
    URI u = start(b -> { });
    try (Http.Raw raw = new Http.Raw(u)) {
      // Only the headers: the body never comes, and the answer must not wait for it.
      raw.write("POST /graphs/lib/mutate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ALICE
          + "\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n");
      String response = raw.response();
      assertThat(response).startsWith("HTTP/1.1 413");
      JsonNode e = JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
      assertThat(e.path("code").asText()).isEqualTo("bad_request");
      assertThat(e.path("resource_limit").path("resource").asText()).isEqualTo("http_body_bytes");
      assertThat(e.path("resource_limit").path("limit").asLong()).isEqualTo(OmnigraphServer.DEFAULT_BODY_LIMIT);
    }
  }

  @Test
  void aStreamedBodyOverTheLoadLimitIs413AndLoadsNothing() throws Exception {
    URI u = start(b -> b.loadBodyLimit(64 * 1024));
    try (Http.Raw raw = new Http.Raw(u)) {
      raw.startChunked("POST", "/graphs/lib/load/ndjson?mode=merge", ALICE, "application/x-ndjson");
      String response = null;
      try {
        for (int i = 0; i < 400; i++) {
          raw.chunk("{\"type\":\"Author\",\"data\":{\"handle\":\"a" + i + "\",\"name\":\"" + "x".repeat(300) + "\"}}\n");
        }
        raw.endChunks();
      } catch (java.io.IOException closedByServer) {
        // the server answered and closed before the whole body was sent
      }
      response = raw.response();
      assertThat(response).startsWith("HTTP/1.1 413");
      assertThat(response).contains("\"resource\":\"http_body_bytes\"").contains("\"limit\":65536");
    }
    assertThat(graph.commits()).hasSize(1);
  }

  @Test
  void theLoadRoutesTakeBodiesOverTheGeneralLimit() {
    URI u = start(b -> b.bodyLimit(4096));
    StringBuilder data = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      data.append("{\"type\":\"Author\",\"data\":{\"handle\":\"a").append(i).append("\",\"name\":\"").append("y".repeat(100)).append("\"}}\n");
    }
    HttpResponse<String> r = Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append&message=bulk", ALICE,
        "application/x-ndjson", data.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = json(r);
    assertThat(body.path("mode").asText()).isEqualTo("append");
    assertThat(body.path("total_entities").asLong()).isEqualTo(100);
    assertThat(body.path("nodes").get(0).path("name").asText()).isEqualTo("Author");
    assertThat(body.path("commit").path("graph_commit_id").asText()).isEqualTo(graph.commits().get(0).id());
    assertThat(graph.commits().get(0).message()).isEqualTo("bulk");
    // the general limit still applies elsewhere
    error(Http.postJson(u, "/graphs/lib/mutate", ALICE, "{\"query\":" + quote("x".repeat(5000)) + "}"), 413, "bad_request");
    // the JSON load route: data as a string, mode defaults to merge
    HttpResponse<String> j = Http.postJson(u, "/graphs/lib/load", ALICE,
        "{\"data\":" + quote("{\"type\":\"Book\",\"data\":{\"isbn\":\"1\",\"title\":\"T\"}}\n") + "}");
    assertThat(j.statusCode()).as(j.body()).isEqualTo(200);
    assertThat(json(j).path("mode").asText()).isEqualTo("merge");
  }

  @Test
  void theInFlightCapPerActorIs429WithRetryAfter() throws Exception {
    URI u = start(b -> b.maxInFlightPerActor(1));
    try (Http.Raw slow = new Http.Raw(u)) {
      // alice's first write stays in flight: its body is not finished yet.
      slow.startChunked("POST", "/graphs/lib/load/ndjson?mode=merge", ALICE, "application/x-ndjson");
      slow.chunk("{\"type\":\"Author\",\"data\":{\"handle\":\"slow\"}}\n");
      HttpResponse<String> second = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      // Wait without writing (a probing write could take alice's one slot first): /healthz counts it.
      while (System.nanoTime() < deadline && !json(Http.get(u, "/healthz", null)).path("writes_in_flight").asText().equals("1")) {
        Thread.sleep(20);
      }
      second = Http.postJson(u, "/graphs/lib/mutate", ALICE, ADD);
      error(second, 429, "too_many_requests");
      assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
      // another actor is not held back
      assertThat(Http.postJson(u, "/graphs/lib/mutate", BOB, ADD).statusCode()).isEqualTo(200);
      // reads are not admission-controlled
      assertThat(Http.get(u, "/graphs/lib/commits", ALICE).statusCode()).isEqualTo(200);
      slow.endChunks();
      assertThat(slow.response()).startsWith("HTTP/1.1 200");
    }
    // The slot is released when the handler returns, which may be just after the client has the answer.
    int status = 0;
    for (int i = 0; i < 250 && status != 200; i++) {
      status = Http.postJson(u, "/graphs/lib/mutate", ALICE, ADD).statusCode();
      if (status == 429) {
        Thread.sleep(20);
      } else {
        assertThat(status).isEqualTo(200);
      }
    }
    assertThat(status).isEqualTo(200);
  }

  @Test
  void theIfGraphCommitRouteIs412OnAnotherHeadAnd400WithoutTheHeader() {
    URI u = start(b -> { });
    String genesis = graph.commits().get(0).id();
    assertThat(Http.postJson(u, "/graphs/lib/mutate", ALICE, ADD).statusCode()).isEqualTo(200);
    String head = graph.commits().get(0).id();
    HttpResponse<String> stale = Http.CLIENT.sendAsync(java.net.http.HttpRequest.newBuilder(u.resolve("/graphs/lib/mutate/if-graph-commit"))
        .header("Authorization", "Bearer " + ALICE).header("Content-Type", "application/json")
        .header("Omnigraph-If-Graph-Commit", genesis).POST(java.net.http.HttpRequest.BodyPublishers.ofString(ADD)).build(),
        HttpResponse.BodyHandlers.ofString()).join();
    JsonNode e = error(stale, 412, "precondition_failed");
    assertThat(e.path("precondition_failure").path("expected").asText()).isEqualTo(genesis);
    assertThat(e.path("precondition_failure").path("actual").asText()).isEqualTo(head);
    error(Http.postJson(u, "/graphs/lib/mutate/if-graph-commit", ALICE, ADD), 400, "bad_request");
    assertThat(graph.commits().get(0).id()).isEqualTo(head);
  }

  @Test
  void aKeyConflictThroughHttpIs409WithItsDetail() {
    URI u = start(b -> { });
    assertThat(Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson",
        GraphContract.DATA).statusCode()).isEqualTo(200);
    JsonNode e = error(Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson",
        GraphContract.DATA), 409, "conflict");
    assertThat(e.path("key_conflict").path("type_name").asText()).isEqualTo("Author");
  }

  @Test
  void malformedHttpIsAJsonErrorNotAnHtmlPage() throws Exception {
    URI u = start(b -> { });
    try (Http.Raw raw = new Http.Raw(u)) {
      raw.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nThis is not a header\r\n\r\n");
      String response = raw.response();
      assertThat(response).startsWith("HTTP/1.1 400");
      assertThat(response).contains("application/json").contains("\"code\":\"bad_request\"").doesNotContain("<html");
    }
  }

  @Test
  void exportStreamsNdjsonAndFiltersByType() {
    URI u = start(b -> { });
    Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson", GraphContract.DATA);
    HttpResponse<String> all = Http.postJson(u, "/graphs/lib/export", ALICE, "{}");
    assertThat(all.statusCode()).isEqualTo(200);
    assertThat(all.headers().firstValue("Content-Type")).hasValue("application/x-ndjson");
    assertThat(all.body().lines()).hasSize(4);
    HttpResponse<String> books = Http.postJson(u, "/graphs/lib/export", ALICE, "{\"type_names\":[\"Book\",\"Wrote\"]}");
    assertThat(books.body().lines()).hasSize(2).allSatisfy(l -> assertThat(l).containsAnyOf("\"Book\"", "\"Wrote\""));
  }

  @Test
  void snapshotAndSchemaUseTheReferenceFieldNames() {
    URI u = start(b -> { });
    Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson", GraphContract.DATA);
    JsonNode snap = json(Http.get(u, "/graphs/lib/snapshot", ALICE));
    assertThat(snap.path("graph_branch").asText()).isEqualTo("main");
    assertThat(snap.path("graph_manifest_version").asLong()).isPositive();
    assertThat(snap.path("internal_schema_version").asInt()).isEqualTo(6);
    assertThat(snap.path("datasets")).hasSize(3);
    JsonNode author = snap.path("datasets").get(0); // schema order: Author, Book, Wrote
    assertThat(author.path("entity_kind").asText()).isEqualTo("node");
    assertThat(author.path("type_name").asText()).isEqualTo("Author");
    assertThat(author.path("entity_count").asLong()).isEqualTo(2);
    assertThat(author.path("published_dataset_version").asLong()).isPositive();
    assertThat(author.path("dataset_path").asText()).isNotBlank();
    assertThat(author.has("native_dataset_branch")).isTrue();
    error(Http.get(u, "/graphs/lib/snapshot?branch=nope", ALICE), 404, "not_found");
    assertThat(json(Http.get(u, "/graphs/lib/schema", ALICE)).path("schema_source").asText()).isEqualTo(GraphContract.SCHEMA);
  }

  /** Declared order that is not alphabetical, for nodes and for edges. */
  static final String ZOO = """
      node Zoo { name: String @key }
      node Ape { name: String @key }
      edge Lives: Ape -> Zoo
      edge Feeds: Zoo -> Ape
      """;

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void everyTableMapAndListIsInSchemaOrder() {
    URI u = start(ZOO, b -> { });
    List<String> order = List.of("node:Zoo", "node:Ape", "edge:Lives", "edge:Feeds");
    HttpResponse<String> loaded = Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson",
        """
        {"type":"Ape","data":{"name":"a"}}
        {"type":"Zoo","data":{"name":"z"}}
        {"edge":"Feeds","from":"z","to":"a"}
        {"edge":"Lives","from":"a","to":"z"}
        """);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    JsonNode load = json(loaded);
    assertThat(load.path("nodes").findValuesAsText("name")).containsExactly("Zoo", "Ape");
    assertThat(load.path("edges").findValuesAsText("name")).containsExactly("Lives", "Feeds");
    assertThat(names(load.path("commit").path("table_versions"))).containsExactlyElementsOf(order);
    String both = """
        query both($z: String, $a: String) {
          insert Ape { name: $a }
          insert Zoo { name: $z }
          insert Feeds { from: $z, to: $a }
          insert Lives { from: $a, to: $z }
        }
        """;
    HttpResponse<String> mutated = Http.postJson(u, "/graphs/lib/mutate", ALICE,
        "{\"query\":" + quote(both) + ",\"params\":{\"z\":\"z2\",\"a\":\"a2\"}}");
    assertThat(mutated.statusCode()).as(mutated.body()).isEqualTo(200);
    JsonNode mutation = json(mutated);
    assertThat(names(mutation.path("tables"))).containsExactlyElementsOf(order);
    assertThat(names(mutation.path("commit").path("table_versions"))).containsExactlyElementsOf(order);
    JsonNode commits = json(Http.get(u, "/graphs/lib/commits", ALICE)).path("commits");
    assertThat(commits).hasSize(3).allSatisfy(c -> assertThat(names(c.path("table_versions"))).containsExactlyElementsOf(order));
    String head = commits.get(0).path("graph_commit_id").asText();
    assertThat(names(json(Http.get(u, "/graphs/lib/commits/" + head, ALICE)).path("table_versions")))
        .containsExactlyElementsOf(order);
    assertThat(json(Http.get(u, "/graphs/lib/snapshot", ALICE)).path("datasets").findValuesAsText("table_key"))
        .containsExactlyElementsOf(order);
  }

  @Test
  void aLoadWithFromForksAMissingBranchFirstAndLoadsIntoIt() {
    URI u = start(b -> { });
    Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson", GraphContract.DATA);
    String mainHead = graph.commits().get(0).id();
    JsonNode created = json(Http.send(u, "POST", "/graphs/lib/load/ndjson?branch=feature/x&from=main", ALICE,
        "application/x-ndjson", "{\"type\":\"Author\",\"data\":{\"handle\":\"fx\"}}\n"));
    assertThat(created.path("branch").asText()).isEqualTo("feature/x");
    assertThat(created.path("branch_created").asBoolean()).isTrue();
    assertThat(created.path("base_branch").asText()).isEqualTo("main");
    assertThat(created.path("total_entities").asLong()).isEqualTo(1);
    assertThat(graph.commits("feature/x").get(0).id()).isEqualTo(created.path("commit").path("graph_commit_id").asText());
    assertThat(graph.commits("feature/x").get(0).parents()).containsExactly(mainHead);
    assertThat(graph.commits().get(0).id()).isEqualTo(mainHead);
    // the branch exists now: 'from' is not used again, and the JSON route takes the branch too
    JsonNode again = json(Http.postJson(u, "/graphs/lib/load", ALICE, "{\"data\":"
        + quote("{\"type\":\"Author\",\"data\":{\"handle\":\"fy\"}}\n") + ",\"branch\":\"feature/x\",\"from\":\"main\"}"));
    assertThat(again.path("branch_created").asBoolean()).isFalse();
    assertThat(again.has("base_branch")).isFalse();
    assertThat(graph.commits("feature/x")).hasSize(graph.commits().size() + 2);
    // without 'from' an unknown branch is 404 and nothing is created; an unknown 'from' is 404 too
    JsonNode e = error(Http.send(u, "POST", "/graphs/lib/load/ndjson?branch=other", ALICE, "application/x-ndjson",
        GraphContract.DATA), 404, "not_found");
    assertThat(e.path("error").asText()).contains("other");
    error(Http.send(u, "POST", "/graphs/lib/load/ndjson?branch=other&from=nope", ALICE, "application/x-ndjson",
        GraphContract.DATA), 404, "not_found");
    assertThat(graph.branches()).extracting(io.omnigraph.api.BranchInfo::name).containsExactly("main", "feature/x");
  }

  @Test
  void mergeAnswersWithTheReferenceFieldsAndConflictsAre409WithMergeConflicts() {
    URI u = start(b -> { });
    Http.send(u, "POST", "/graphs/lib/load/ndjson?mode=append", ALICE, "application/x-ndjson", GraphContract.DATA);
    Http.send(u, "POST", "/graphs/lib/load/ndjson?branch=dev&from=main", ALICE, "application/x-ndjson",
        "{\"type\":\"Author\",\"data\":{\"handle\":\"berg\",\"name\":\"Dev Berg\"}}\n");
    Http.send(u, "POST", "/graphs/lib/load/ndjson", ALICE, "application/x-ndjson",
        "{\"type\":\"Author\",\"data\":{\"handle\":\"berg\",\"name\":\"Main Berg\"}}\n");
    JsonNode conflict = error(Http.postJson(u, "/graphs/lib/branches/merge", ALICE, "{\"source\":\"dev\"}"), 409, "conflict");
    assertThat(conflict.path("merge_conflicts")).singleElement().satisfies(c -> {
      assertThat(c.path("kind").asText()).isEqualTo("divergent_update");
      assertThat(c.path("entity_kind").asText()).isEqualTo("node");
      assertThat(c.path("type_name").asText()).isEqualTo("Author");
      assertThat(c.path("entity_id").asText()).isEqualTo("berg");
      assertThat(c.path("message").asText()).isNotBlank();
    });
    error(Http.postJson(u, "/graphs/lib/branches/merge", ALICE, "{\"source\":\"nope\"}"), 404, "not_found");
    error(Http.postJson(u, "/graphs/lib/branches/merge", ALICE, "{\"target\":\"main\"}"), 400, "bad_request");
    Http.send(u, "POST", "/graphs/lib/load/ndjson?branch=side&from=main", BOB, "application/x-ndjson",
        "{\"type\":\"Author\",\"data\":{\"handle\":\"side\"}}\n");
    JsonNode ok = json(Http.postJson(u, "/graphs/lib/branches/merge", BOB,
        "{\"source\":\"side\",\"target\":\"main\",\"delete_branch\":true}"));
    assertThat(ok.path("source").asText()).isEqualTo("side");
    assertThat(ok.path("target").asText()).isEqualTo("main");
    assertThat(ok.path("outcome").asText()).isEqualTo("fast_forward");
    assertThat(ok.path("actor_id").asText()).isEqualTo("bob");
    assertThat(ok.path("branch_deleted").asBoolean()).isTrue();
    assertThat(ok.path("commit_id").asText()).isEqualTo(graph.commits().get(0).id());
    assertThat(graph.commits().get(0).actor()).isEqualTo("bob");
  }

  @Test
  void aBranchIsDeletedByDeleteOnItsPathOnly() {
    URI u = start(b -> { });
    assertThat(Http.postJson(u, "/graphs/lib/branches", ALICE, "{\"name\":\"team/dev\"}").statusCode()).isEqualTo(200);
    // the one delete route is the reference's; the old POST spelling is gone
    error(Http.postJson(u, "/graphs/lib/branches/delete", ALICE, "{\"name\":\"team/dev\"}"), 405, "method_not_allowed");
    JsonNode d = json(Http.send(u, "DELETE", "/graphs/lib/branches/team/dev", ALICE, null, null));
    assertThat(d.path("name").asText()).isEqualTo("team/dev");
    assertThat(d.path("actor_id").asText()).isEqualTo("alice");
    assertThat(d.path("uri").asText()).isEqualTo(graph.uri());
    assertThat(graph.branches()).extracting(io.omnigraph.api.BranchInfo::name).containsExactly("main");
    error(Http.send(u, "DELETE", "/graphs/lib/branches/team/dev", ALICE, null, null), 404, "not_found");
  }

  @Test
  void theAccessLogHasOneLinePerRequestWithItsIdAndStatus() {
    URI u = start(b -> { });
    HttpResponse<String> r = Http.get(u, "/graphs/lib/nope", ALICE);
    String id = r.headers().firstValue("X-Request-Id").orElseThrow();
    // The line is written when the handler returns, which may be just after the client has the answer.
    for (int i = 0; i < 250 && accessLog.stream().noneMatch(l -> l.contains(id)); i++) {
      sleep(20);
    }
    assertThat(List.copyOf(accessLog)).anySatisfy(line -> assertThat(line).contains(id).contains("alice")
        .contains("\"GET /graphs/lib/nope\"").contains(" 404 "));
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void closeLetsAWriteInFlightFinishThenStops() throws Exception {
    graph = Omnigraph.init(tmp.resolve("g").toString(), GraphContract.SCHEMA);
    resources.add(graph);
    OmnigraphServer server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("lib", graph)
        .tokens(Tokens.of(Map.of("alice", ALICE))).maxInFlightPerActor(1).stopTimeout(Duration.ofSeconds(30))
        .errorLog(l -> { }).start();
    URI u = server.uri();
    try (Http.Raw slow = new Http.Raw(u)) {
      slow.startChunked("POST", "/graphs/lib/load/ndjson?mode=merge", ALICE, "application/x-ndjson");
      slow.chunk("{\"type\":\"Author\",\"data\":{\"handle\":\"inflight\"}}\n");
      // Wait until the load is admitted (/healthz counts it and admits nothing itself): alice's next
      // write is then refused with 429 (cap 1). Probing with alice's writes instead raced: a probe
      // admitted before the load's handler ran made the load itself the one refused.
      for (int i = 0; i < 3000 && json(Http.get(u, "/healthz", null)).path("writes_in_flight").asInt() != 1; i++) {
        sleep(20); // a bound, not a timing: about a minute
      }
      assertThat(Http.postJson(u, "/graphs/lib/mutate", ALICE, "{\"query\":\"x\"}").statusCode()).isEqualTo(429);
      CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
      // Wait until the stop has begun (new requests are refused or answered 503); the write is still
      // in flight, its body not finished.
      for (int i = 0; i < 1500; i++) {
        try {
          if (Http.get(u, "/healthz", null).statusCode() != 200) {
            break;
          }
        } catch (AssertionError refused) { // Http.send wraps the refused connection's IOException
          break;
        }
        sleep(20);
      }
      // A pause longer than the 1 s after which the stop closes idle connections: a connection whose
      // request is in the handler is kept until the stop deadline.
      sleep(2_000);
      slow.chunk("{\"type\":\"Author\",\"data\":{\"handle\":\"inflight2\"}}\n");
      slow.endChunks();
      assertThat(slow.response()).startsWith("HTTP/1.1 200");
      closing.get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
    assertThat(graph.commits()).hasSize(2);
    assertThatThrownBy(() -> new java.net.Socket(u.getHost(), u.getPort()).close()).isInstanceOf(java.io.IOException.class);
  }
}
