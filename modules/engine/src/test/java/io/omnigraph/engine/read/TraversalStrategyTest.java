package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two traversal strategies (indexed edge scans, in-memory CSR) give identical rows on a random
 * graph with self-loops and parallel edges, and a correlated {@code not { }} reads each edge once
 * however many outer rows it tests (linear in the edges touched, not outer rows × edges).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TraversalStrategyTest {
  static final int PEOPLE = 2500;
  static final long SEED = 20261203L;
  @TempDir static Path dir;
  Graph g;
  int worksAt;

  @BeforeAll
  void setUp() {
    g = Omnigraph.init(dir.resolve("g").toString(), ReadFixture.SCHEMA);
    Random r = new Random(SEED);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < PEOPLE; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":").append(r.nextInt(80)).append("}}\n");
    }
    for (int i = 0; i < 40; i++) {
      b.append("{\"type\":\"Company\",\"data\":{\"name\":\"c").append(i).append("\"}}\n");
    }
    for (int i = 0; i < PEOPLE * 2; i++) {
      int a = r.nextInt(PEOPLE);
      int z = r.nextInt(10) == 0 ? a : r.nextInt(PEOPLE); // self-loops
      b.append("{\"edge\":\"Knows\",\"from\":\"p").append(a).append("\",\"to\":\"p").append(z).append("\",\"data\":{}}\n");
    }
    for (int i = 0; i < PEOPLE; i += 2) {
      worksAt++;
      b.append("{\"edge\":\"WorksAt\",\"from\":\"p").append(i).append("\",\"to\":\"c").append(r.nextInt(40)).append("\",\"data\":{}}\n");
    }
    GraphIo.load(g, LoadMode.OVERWRITE, b.toString());
  }

  @AfterAll
  void tearDown() {
    g.close();
  }

  @AfterEach
  void reset() {
    System.clearProperty("omnigraph.traversal");
    ReadExecutor.onFinish = s -> { };
  }

  List<String> run(String strategy, String gq, Map<String, ?> params) {
    System.setProperty("omnigraph.traversal", strategy);
    Adjacency.clearCache();
    try (QueryResult r = g.query(gq, "q", QueryParams.of(params), QueryOptions.defaults())) {
      return r.jsonRows();
    }
  }

  @Test
  void indexedAndCsrGiveIdenticalRows() {
    List<String> queries = List.of(
        "query q() { match { $a: Person { name: \"p7\" }  $a knows{1,3} $b } return { $b.name } order { $b.name } }",
        "query q() { match { $a: Person  $a.age < 5  $a knows{2,4} $b } return { $a.name, $b.name } order { $a.name, $b.name } }",
        "query q() { match { $a: Person  $a.age < 10  $a <knows>{1,2} $b } return { $a.name, $b.name } order { $a.name, $b.name } }",
        "query q() { match { $a: Person  $a.age > 70  $b knows $a } return { $a.name, $b.name } order { $a.name, $b.name } }",
        "query q() { match { $a: Person  $a knows $b  $b knows $a } return { $a.name, $b.name } order { $a.name, $b.name } }",
        "query q() { match { $a: Person  not { $a knows $_ } } return { count($a) as n } }",
        "query q() { match { $a: Person  $a worksAt $c } return { $c.name, count($a) as n } order { n desc, $c.name } }");
    for (String q : queries) {
      List<String> indexed = run("indexed", q, Map.of());
      List<String> csr = run("csr", q, Map.of());
      assertThat(indexed).as(q).isNotEmpty().isEqualTo(csr);
    }
  }

  @Test
  void negationReadsEachEdgeOnceNotOncePerOuterRow() {
    AtomicReference<Map<String, Integer>> stats = new AtomicReference<>();
    ReadExecutor.onFinish = stats::set;
    List<String> rows = run("indexed", "query q() { match { $p: Person  not { $p worksAt $_ } } return { count($p) as n } }",
        Map.of());
    assertThat(rows).containsExactly("{\"n\":" + (PEOPLE - worksAt) + "}");
    assertThat(stats.get().get("edge rows read")).isEqualTo(worksAt);
    int pieces = (PEOPLE + ReadExecutor.PIECE - 1) / ReadExecutor.PIECE;
    assertThat(stats.get().get("expand indexed WorksAt")).isLessThanOrEqualTo(pieces * 2);
  }

  @Test
  void explainNamesScansPushdownAndStrategies() {
    String plan = g.explainQuery("query q($n: String) { match { $a: Person { name: $n }  $a.age > 3  $a knows{1,2} $b"
        + "  not { $b worksAt $_ } } return { $b.name } order { $b.name } limit 5 }", "q",
        QueryParams.of(Map.of("n", "p1")), QueryOptions.defaults());
    assertThat(plan).contains("NodeScan $a: Person [columns [id]; pushed to Lance: ((`id` = 'p1') AND (`age` > CAST(3 AS INT)))]",
        "Expand $a -[Knows OUT {1,2}]-> $b: Person", "AntiJoin on [$b]", "Expand $b -[WorksAt OUT {1,1}]->",
        "Order [$b.name asc] tie-break [a.id, b.id] (top-5 heap)", "Limit 5");
  }

  static List<String> unused() {
    return new ArrayList<>();
  }
}
