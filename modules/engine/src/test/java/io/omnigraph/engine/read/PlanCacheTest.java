package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan caching (docs/queries.md, "Plan caching"): a prepared read query is planned once and its
 * plan rebound to each execution's parameter values; a value the plan cannot push exactly gets a
 * plan of its own; searches, nearest and rrf read the execution's values; concurrent executions of
 * one prepared query each run their own plan instance.
 */
class PlanCacheTest {
  @TempDir Path dir;

  private final List<Map<String, Integer>> stats = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void restore() {
    ReadExecutor.onFinish = s -> { };
  }

  private void recordStats() {
    ReadExecutor.onFinish = stats::add;
  }

  static List<String> run(Graph g, PreparedQuery q, Map<String, ?> params) {
    Map<String, Object> p = new HashMap<>(params);
    try (QueryResult r = g.query(q, QueryParams.of(p), QueryOptions.defaults())) {
      return r.jsonRows();
    }
  }

  private long count(String what) {
    return stats.stream().filter(s -> s.containsKey(what)).count();
  }

  @Test
  void aPreparedQueryIsPlannedOnceAndRebindsItsPushedKeyFilterEachExecution() {
    try (Graph g = ReadFixture.create(dir)) {
      PreparedQuery q = g.prepareQuery("""
          query q($n: String) { match { $p: Person { name: $n } } return { $p.name, $p.age } }""", "q");
      recordStats();
      assertThat(run(g, q, Map.of("n", "ada"))).containsExactly("{\"p.name\":\"ada\",\"p.age\":36}");
      assertThat(run(g, q, Map.of("n", "bob"))).containsExactly("{\"p.name\":\"bob\",\"p.age\":25}");
      assertThat(run(g, q, Map.of("n", "zed"))).isEmpty();
      assertThat(run(g, q, Map.of("n", "cy"))).containsExactly("{\"p.name\":\"cy\",\"p.age\":null}");
      assertThat(count("plan built")).isEqualTo(1);
      assertThat(count("plan reused")).isEqualTo(3);
      // the rebound filter is still the key pushed as an id equality
      assertThat(g.explainQuery("query q($n: String) { match { $p: Person { name: $n } } return { $p.name } }", "q",
          QueryParams.of(Map.of("n", "eve")), QueryOptions.defaults())).contains("pushed to Lance: (`id` = 'eve')");
    }
  }

  @Test
  void aValueThePlanCannotPushExactlyGetsAPlanOfItsOwn() {
    try (Graph g = ReadFixture.create(dir)) {
      // age is I32: 25.0 is pushed as age = 25; 25.5 has no exact I32 value, so it is compared in memory
      PreparedQuery q = g.prepareQuery("""
          query q($a: F64?) { match { $p: Person  $p.age = $a } return { $p.name } order { $p.name } }""", "q");
      recordStats();
      assertThat(run(g, q, Map.of("a", 25.0))).containsExactly("{\"p.name\":\"bob\"}", "{\"p.name\":\"eve\"}");
      assertThat(run(g, q, Map.of("a", 25.5))).isEmpty();
      assertThat(count("plan built")).isEqualTo(2);
      Map<String, Object> none = new HashMap<>();
      none.put("a", null);
      assertThat(run(g, q, none)).isEmpty(); // nulls never match
      assertThat(run(g, q, Map.of("a", 36.0))).containsExactly("{\"p.name\":\"ada\"}");
      assertThat(run(g, q, Map.of("a", 36.5))).isEmpty();
      assertThat(run(g, q, Map.of("a", 41.0))).containsExactly("{\"p.name\":\"dee\"}");
    }
  }

  @Test
  void nowIsReadPerExecution() throws InterruptedException {
    try (Graph g = ReadFixture.create(dir)) {
      PreparedQuery q = g.prepareQuery("query q() { match { $p: Person { name: \"ada\" } } return { now() as t } }", "q");
      String first = run(g, q, Map.of()).get(0);
      Thread.sleep(5);
      String second = run(g, q, Map.of()).get(0);
      assertThat(second).isNotEqualTo(first);
    }
  }

