package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
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
 * Whole-table expansions from node cache rows (docs/queries.md, "Traversal strategies"): the
 * sources' CSR indexes come from a row → index map built once per (node table version, edge table
 * version), an aggregate finds a row's group by its key entity, and an aggregate of the
 * destination only is fed per destination with its pair count; all give exactly the rows (in the
 * same order) of the id-hashing row path, and a new version of the node table (rows renumbered)
 * gets its own map.
 */
class CsrRowIndexTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      node Company {
        name: String @key
        city: String?
      }
      edge WorksAt: Person -> Company
      """;

  /**
   * p0(10)..p7(80) and q (null age); companies a, b (both paris), c (rome), d (no city); p0 works at
   * a and c, p1 and p2 at a, p3 at b, p4 at c, p5 at d, q at d; p6 and p7 have no employer.
   */
  static final String DATA = """
      {"type":"Person","data":{"name":"p0","age":10}}
      {"type":"Person","data":{"name":"p1","age":20}}
      {"type":"Person","data":{"name":"p2","age":30}}
      {"type":"Person","data":{"name":"p3","age":40}}
      {"type":"Person","data":{"name":"p4","age":50}}
      {"type":"Person","data":{"name":"p5","age":60}}
      {"type":"Person","data":{"name":"p6","age":70}}
      {"type":"Person","data":{"name":"p7","age":80}}
      {"type":"Person","data":{"name":"q"}}
      {"type":"Company","data":{"name":"a","city":"paris"}}
      {"type":"Company","data":{"name":"b","city":"paris"}}
      {"type":"Company","data":{"name":"c","city":"rome"}}
      {"type":"Company","data":{"name":"d"}}
      {"edge":"WorksAt","from":"p0","to":"a","data":{}}
      {"edge":"WorksAt","from":"p0","to":"c","data":{}}
      {"edge":"WorksAt","from":"p1","to":"a","data":{}}
      {"edge":"WorksAt","from":"p2","to":"a","data":{}}
      {"edge":"WorksAt","from":"p3","to":"b","data":{}}
      {"edge":"WorksAt","from":"p4","to":"c","data":{}}
      {"edge":"WorksAt","from":"p5","to":"d","data":{}}
      {"edge":"WorksAt","from":"q","to":"d","data":{}}
      """;

  static final String BY_COMPANY = "query q() { match { $p: Person  $p worksAt $c }"
      + " return { $c.name as company, count($p) as n, sum($p.age) as s, min($p.name) as first } order { n desc, company } limit 3 }";
  static final String BY_CITY = "query q() { match { $p: Person  $p worksAt $c }"
      + " return { $c.city, count($p) as n, max($p.age) as oldest, avg($p.age) as mean } order { $c.city } }";
  static final String BY_BOTH = "query q() { match { $p: Person  $p worksAt $c }"
      + " return { $c.city, $p.age, count($c) as n } order { $c.city, $p.age } }";
  /** Only counts and a max of the destination: fed as pair counts. */
  static final String PER_CITY = "query q() { match { $p: Person  $p worksAt $c }"
      + " return { $c.city, count($p) as n, count($c.city) as names, max($c.name) as last } order { $c.city } }";
  /** Without an order: groups in the order of their first row (p0's companies a, c first, then b, d). */
  static final String UNORDERED = "query q() { match { $p: Person  $p worksAt $c } return { $c.name, count($p) as n } }";
  static final String TOTAL = "query q() { match { $p: Person  $p worksAt $c } return { count($p) as n, sum($p.age) as s } }";
  static final String JOBLESS = "query q() { match { $p: Person  not { $p worksAt $_ } } return { $p.name, $p.age } order { $p.name } }";

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

  private void assertBefore(Graph g) {
    assertThat(ReadFixture.rows(g, BY_COMPANY)).containsExactly(
        "{\"company\":\"a\",\"n\":3,\"s\":60.0,\"first\":\"p0\"}",
        "{\"company\":\"c\",\"n\":2,\"s\":60.0,\"first\":\"p0\"}",
        "{\"company\":\"d\",\"n\":2,\"s\":60.0,\"first\":\"p5\"}");
    assertThat(last()).containsKey("csr row index WorksAt").containsKey("cache node:Person").doesNotContainKey("pairs counted WorksAt");
    assertThat(ReadFixture.rows(g, BY_CITY)).containsExactly(
        "{\"c.city\":null,\"n\":2,\"oldest\":60,\"mean\":60.0}",
        "{\"c.city\":\"paris\",\"n\":4,\"oldest\":40,\"mean\":25.0}",
        "{\"c.city\":\"rome\",\"n\":2,\"oldest\":50,\"mean\":30.0}");
    assertThat(last()).as("sum, avg or a key of $p: the rows, not pair counts").doesNotContainKey("pairs counted WorksAt");
    assertThat(ReadFixture.rows(g, PER_CITY)).containsExactly(
        "{\"c.city\":null,\"n\":2,\"names\":0,\"last\":\"d\"}",
        "{\"c.city\":\"paris\",\"n\":4,\"names\":4,\"last\":\"b\"}",
        "{\"c.city\":\"rome\",\"n\":2,\"names\":2,\"last\":\"c\"}");
    assertThat(last()).containsEntry("pairs counted WorksAt", 4);
    assertThat(ReadFixture.rows(g, UNORDERED)).containsExactly(
        "{\"c.name\":\"a\",\"n\":3}", "{\"c.name\":\"c\",\"n\":2}", "{\"c.name\":\"b\",\"n\":1}", "{\"c.name\":\"d\",\"n\":2}");
    assertThat(last()).containsEntry("pairs counted WorksAt", 4);
    assertThat(ReadFixture.rows(g, BY_BOTH)).containsExactly(
        "{\"c.city\":null,\"p.age\":null,\"n\":1}",
        "{\"c.city\":null,\"p.age\":60,\"n\":1}",
        "{\"c.city\":\"paris\",\"p.age\":10,\"n\":1}",
        "{\"c.city\":\"paris\",\"p.age\":20,\"n\":1}",
        "{\"c.city\":\"paris\",\"p.age\":30,\"n\":1}",
        "{\"c.city\":\"paris\",\"p.age\":40,\"n\":1}",
        "{\"c.city\":\"rome\",\"p.age\":10,\"n\":1}",
        "{\"c.city\":\"rome\",\"p.age\":50,\"n\":1}");
    assertThat(ReadFixture.rows(g, TOTAL)).containsExactly("{\"n\":8,\"s\":220.0}");
    assertThat(ReadFixture.rows(g, JOBLESS)).containsExactly("{\"p.name\":\"p6\",\"p.age\":70}", "{\"p.name\":\"p7\",\"p.age\":80}");
    assertThat(last()).containsKey("csr row index WorksAt");
  }

  @Test
  void wholeTableExpansionsFromCachedRowsGiveTheRowsOfTheIdPath() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      assertBefore(g);
      assertBefore(g); // again, on the maps built by the first run
      System.setProperty(NodeCache.MODE, "off"); // the id-hashing path: the same rows, no row index
      Adjacency.clearCache();
      assertThat(ReadFixture.rows(g, BY_COMPANY)).containsExactly(
          "{\"company\":\"a\",\"n\":3,\"s\":60.0,\"first\":\"p0\"}",
          "{\"company\":\"c\",\"n\":2,\"s\":60.0,\"first\":\"p0\"}",
          "{\"company\":\"d\",\"n\":2,\"s\":60.0,\"first\":\"p5\"}");
      assertThat(last()).doesNotContainKey("csr row index WorksAt").doesNotContainKey("cache node:Person");
      assertThat(ReadFixture.rows(g, JOBLESS)).containsExactly("{\"p.name\":\"p6\",\"p.age\":70}", "{\"p.name\":\"p7\",\"p.age\":80}");
      System.setProperty("omnigraph.traversal", "indexed"); // edge scans: rows, never pair counts; the same groups in the same order
      assertThat(ReadFixture.rows(g, PER_CITY)).containsExactly(
          "{\"c.city\":null,\"n\":2,\"names\":0,\"last\":\"d\"}",
          "{\"c.city\":\"paris\",\"n\":4,\"names\":4,\"last\":\"b\"}",
          "{\"c.city\":\"rome\",\"n\":2,\"names\":2,\"last\":\"c\"}");
      assertThat(last()).containsKey("expand indexed WorksAt").doesNotContainKey("pairs counted WorksAt");
      assertThat(ReadFixture.rows(g, UNORDERED)).containsExactly(
          "{\"c.name\":\"a\",\"n\":3}", "{\"c.name\":\"c\",\"n\":2}", "{\"c.name\":\"b\",\"n\":1}", "{\"c.name\":\"d\",\"n\":2}");
    }
  }

  @Test
  void aNewVersionOfTheNodeTableGetsItsOwnRowIndex() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      assertBefore(g);
      // only Person changes: p0 and p3 are rewritten (their rows move), the WorksAt version and its CSR stay
      GraphIo.load(g, LoadMode.MERGE, """
          {"type":"Person","data":{"name":"p0","age":11}}
          {"type":"Person","data":{"name":"p3","age":41}}
          """);
      assertThat(ReadFixture.rows(g, BY_COMPANY)).containsExactly(
          "{\"company\":\"a\",\"n\":3,\"s\":61.0,\"first\":\"p0\"}",
          "{\"company\":\"c\",\"n\":2,\"s\":61.0,\"first\":\"p0\"}",
          "{\"company\":\"d\",\"n\":2,\"s\":60.0,\"first\":\"p5\"}");
      assertThat(last()).containsKey("csr row index WorksAt");
      assertThat(ReadFixture.rows(g, BY_CITY)).containsExactly(
          "{\"c.city\":null,\"n\":2,\"oldest\":60,\"mean\":60.0}",
          "{\"c.city\":\"paris\",\"n\":4,\"oldest\":41,\"mean\":25.5}",
          "{\"c.city\":\"rome\",\"n\":2,\"oldest\":50,\"mean\":30.5}");
      assertThat(ReadFixture.rows(g, JOBLESS)).containsExactly("{\"p.name\":\"p6\",\"p.age\":70}", "{\"p.name\":\"p7\",\"p.age\":80}");
    }
  }
}
