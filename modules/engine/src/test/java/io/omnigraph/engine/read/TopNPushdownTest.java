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
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code order … limit n} over one fully pushed scan is sorted and limited by Lance
 * (docs/queries.md, "Order and limit"); its rows are exactly the first n rows of the same query
 * without a limit (which the executor sorts), on data with nulls, ties and non-ASCII names.
 */
class TopNPushdownTest {
  static final String SCHEMA = """
      node P {
        k: String @key
        name: String?
        age: I32?
        born: Date?
        score: F64?
      }
      edge L: P -> P
      """;
  @TempDir Path dir;

  @AfterEach
  void reset() {
    System.clearProperty(NodeCache.MODE);
    ReadExecutor.onFinish = s -> { };
  }

  @Test
  void lanceTopNRowsAreTheFirstRowsOfTheExecutorsOrder() {
    Random r = new Random(20261204L);
    String[] names = {"ana", "Ana", "émile", "zoë", "\uD83D\uDE00 smile", "\uFFFD", "b", "ab", "", "Z"};
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      b.append("{\"type\":\"P\",\"data\":{\"k\":\"k").append(i).append('"');
      if (r.nextInt(6) > 0) {
        b.append(",\"name\":\"").append(names[r.nextInt(names.length)]).append('"');
      }
      if (r.nextInt(5) > 0) {
        b.append(",\"age\":").append(r.nextInt(20) - 5);
      }
      if (r.nextInt(4) > 0) {
        b.append(",\"born\":\"19").append(50 + r.nextInt(40)).append("-0").append(1 + r.nextInt(9)).append("-1").append(r.nextInt(9))
            .append('"');
      }
      b.append("}}\n");
    }
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, b.toString());
      List<String> orders = List.of("$p.age desc, $p.name", "$p.name, $p.age desc", "$p.age", "$p.born desc",
          "$p.name desc, $p.born", "$p");
      for (String order : orders) {
        for (String filter : List.of("", "$p.age >= 3")) {
          String q = "query q() { match { $p: P " + filter + " } return { $p.k, $p.name, $p.age, $p.born } order { " + order
              + " }%s }";
          List<String> all = ReadFixture.rows(g, String.format(q, ""));
          for (int n : new int[] {1, 7, 50}) {
            for (String cache : List.of("off", "always")) {
              // off: Lance sorts and limits; always: the node cache serves the scan and the heap orders
              System.setProperty(NodeCache.MODE, cache);
              List<Map<String, Integer>> stats = new ArrayList<>();
              ReadExecutor.onFinish = stats::add;
              List<String> top = ReadFixture.rows(g, String.format(q, " limit " + n));
              assertThat(top).as(order + " " + filter + " limit " + n + " cache " + cache)
                  .isEqualTo(all.subList(0, Math.min(n, all.size())));
              assertThat(stats.get(0)).as(order).containsKey(cache.equals("off") ? "top-" + n + " by Lance" : "cache node:P");
              ReadExecutor.onFinish = s -> { };
            }
            System.clearProperty(NodeCache.MODE);
          }
        }
      }
      String pushed = "(the scan sorted and limited by Lance)";
      assertThat(explain(g, "query q() { match { $p: P } return { $p.k } order { $p.age desc } limit 3 }")).contains(pushed);
      // not pushed: no limit, a traversal, an aggregate, a Float key
      assertThat(explain(g, "query q() { match { $p: P } return { $p.k } order { $p.age desc } }")).doesNotContain(pushed);
      assertThat(explain(g, "query q() { match { $p: P  $p l $q } return { $p.k } order { $p.age desc } limit 3 }"))
          .doesNotContain(pushed);
      assertThat(explain(g, "query q() { match { $p: P } return { $p.name, count($p) as n } order { $p.name } limit 3 }"))
          .doesNotContain(pushed);
      assertThat(explain(g, "query q() { match { $p: P } return { $p.k } order { $p.score desc } limit 3 }"))
          .doesNotContain(pushed);
    }
  }

  private static String explain(Graph g, String q) {
    return g.explainQuery(q, "q", QueryParams.none(), QueryOptions.defaults());
  }
}
