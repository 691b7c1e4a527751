package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.api.SchemaApplyOptions;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries run by text keep their plans (docs/queries.md, "Plan caching"): the same text runs on
 * its kept prepared query's plans as a prepared query does; a schema change checks and plans the
 * text anew; the cache is bounded by entries and text characters, least recently used first out;
 * several threads running one text each get their own answer.
 */
class QueryTextCacheTest {
  static final String BY_NAME = "query q($n: String) { match { $p: Person { name: $n } } return { $p.name, $p.age } }";

  @TempDir Path dir;
  private final List<Map<String, Integer>> stats = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void setUp() {
    QueryTextCache.SHARED.clear();
    ReadExecutor.onFinish = stats::add;
  }

  @AfterEach
  void reset() {
    ReadExecutor.onFinish = ReadExecutor.NO_SEAM;
    System.clearProperty(QueryTextCache.ENTRIES);
    System.clearProperty(QueryTextCache.CHARS);
    QueryTextCache.SHARED.clear();
  }

  private static List<String> run(Graph g, String gq, Map<String, ?> params) {
    try (QueryResult r = g.query(gq, "q", QueryParams.of(new HashMap<>(params)), QueryOptions.defaults())) {
      return r.jsonRows();
    }
  }

  private long count(String what) {
    synchronized (stats) {
      return stats.stream().filter(s -> s.containsKey(what)).count();
    }
  }

