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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A counting aggregate right after the root scan (docs/queries.md, "Traversal strategies"): the
 * root's cached rows reach the one-hop CSR expansion as row numbers (no row or entity per source),
 * the pairs are counted per destination in a table sized by the destinations, and the answer is
 * exactly that of the row path; an execution's memory does not grow with the sources or the CSR.
 */
class AggregateRowNumbersTest {
  /** Only counts and a max of the destination: fed as pair counts. */
  static final String PER_CITY = CsrRowIndexTest.PER_CITY;
  static final String UNORDERED = CsrRowIndexTest.UNORDERED;
  /** A pushed filter on the root: the passing rows' numbers only. */
  static final String OLDER = "query q() { match { $p: Person  $p.age >= 30  $p worksAt $c }"
      + " return { $c.name, count($p) as n } order { $c.name } }";

  @TempDir Path dir;
  private final List<Map<String, Integer>> stats = new ArrayList<>();

  @BeforeEach
  void setUp() {
    NodeCache.clear();
    Adjacency.clearCache();
    System.setProperty(NodeCache.MODE, "always");
    System.setProperty("omnigraph.traversal", "csr");
    ReadExecutor.onFinish = stats::add;
  }

  @AfterEach
  void reset() {
    System.clearProperty(NodeCache.MODE);
    System.clearProperty("omnigraph.traversal");
    NodeCache.clear();
    Adjacency.clearCache();
    ReadExecutor.onFinish = s -> { };
  }

  private Map<String, Integer> last() {
    return stats.get(stats.size() - 1);
  }

  @Test
  void countingAggregatesReadTheRootByRowNumberAndAnswerAsTheRowPath() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), CsrRowIndexTest.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, CsrRowIndexTest.DATA);
      List<String> perCity = List.of(
          "{\"c.city\":null,\"n\":2,\"names\":0,\"last\":\"d\"}",
          "{\"c.city\":\"paris\",\"n\":4,\"names\":4,\"last\":\"b\"}",
          "{\"c.city\":\"rome\",\"n\":2,\"names\":2,\"last\":\"c\"}");
      List<String> unordered = List.of(
          "{\"c.name\":\"a\",\"n\":3}", "{\"c.name\":\"c\",\"n\":2}", "{\"c.name\":\"b\",\"n\":1}", "{\"c.name\":\"d\",\"n\":2}");
      // p2(30) a, p3(40) b, p4(50) c, p5(60) d; p6 and p7 (70, 80) have no employer
      List<String> older = List.of("{\"c.name\":\"a\",\"n\":1}", "{\"c.name\":\"b\",\"n\":1}", "{\"c.name\":\"c\",\"n\":1}",
          "{\"c.name\":\"d\",\"n\":1}");
      for (int pass = 0; pass < 2; pass++) {
        assertThat(ReadFixture.rows(g, PER_CITY)).containsExactlyElementsOf(perCity);
        assertThat(last()).containsEntry("root rows by number", 9).containsEntry("pairs counted WorksAt", 4)
            .containsEntry("pair count slots", 16);
        assertThat(ReadFixture.rows(g, UNORDERED)).containsExactlyElementsOf(unordered);
        assertThat(last()).containsEntry("root rows by number", 9);
        assertThat(ReadFixture.rows(g, OLDER)).containsExactlyElementsOf(older);
        assertThat(last()).containsEntry("root rows by number", 6).containsEntry("pairs counted WorksAt", 4);
      }
      assertThat(ReadFixture.rows(g, CsrRowIndexTest.BY_CITY)).hasSize(3);
      assertThat(last()).as("avg of $p needs the rows").doesNotContainKey("root rows by number");
      // the row path (no node cache: Lance scans, rows and entities) gives the same rows in the same order
      System.setProperty(NodeCache.MODE, "off");
      assertThat(ReadFixture.rows(g, PER_CITY)).containsExactlyElementsOf(perCity);
      assertThat(last()).doesNotContainKey("root rows by number").containsEntry("pairs counted WorksAt", 4);
      assertThat(ReadFixture.rows(g, UNORDERED)).containsExactlyElementsOf(unordered);
      assertThat(ReadFixture.rows(g, OLDER)).containsExactlyElementsOf(older);
      // the indexed strategy: rows are made from the numbers and expanded by edge scans
      System.setProperty(NodeCache.MODE, "always");
      System.setProperty("omnigraph.traversal", "indexed");
      assertThat(ReadFixture.rows(g, UNORDERED)).containsExactlyElementsOf(unordered);
      assertThat(last()).containsKey("expand indexed WorksAt").doesNotContainKey("pairs counted WorksAt");
      assertThat(ReadFixture.rows(g, OLDER)).containsExactlyElementsOf(older);
    }
  }

  /**
   * Persons each working at one of three companies: an execution of the counting aggregate
   * allocates far less than one row per person (the row path made a row, its slots and an entity
   * per person, about 90 bytes, and a count per CSR node, 8 bytes), and its count table holds the
   * three destinations, not the CSR's nodes. Bytes, not time: the allocation counter of this thread.
   */
  @Test
  void anExecutionsMemoryFollowsTheGroupsNotTheSourcesOrTheCsr() {
    int persons = Integer.getInteger("omnigraph.test.aggregatePersons", 20_000);
    StringBuilder data = new StringBuilder();
    for (String c : List.of("a", "b", "c")) {
      data.append("{\"type\":\"Company\",\"data\":{\"name\":\"").append(c).append("\",\"city\":\"x\"}}\n");
    }
    for (int i = 0; i < persons; i++) {
      data.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":").append(i % 90).append("}}\n");
    }
    for (int i = 0; i < persons; i++) {
      data.append("{\"edge\":\"WorksAt\",\"from\":\"p").append(i).append("\",\"to\":\"").append("abc".charAt(i % 3))
          .append("\",\"data\":{}}\n");
    }
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), CsrRowIndexTest.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, data.toString());
      PreparedQuery q = g.prepareQuery(UNORDERED, "q");
      List<String> expected = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        expected.add("{\"c.name\":\"" + "abc".charAt(k) + "\",\"n\":" + ((persons - k + 2) / 3) + "}");
      }
      for (int i = 0; i < 5; i++) {
        assertThat(run(g, q)).containsExactlyElementsOf(expected); // warm: node cache, CSR, row index, plans
      }
      long least = Long.MAX_VALUE;
      for (int i = 0; i < 5; i++) {
        long before = allocatedBytes();
        List<String> rows = run(g, q);
        least = Math.min(least, allocatedBytes() - before);
        assertThat(rows).containsExactlyElementsOf(expected);
      }
      System.out.println("least bytes allocated by one execution over " + persons + " sources: " + least);
      assertThat(least).as("bytes allocated by one execution over %d sources", persons).isLessThan(4L * persons);
      assertThat(last()).containsEntry("root rows by number", persons).containsEntry("pair count slots", 16);
    }
  }

  /** This thread's allocated bytes (the JDK's thread MXBean, by reflection: the engine module does not read java.management). */
  private static long allocatedBytes() {
    try {
      Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
      return (Long) Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes").invoke(bean);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("no allocation counter in this JVM", e);
    }
  }

  private static List<String> run(Graph g, PreparedQuery q) {
    try (QueryResult r = g.query(q, QueryParams.none(), QueryOptions.defaults())) {
      return r.jsonRows();
    }
  }
}