  @Test
  void searchesNearestAndRrfReadTheExecutionsValues() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SearchQueryTest.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, SearchQueryTest.DATA);
      String search = "query q($q: String?) { match { $d: Doc  search($d.plain, $q) } return { $d.slug } order { $d.slug } }";
      String nearest = "query q($v: Vector(2)) { match { $d: Doc } return { $d.slug } order { nearest($d.vec, $v) } limit 2 }";
      String rrf = "query q($v: Vector(2), $q: String) { match { $d: Doc } return { $d.slug }"
          + " order { rrf(nearest($d.vec, $v), bm25($d.body, $q)) } limit 3 }";
      List<Map<String, Object>> searchValues = new ArrayList<>(List.of(Map.of("q", "fox"), Map.of("q", "dog"),
          Map.of("q", "quick")));
      Map<String, Object> none = new HashMap<>();
      none.put("q", null);
      searchValues.add(none);
      List<Map<String, Object>> nearestValues = List.of(Map.of("v", List.of(0.0, 0.0)), Map.of("v", List.of(5.0, 5.0)),
          Map.of("v", List.of(0.0, 3.0)));
      List<Map<String, Object>> rrfValues = List.of(Map.of("v", List.of(0.0, 0.0), "q", "fox"),
          Map.of("v", List.of(5.0, 5.0), "q", "dog"), Map.of("v", List.of(1.0, 1.0), "q", "quick"));
      for (int pass = 0; pass < 2; pass++) { // without, then with the inverted index
        sameAsFreshPlans(g, search, searchValues);
        sameAsFreshPlans(g, nearest, nearestValues);
        sameAsFreshPlans(g, rrf, rrfValues);
        g.ensureIndices();
      }
    }
  }

  /** Each execution of one prepared query answers as a query prepared for that execution alone does, and answers differ. */
  private void sameAsFreshPlans(Graph g, String gq, List<Map<String, Object>> values) {
    PreparedQuery q = g.prepareQuery(gq, "q");
    List<List<String>> answers = new ArrayList<>();
    for (Map<String, Object> v : values) {
      List<String> fresh = run(g, g.prepareQuery(gq, "q"), v);
      assertThat(run(g, q, v)).as("%s with %s", gq, v).isEqualTo(fresh);
      answers.add(fresh);
    }
    assertThat(answers.stream().distinct().count()).as("the values give different answers").isEqualTo(answers.size());
  }

  /**
   * Several threads run one prepared query at once, each with its own values: every answer is its
   * own values' answer (a plan instance shared between executions would mix them: the pushed key
   * filter, the parameter cells and the residual filter's scratch slots are per execution).
   */
  @Test
  void concurrentExecutionsOfOnePreparedQueryEachGetTheirOwnAnswer() throws Exception {
    try (Graph g = ReadFixture.create(dir)) {
      // name: pushed (key as id); age >= $a: pushed; age > score: a residual filter (two columns of $p)
      String gq = """
          query q($n: String, $a: I32) { match { $p: Person { name: $n }  $p.age >= $a  $p.age > $p.score }
            return { $p.name, $p.age } }""";
      PreparedQuery q = g.prepareQuery(gq, "q");
      Map<String, List<String>> expected = new HashMap<>();
      String[] names = {"ada", "bob", "cy", "dee", "eve"};
      for (String n : names) {
        for (int a : new int[] {0, 30}) {
          expected.put(n + "/" + a, run(g, g.prepareQuery(gq, "q"), Map.of("n", n, "a", a)));
        }
      }
      assertThat(expected.get("bob/0")).containsExactly("{\"p.name\":\"bob\",\"p.age\":25}");
      assertThat(expected.get("bob/30")).isEmpty();
      assertThat(expected.get("dee/0")).isEmpty(); // score null
      int threads = 4;
      int runs = 300;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int seed = t;
          done.add(pool.submit(() -> {
            int checked = 0;
            for (int i = 0; i < runs; i++) {
              String n = names[(seed + i) % names.length];
              int a = (i + seed) % 3 == 0 ? 30 : 0;
              assertThat(run(g, q, Map.of("n", n, "a", a))).as("thread %d run %d: %s/%d", seed, i, n, a)
                  .isEqualTo(expected.get(n + "/" + a));
              checked++;
            }
            return checked;
          }));
        }
        for (Future<Integer> f : done) {
          assertThat(f.get()).isEqualTo(runs);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(((GraphReads.Prepared) q).plans().idle()).isBetween(1, PlanPool.SLOTS);
    }
  }
}
