package io.omnigraph.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.client.HttpGraph;
import io.omnigraph.server.OmnigraphServer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same query answers with the same JSON embedded and over HTTP (docs/server.md, "Routes"): the
 * rows of the {@code query} route are the engine's {@code QueryResult.jsonRows()} text unchanged, and
 * {@code HttpGraph}'s result renders {@code jsonRows()} and {@code toJson()} exactly as the embedded
 * result does — for every value type, including large and non-finite floats, 64-bit integers beyond
 * 2^53, dates, instants, lists, vectors and nulls.
 */
class QueryJsonParityTest {
  static final String SCHEMA = """
      node Thing {
        name: String @key
        flag: Bool?
        i32: I32?
        i64: I64?
        u64: U64?
        f32: F32?
        f64: F64?
        day: Date?
        at: DateTime?
        tags: [String]?
        nums: [I64]?
        vec: Vector(3)?
      }
      """;

  static final String DATA = """
      {"type":"Thing","data":{"name":"a","flag":true,"i32":-7,"i64":9007199254740993,"u64":18446744073709551615,"f32":0.1,"f64":1e20,"day":"2024-02-29","at":"2024-02-29T12:34:56.789Z","tags":["x","y"],"nums":[1,-2],"vec":[0.5,-1.25,3]}}
      {"type":"Thing","data":{"name":"b","f32":3.4028235e38,"f64":"NaN","i64":-9223372036854775808}}
      {"type":"Thing","data":{"name":"c","f64":"-Infinity","f32":1.0E-7}}
      {"type":"Thing","data":{"name":"d","f64":0.30000000000000004,"f32":16777217}}
      {"type":"Thing","data":{"name":"e"}}
      """;

  static final String QUERIES = """
      query all() {
        match { $t: Thing }
        return { $t.name, $t.flag, $t.i32, $t.i64, $t.u64, $t.f32, $t.f64, $t.day, $t.at, $t.tags, $t.nums, $t.vec }
        order { $t.name asc }
      }
      query stats() {
        match { $t: Thing }
        return { count($t) as n, sum($t.f64) as s, avg($t.i32) as a, min($t.name) as first, max($t.i64) as last, min($t.f32) as low }
      }
      """;

  @TempDir static Path tmp;
  static Graph embedded;
  static OmnigraphServer server;
  static Graph remote;

  @BeforeAll
  static void start() {
    embedded = Omnigraph.init(tmp.resolve("g").toString(), SCHEMA);
    embedded.load(LoadMode.APPEND, new ByteArrayInputStream(DATA.getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults());
    server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("g", embedded).unauthenticated(true).start();
    remote = HttpGraph.connect(server.uri(), "g", null);
  }

  @AfterAll
  static void stop() {
    remote.close();
    server.close();
    embedded.close();
  }

  private static void same(String name) throws Exception {
    try (QueryResult local = embedded.query(QUERIES, name, QueryParams.of(Map.of()), QueryOptions.defaults());
        QueryResult http = remote.query(QUERIES, name, QueryParams.of(Map.of()), QueryOptions.defaults())) {
      assertThat(http.columns()).isEqualTo(local.columns());
      assertThat(http.jsonRows()).isEqualTo(local.jsonRows());
      assertThat(http.toJson()).isEqualTo(local.toJson());
      assertThat(http.commitId()).isEqualTo(local.commitId());
      for (int i = 0; i < local.rows().size(); i++) {
        assertThat(http.rows().get(i).toJson()).isEqualTo(local.rows().get(i).toJson());
      }
      // The route's own rows: the engine's row texts, unchanged.
      HttpResponse<String> r = Http.postJson(server.uri(), "/graphs/g/query", null,
          "{\"query\":" + new ObjectMapper().writeValueAsString(QUERIES) + ",\"name\":\"" + name + "\"}");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).contains("\"rows\":[" + String.join(",", local.jsonRows()) + "]");
    }
  }

  @Test
  void everyValueTypeHasTheSameJsonEmbeddedAndOverHttp() throws Exception {
    same("all");
  }

  @Test
  void aggregatesHaveTheSameJsonEmbeddedAndOverHttp() throws Exception {
    same("stats");
  }
}