  @Test
  void aTextRunAgainRunsOnTheKeptPlans() {
    try (Graph g = ReadFixture.create(dir)) {
      assertThat(run(g, BY_NAME, Map.of("n", "ada"))).containsExactly("{\"p.name\":\"ada\",\"p.age\":36}");
      assertThat(run(g, BY_NAME, Map.of("n", "bob"))).containsExactly("{\"p.name\":\"bob\",\"p.age\":25}");
      assertThat(run(g, BY_NAME, Map.of("n", "zed"))).isEmpty();
      assertThat(count("plan built")).isEqualTo(1);
      assertThat(count("plan reused")).isEqualTo(2);
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(1);
      assertThat(QueryTextCache.SHARED.hits()).isEqualTo(2);
      // another name of the same text is another query: its own entry
      String two = BY_NAME + "\nquery r() { match { $c: Company } return { count($c) as n } }";
      assertThat(run(g, two, Map.of("n", "eve"))).containsExactly("{\"p.name\":\"eve\",\"p.age\":25}");
      try (QueryResult r = g.query(two, "r", QueryParams.none(), QueryOptions.defaults())) {
        assertThat(r.jsonRows()).containsExactly("{\"n\":3}");
      }
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(3);
      // a type error is not kept: every run reports it
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> run(g, "query q() { match { $p: Person } return { $p.nope } }", Map.of()))
            .isInstanceOf(InvalidInputException.class);
      }
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(3);
      // off: every run plans
      System.setProperty(QueryTextCache.ENTRIES, "0");
      stats.clear();
      run(g, BY_NAME, Map.of("n", "ada"));
      run(g, BY_NAME, Map.of("n", "ada"));
      assertThat(count("plan built")).isEqualTo(2);
    }
  }

  @Test
  void aSchemaChangeChecksAndPlansTheTextAnew() {
    try (Graph g = ReadFixture.create(dir)) {
      String nick = "query q() { match { $p: Person { name: \"ada\" } } return { $p.nick } }";
      assertThatThrownBy(() -> run(g, nick, Map.of())).isInstanceOf(InvalidInputException.class);
      run(g, BY_NAME, Map.of("n", "ada"));
      run(g, BY_NAME, Map.of("n", "ada"));
      assertThat(count("plan reused")).isEqualTo(1);
      g.applySchema(ReadFixture.SCHEMA.replace("score: F64?", "score: F64?\n  nick: String?"), SchemaApplyOptions.defaults());
      stats.clear();
      assertThat(run(g, BY_NAME, Map.of("n", "ada"))).containsExactly("{\"p.name\":\"ada\",\"p.age\":36}");
      assertThat(run(g, BY_NAME, Map.of("n", "bob"))).containsExactly("{\"p.name\":\"bob\",\"p.age\":25}");
      // checked against the new schema: planned once, then its plan reused (an entry of the old
      // schema would be re-checked at every run and never give its plan back)
      assertThat(count("plan built")).isEqualTo(1);
      assertThat(count("plan reused")).isEqualTo(1);
      assertThat(run(g, nick, Map.of())).containsExactly("{\"p.nick\":null}");
    }
  }

  @Test
  void theCacheIsBoundedByEntriesAndTextLeastRecentlyUsedFirstOut() {
    try (Graph g = ReadFixture.create(dir)) {
      System.setProperty(QueryTextCache.ENTRIES, "3");
      List<String> texts = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        texts.add("query q() { match { $p: Person  $p.age > " + (20 + i) + " } return { count($p) as n } }");
      }
      for (String t : texts) {
        run(g, t, Map.of());
      }
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(3);
      long misses = QueryTextCache.SHARED.misses();
      run(g, texts.get(4), Map.of()); // kept
      run(g, texts.get(2), Map.of()); // kept (now most recently used)
      assertThat(QueryTextCache.SHARED.misses()).isEqualTo(misses);
      run(g, texts.get(0), Map.of()); // evicted: prepared again, evicts texts[3], the least recently used
      assertThat(QueryTextCache.SHARED.misses()).isEqualTo(misses + 1);
      run(g, texts.get(2), Map.of());
      assertThat(QueryTextCache.SHARED.misses()).isEqualTo(misses + 1);
      run(g, texts.get(3), Map.of());
      assertThat(QueryTextCache.SHARED.misses()).isEqualTo(misses + 2);
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(3);
      // by characters: at most 4 x 80 chars; a text longer than a quarter of the bound is not kept
      System.setProperty(QueryTextCache.ENTRIES, "100");
      System.setProperty(QueryTextCache.CHARS, Integer.toString(4 * 80));
      QueryTextCache.SHARED.clear();
      for (String t : texts) {
        assertThat(t.length()).isLessThanOrEqualTo(80);
        run(g, t, Map.of());
      }
      assertThat(QueryTextCache.SHARED.chars()).isLessThanOrEqualTo(4 * 80);
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(4);
      String longer = texts.get(0) + " ".repeat(10);
      run(g, longer, Map.of());
      run(g, longer, Map.of());
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(4);
      assertThat(QueryTextCache.SHARED.hits()).isZero();
    }
  }

  /**
   * Several threads run one text at once, each with its own values: every answer is its values'
   * answer, the text is kept once, and the executions run on its kept plans.
   */
  @Test
  void severalThreadsRunningOneTextEachGetTheirOwnAnswer() throws Exception {
    try (Graph g = ReadFixture.create(dir)) {
      String gq = """
          query q($n: String, $a: I32) { match { $p: Person { name: $n }  $p.age >= $a  $p.age > $p.score }
            return { $p.name, $p.age } }""";
      String[] names = {"ada", "bob", "cy", "dee", "eve"};
      Map<String, List<String>> expected = new HashMap<>();
      for (String n : names) {
        for (int a : new int[] {0, 30}) {
          expected.put(n + "/" + a, PlanCacheTest.run(g, g.prepareQuery(gq, "q"), Map.of("n", n, "a", a)));
        }
      }
      assertThat(expected.get("bob/0")).containsExactly("{\"p.name\":\"bob\",\"p.age\":25}");
      assertThat(expected.get("bob/30")).isEmpty();
      stats.clear();
      int threads = 4;
      int runs = 200;
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
              assertThat(run(g, gq, Map.of("n", n, "a", a))).as("thread %d run %d: %s/%d", seed, i, n, a)
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
      assertThat(QueryTextCache.SHARED.size()).isEqualTo(1);
      assertThat(QueryTextCache.SHARED.hits() + QueryTextCache.SHARED.misses()).isEqualTo((long) threads * runs);
      assertThat(QueryTextCache.SHARED.misses()).isBetween(1L, (long) threads);
      assertThat(count("plan reused")).as("executions on kept plans").isGreaterThan(threads * runs / 2);
    }
  }
}
