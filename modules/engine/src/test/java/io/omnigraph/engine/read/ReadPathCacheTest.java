package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read path's per-handle caches never hide a commit, and the plans that use them: main's head
 * is re-checked on every query (a commit made through another handle is seen by the next query of
 * this one), an equality on a single String {@code @key} reads the row by {@code id}, and the
 * traversal chooser takes the CSR where an indexed expansion would scan the edge table.
 */
class ReadPathCacheTest {
  @TempDir Path dir;

  @AfterEach
  void reset() {
    ReadExecutor.onFinish = s -> { };
  }

  @Test
  void aQueryOnMainSeesACommitMadeThroughAnotherHandle() {
    String root;
    try (Graph g = ReadFixture.create(dir)) {
      root = dir.resolve("g").toString();
    }
    String count = "query q() { match { $p: Person } return { count($p) as n } }";
    try (Graph reader = Omnigraph.open(root); Graph writer = Omnigraph.open(root)) {
      assertThat(ReadFixture.rows(reader, count)).containsExactly("{\"n\":5}");
      GraphIo.load(writer, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"fay\"}}\n");
      assertThat(ReadFixture.rows(reader, count)).containsExactly("{\"n\":6}");
      // and the commit before stays readable through the same handle
      GraphIo.load(writer, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"gus\"}}\n");
      assertThat(ReadFixture.rows(reader, count)).containsExactly("{\"n\":7}");
    }
  }

  @Test
  void anEqualityOnASingleStringKeyIsPushedAsAnIdEquality() {
    try (Graph g = ReadFixture.create(dir)) {
      String q = "query q($n: String) { match { $p: Person { name: $n } } return { $p.age } }";
      assertThat(g.explainQuery(q, "q", QueryParams.of(Map.of("n", "bob")), QueryOptions.defaults()))
          .contains("NodeScan $p: Person [columns [id, age]; pushed to Lance: (`id` = 'bob')]");
      assertThat(ReadFixture.rows(g, q, Map.of("n", "bob"))).containsExactly("{\"p.age\":25}");
      assertThat(ReadFixture.rows(g, q, Map.of("n", "nobody"))).isEmpty();
      // a non-key property stays a property filter
      String byAge = "query q() { match { $p: Person { age: 25 } } return { $p.name } order { $p.name } }";
      assertThat(g.explainQuery(byAge, "q", QueryParams.none(), QueryOptions.defaults()))
          .contains("pushed to Lance: (`age` = CAST(25 AS INT))");
      assertThat(ReadFixture.rows(g, byAge)).containsExactly("{\"p.name\":\"bob\"}", "{\"p.name\":\"eve\"}");
    }
  }

  @Test
  void withoutAnEndpointIndexEvenOneSourceExpandsThroughTheCsr() {
    try (Graph g = ReadFixture.create(dir)) {
      List<Map<String, Integer>> stats = new ArrayList<>();
      ReadExecutor.onFinish = stats::add;
      assertThat(ReadFixture.rows(g, "query q() { match { $a: Person { name: \"ada\" }  $a knows $b }"
          + " return { $b.name } order { $b.name } }")).containsExactly("{\"b.name\":\"ada\"}", "{\"b.name\":\"bob\"}");
      assertThat(stats.get(0)).containsKey("expand csr Knows").doesNotContainKey("expand indexed Knows");
    }
  }

  @Test
  void withEndpointIndexesOneSourceProbesTheIndexUntilTheVersionIsHot() {
    try (Graph g = ReadFixture.create(dir)) {
      g.ensureIndices();
      Adjacency.clearCache();
      List<Map<String, Integer>> stats = new ArrayList<>();
      ReadExecutor.onFinish = stats::add;
      assertThat(ReadFixture.rows(g, "query q() { match { $a: Person { name: \"ada\" }  $a knows $b }"
          + " return { $b.name } order { $b.name } }")).containsExactly("{\"b.name\":\"ada\"}", "{\"b.name\":\"bob\"}");
      assertThat(stats.get(0)).containsKey("expand indexed Knows").doesNotContainKey("expand csr Knows");
      // the second expansion of the same version (2 + edges / 20,000 = 2 uses) builds its CSR
      assertThat(ReadFixture.rows(g, "query q() { match { $a: Person { name: \"ada\" }  $a knows $b }"
          + " return { $b.name } order { $b.name } }")).containsExactly("{\"b.name\":\"ada\"}", "{\"b.name\":\"bob\"}");
      assertThat(stats.get(1)).containsKey("expand csr Knows").doesNotContainKey("expand indexed Knows");
    }
  }

  @Test
  void withEndpointIndexesAnExpansionOfAWholeLargeTableUsesTheCsr() {
    StringBuilder b = new StringBuilder();
    int people = ReadExecutor.INDEXED_MAX_FRONTIER + 200;
    for (int i = 0; i < people; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\"}}\n");
    }
    b.append("{\"type\":\"Company\",\"data\":{\"name\":\"c\"}}\n");
    for (int i = 0; i < people; i += 3) {
      b.append("{\"edge\":\"WorksAt\",\"from\":\"p").append(i).append("\",\"to\":\"c\",\"data\":{}}\n");
    }
    try (Graph g = Omnigraph.init(dir.resolve("big").toString(), ReadFixture.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, b.toString());
      g.ensureIndices();
      Adjacency.clearCache();
      List<Map<String, Integer>> stats = new ArrayList<>();
      ReadExecutor.onFinish = stats::add;
      assertThat(ReadFixture.rows(g, "query q() { match { $p: Person  not { $p worksAt $_ } } return { count($p) as n } }"))
          .containsExactly("{\"n\":" + (people - (people + 2) / 3) + "}");
      assertThat(ReadFixture.rows(g, "query q() { match { $p: Person  $p worksAt $c } return { $c.name, count($p) as n } }"))
          .containsExactly("{\"c.name\":\"c\",\"n\":" + (people + 2) / 3 + "}");
      assertThat(stats).allSatisfy(s -> assertThat(s).containsKey("expand csr WorksAt").doesNotContainKey("expand indexed WorksAt"));
    }
  }
}
