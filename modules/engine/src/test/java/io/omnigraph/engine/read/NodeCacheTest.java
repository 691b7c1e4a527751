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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node cache (docs/queries.md, "Node cache"): an entry belongs to one table version and never
 * serves another, the byte budget is never exceeded (least recently used versions out, a table that
 * does not fit is not cached), a version is cached only once it is read again, and the cache gives
 * exactly the rows the Lance scans give.
 */
class NodeCacheTest {
  @TempDir Path dir;
  private final List<Map<String, Integer>> stats = new ArrayList<>();

  @BeforeEach
  void setUp() {
    NodeCache.clear();
    ReadExecutor.onFinish = stats::add;
  }

  @AfterEach
  void reset() {
    System.clearProperty(NodeCache.MODE);
    System.clearProperty(NodeCache.BUDGET);
    NodeCache.clear();
    ReadExecutor.onFinish = s -> { };
  }

  private Map<String, Integer> last() {
    return stats.get(stats.size() - 1);
  }

  @Test
  void anEntryServesOnlyItsOwnTableVersion() {
    System.setProperty(NodeCache.MODE, "always");
    try (Graph g = ReadFixture.create(dir)) {
      String byName = "query q($n: String) { match { $p: Person { name: $n } } return { $p.name, $p.age } }";
      String all = "query q() { match { $p: Person } return { $p.name } order { $p.name } }";
      String before;
      try (QueryResult r = g.query(all, "q", QueryParams.none(), QueryOptions.defaults())) {
        before = r.commitId();
        assertThat(r.jsonRows()).hasSize(5);
      }
      assertThat(last()).containsKey("cache node:Person").doesNotContainKey("scan node:Person");
      assertThat(ReadFixture.rows(g, byName, Map.of("n", "fay"))).isEmpty();
      List<String> first = NodeCache.keys();
      assertThat(first).hasSize(1);

      GraphIo.load(g, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"fay\",\"age\":50}}\n");
      assertThat(ReadFixture.rows(g, byName, Map.of("n", "fay"))).containsExactly("{\"p.name\":\"fay\",\"p.age\":50}");
      assertThat(last()).containsKey("cache node:Person");
      assertThat(ReadFixture.rows(g, all)).hasSize(6);
      assertThat(NodeCache.keys()).as("one entry per version of Person").hasSize(2).containsAll(first);
      // the commit before still reads its own version, from its own entry
      try (QueryResult r = g.query(byName, "q", QueryParams.of(Map.of("n", "fay")), QueryOptions.atCommit(before))) {
        assertThat(r.jsonRows()).isEmpty();
      }
      try (QueryResult r = g.query(all, "q", QueryParams.none(), QueryOptions.atCommit(before))) {
        assertThat(r.jsonRows()).hasSize(5);
      }
      assertThat(last()).containsKey("cache node:Person");
    }
  }

