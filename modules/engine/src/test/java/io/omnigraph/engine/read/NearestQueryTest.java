package io.omnigraph.engine.read;

import static io.omnigraph.engine.read.ReadFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code order { nearest(...) } limit k}: exact k-NN after the match filters, typed error for a String query. */
class NearestQueryTest {
  static final String SCHEMA = "node Doc { name: String @key  kind: String  vec: Vector(2)? }";
  static final String DATA = """
      {"type":"Doc","data":{"name":"a","kind":"x","vec":[0.0,0.0]}}
      {"type":"Doc","data":{"name":"b","kind":"y","vec":[1.0,0.0]}}
      {"type":"Doc","data":{"name":"c","kind":"x","vec":[0.0,2.0]}}
      {"type":"Doc","data":{"name":"d","kind":"x","vec":[3.0,3.0]}}
      {"type":"Doc","data":{"name":"e","kind":"x"}}
      """;

  @TempDir Path dir;

  @Test
  void nearestIsExactTopKAfterTheMatchFilters() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      // b is the nearest document overall, but the prefilter (kind: "x") removes it before top-k
      assertThat(rows(g, """
          query q() { match { $d: Doc { kind: "x" } } return { $d.name } order { nearest($d.vec, [0.9, 0.1]) } limit 2 }
          """)).containsExactly("{\"d.name\":\"a\"}", "{\"d.name\":\"c\"}");
      assertThat(rows(g, """
          query q($q: Vector(2)) { match { $d: Doc } return { $d.name } order { nearest($d.vec, $q) } limit 9 }
          """, Map.of("q", List.of(3.0, 3.0)))).containsExactly("{\"d.name\":\"d\"}", "{\"d.name\":\"c\"}",
          "{\"d.name\":\"b\"}", "{\"d.name\":\"a\"}");
      assertThatThrownBy(() -> rows(g, """
          query q($t: String) { match { $d: Doc } return { $d.name } order { nearest($d.vec, $t) } limit 2 }
          """, Map.of("t", "hello")))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("embedding provider")
          .satisfies(e -> assertThat(((ErrorDetail.Validation) ((InvalidInputException) e).detail().orElseThrow()).rule())
              .isEqualTo("embedding_unavailable"));
    }
  }

  /**
   * With a vector index (ensure-indices, at least 256 rows) a single-scan nearest runs through
   * Lance's vector search with the filter as prefilter; the rows equal the exact scan's.
   */
  @Test
  void theVectorIndexGivesTheExactRows() {
    StringBuilder data = new StringBuilder();
    java.util.Random rnd = new java.util.Random(7);
    for (int i = 0; i < 400; i++) {
      data.append("{\"type\":\"Doc\",\"data\":{\"name\":\"n").append(i).append("\",\"kind\":\"").append(i % 3 == 0 ? "x" : "y")
          .append("\",\"vec\":[").append(rnd.nextInt(1000) / 10.0).append(',').append(rnd.nextInt(1000) / 10.0).append("]}}\n");
    }
    String gq = """
        query q($q: Vector(2)) { match { $d: Doc { kind: "x" } } return { $d.name } order { nearest($d.vec, $q) } limit 7 }
        """;
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), "node Doc { name: String @key  kind: String  vec: Vector(2)? @index }")) {
      GraphIo.load(g, LoadMode.OVERWRITE, data.toString());
      java.util.List<java.util.Map<String, Integer>> stats = new java.util.ArrayList<>();
      ReadExecutor.onFinish = stats::add;
      try {
        List<String> exact = rows(g, gq, Map.of("q", List.of(50.0, 50.0)));
        assertThat(stats.get(0)).doesNotContainKey("nearest index vec");
        assertThat(exact).hasSize(7);
        g.ensureIndices();
        assertThat(g.explainQuery(gq, "q", io.omnigraph.api.QueryParams.of(Map.of("q", List.of(50.0, 50.0))),
            io.omnigraph.api.QueryOptions.defaults())).contains("nearest: Lance vector index vec_vec");
        List<String> indexed = rows(g, gq, Map.of("q", List.of(50.0, 50.0)));
        assertThat(stats.get(1)).containsKey("nearest index vec").doesNotContainKey("scan node:Doc");
        assertThat(indexed).isEqualTo(exact);
        for (int i = 0; i < 20; i++) {
          List<Double> q = List.of(rnd.nextInt(1000) / 10.0, rnd.nextInt(1000) / 10.0);
          List<String> viaIndex = rows(g, gq, Map.of("q", q));
          System.setProperty("omnigraph.nearest", "exact");
          try {
            assertThat(viaIndex).as("query " + q).isEqualTo(rows(g, gq, Map.of("q", q)));
          } finally {
            System.clearProperty("omnigraph.nearest");
          }
        }
      } finally {
        ReadExecutor.onFinish = s -> { };
      }
    }
  }
}