  private static String data(String type, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append("{\"type\":\"").append(type).append("\",\"data\":{\"k\":\"").append(type).append(i).append("\",\"v\":").append(i)
          .append("}}\n");
    }
    return b.toString();
  }

  @Test
  void theByteBudgetIsNeverExceeded() {
    System.setProperty(NodeCache.MODE, "always");
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), "node A { k: String @key  v: I64 }\nnode B { k: String @key  v: I64 }")) {
      GraphIo.load(g, LoadMode.OVERWRITE, data("A", 300) + data("B", 300));
      String a = "query q() { match { $x: A  $x.v >= 290 } return { $x.k } order { $x.k } }";
      String b = "query q() { match { $x: B  $x.v >= 290 } return { $x.k } order { $x.k } }";
      List<String> aRows = ReadFixture.rows(g, a);
      assertThat(aRows).hasSize(10);
      assertThat(last()).containsKey("cache node:A");
      long one = NodeCache.bytes();
      String aKey = NodeCache.keys().get(0);
      assertThat(one).isPositive();

      // room for one table: reading B evicts A
      NodeCache.clear();
      System.setProperty(NodeCache.BUDGET, Long.toString(one + one / 2));
      assertThat(ReadFixture.rows(g, a)).isEqualTo(aRows);
      assertThat(ReadFixture.rows(g, b)).hasSize(10);
      assertThat(last()).containsKey("cache node:B");
      assertThat(NodeCache.bytes()).isLessThanOrEqualTo(one + one / 2);
      assertThat(NodeCache.keys()).hasSize(1).doesNotContain(aKey);

      // room for less than one table: nothing is cached, Lance serves every read
      NodeCache.clear();
      System.setProperty(NodeCache.BUDGET, Long.toString(one / 2));
      assertThat(ReadFixture.rows(g, a)).isEqualTo(aRows);
      assertThat(last()).containsKey("scan node:A").doesNotContainKey("cache node:A");
      assertThat(ReadFixture.rows(g, a)).isEqualTo(aRows);
      assertThat(last()).containsKey("scan node:A");
      assertThat(NodeCache.bytes()).isZero();
      assertThat(NodeCache.size()).isZero();
    }
  }

  @Test
  void aVersionIsCachedOnceItIsReadAgain() {
    try (Graph g = ReadFixture.create(dir)) {
      String q = "query q() { match { $p: Person  $p.age > 30 } return { $p.name } order { $p.name } }";
      assertThat(ReadFixture.rows(g, q)).containsExactly("{\"p.name\":\"ada\"}", "{\"p.name\":\"dee\"}");
      assertThat(last()).containsKey("scan node:Person").doesNotContainKey("cache node:Person");
      assertThat(NodeCache.size()).isZero();
      assertThat(ReadFixture.rows(g, q)).containsExactly("{\"p.name\":\"ada\"}", "{\"p.name\":\"dee\"}");
      assertThat(last()).containsKey("cache node:Person").doesNotContainKey("scan node:Person");
      System.setProperty(NodeCache.MODE, "off");
      assertThat(ReadFixture.rows(g, q)).containsExactly("{\"p.name\":\"ada\"}", "{\"p.name\":\"dee\"}");
      assertThat(last()).containsKey("scan node:Person").doesNotContainKey("cache node:Person");
    }
  }

  @Test
  void theCacheGivesTheRowsLanceGives() {
    List<String> queries = List.of(
        "query q() { match { $p: Person } return { $p.name, $p.age, $p.tags, $p.score } order { $p.name } }",
        "query q() { match { $p: Person { name: \"bob\" } } return { $p.age, $p.tags } }",
        "query q() { match { $p: Person { tags: \"math\" } } return { $p.name } order { $p.name } }",
        "query q() { match { $p: Person  $p.tags contains \"art\" } return { $p.name } }",
        "query q() { match { $p: Person  $p.name starts_with \"d\" } return { $p.name } }",
        "query q() { match { $p: Person  $p.name contains \"e\" } return { $p.name } order { $p.name } }",
        "query q() { match { $p: Person  $p.age != 25 } return { $p.name } order { $p.name } }",
        "query q() { match { $p: Person  $p.score >= 7.25 } return { $p.name } order { $p.name } }",
        "query q() { match { $p: Person  $p.age <= 36 } return { $p.name, $p.age } order { $p.age desc, $p.name } limit 2 }",
        "query q() { match { $p: Person } return { $p.name } order { $p.age } limit 3 }",
        "query q() { match { $p: Person } return { $p.name } limit 2 }",
        "query q() { match { $a: Person  $a knows $b  $b.age > 20 } return { $a.name, $b.name } order { $a.name, $b.name } }",
        "query q() { match { $a: Person { name: \"ada\" }  $a knows{1,3} $b } return { $b.name, $b.age } order { $b.name } }",
        "query q() { match { $p: Person  $p worksAt $c  $c.city = \"paris\" } return { $p.name } order { $p.name } }",
        "query q() { match { $p: Person  not { $p worksAt $_ } } return { $p.name } order { $p.name } }",
        "query q() { match { $p: Person  $p worksAt $c } return { $c.name, count($p) as n } order { n desc, $c.name } }",
        "query q() { match { $p: Person  $p.age > 30  $c: Company  $c.city != \"rome\" } return { $p.name, $c.name } order { $p.name, $c.name } }");
    try (Graph g = ReadFixture.create(dir)) {
      for (String q : queries) {
        System.setProperty(NodeCache.MODE, "off");
        List<String> lance = ReadFixture.rows(g, q);
        assertThat(last().keySet()).noneMatch(k -> k.startsWith("cache "));
        System.setProperty(NodeCache.MODE, "always");
        List<String> cached = ReadFixture.rows(g, q);
        assertThat(last().keySet()).as(q).anyMatch(k -> k.startsWith("cache "));
        assertThat(cached).as(q).isNotEmpty().isEqualTo(lance);
      }
    }
  }
}
