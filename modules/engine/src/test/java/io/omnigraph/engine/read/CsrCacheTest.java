package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
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
 * The process-wide CSR cache (docs/queries.md, "Traversal strategies"): an adjacency serves only
 * the edge table version it was built from (a write gets a new one, the commit before keeps its
 * own), and the cache holds at most {@value Adjacency#MAX_TABLES} table versions and at most
 * {@link Adjacency#maxEdges()} edges in all, least recently used out; an edge table over that
 * bound is expanded by index probes.
 */
class CsrCacheTest {
  static final String ADA = "query q() { match { $a: Person { name: \"ada\" }  $a knows $b } return { $b.name } order { $b.name } }";

  @TempDir Path dir;
  final List<Map<String, Integer>> stats = new ArrayList<>();

  @BeforeEach
  void setUp() {
    Adjacency.clearCache();
    ReadExecutor.onFinish = stats::add;
  }

  @AfterEach
  void reset() {
    System.clearProperty("omnigraph.traversal");
    System.clearProperty(Adjacency.MAX_EDGES);
    ReadExecutor.onFinish = s -> { };
    Adjacency.clearCache();
  }

  @Test
  void aWriteGetsANewAdjacencyAndTheCommitBeforeKeepsItsOwn() {
    System.setProperty("omnigraph.traversal", "csr");
    try (Graph g = ReadFixture.create(dir)) {
      String before = commitOf(g, ADA, QueryOptions.defaults(), "ada", "bob");
      assertThat(Adjacency.cachedTables()).isEqualTo(1);
      GraphIo.load(g, LoadMode.APPEND, "{\"edge\":\"Knows\",\"from\":\"ada\",\"to\":\"eve\",\"data\":{}}\n");
      commitOf(g, ADA, QueryOptions.defaults(), "ada", "bob", "eve");
      assertThat(Adjacency.cachedTables()).as("one adjacency per Knows version").isEqualTo(2);
      commitOf(g, ADA, QueryOptions.atCommit(before), "ada", "bob");
      commitOf(g, ADA, QueryOptions.defaults(), "ada", "bob", "eve");
      assertThat(stats).allSatisfy(s -> assertThat(s).containsKey("expand csr Knows").doesNotContainKey("expand indexed Knows"));
    }
  }

  @Test
  void theCacheHoldsAtMostEightVersionsAndAtMostTheEdgeBound() {
    System.setProperty("omnigraph.traversal", "csr");
    try (Graph g = ReadFixture.create(dir)) {
      // Knows versions with 6, 7, ..., 15 edges: ada knows p0 .. p8 in turn (parallel edges to bob, eve, cy, dee)
      List<String> commits = new ArrayList<>();
      List<List<String>> answers = new ArrayList<>();
      List<String> names = new ArrayList<>(List.of("ada", "bob"));
      String[] more = {"cy", "dee", "eve"};
      for (int v = 0; v < Adjacency.MAX_TABLES + 2; v++) {
        commits.add(commitOf(g, ADA, QueryOptions.defaults(), names.toArray(new String[0])));
        answers.add(List.copyOf(names));
        assertThat(Adjacency.cachedTables()).isLessThanOrEqualTo(Adjacency.MAX_TABLES);
        assertThat(Adjacency.cachedEdges()).isEqualTo(edgesCached(v));
        String to = more[v % more.length];
        GraphIo.load(g, LoadMode.APPEND, "{\"edge\":\"Knows\",\"from\":\"ada\",\"to\":\"" + to + "\",\"data\":{}}\n");
        if (!names.contains(to)) {
          names.add(to);
          names.sort(null);
        }
      }
      assertThat(Adjacency.cachedTables()).as("the least recently used versions left").isEqualTo(Adjacency.MAX_TABLES);

      // at most 14 edges in all: two versions of 6 + 7 fit, a third makes room by evicting the oldest
      System.setProperty(Adjacency.MAX_EDGES, "14");
      Adjacency.clearCache();
      for (int v = 0; v < commits.size(); v++) {
        long held = Adjacency.cachedEdges();
        commitOf(g, ADA, QueryOptions.atCommit(commits.get(v)), answers.get(v).toArray(new String[0]));
        assertThat(Adjacency.cachedEdges()).isLessThanOrEqualTo(14);
        if (6 + v <= 14) {
          assertThat(Adjacency.cachedEdges()).as("the version just expanded is kept").isGreaterThanOrEqualTo(6 + v);
        } else {
          assertThat(Adjacency.cachedEdges()).as("a version over the bound is not kept").isEqualTo(held);
        }
        assertThat(Adjacency.cachedTables()).isBetween(1, 2);
      }
      // a version larger than the bound alone serves its expansion and is never kept
      System.setProperty(Adjacency.MAX_EDGES, "10");
      Adjacency.clearCache();
      commitOf(g, ADA, QueryOptions.atCommit(commits.get(commits.size() - 1)), answers.get(commits.size() - 1).toArray(new String[0]));
      assertThat(Adjacency.cachedTables()).isZero();
      assertThat(Adjacency.cachedEdges()).isZero();
    }
  }

  @Test
  void anEdgeTableOverTheBoundIsExpandedByIndexProbes() {
    System.setProperty(Adjacency.MAX_EDGES, "5"); // the fixture's Knows has 6 edges and no endpoint index
    try (Graph g = ReadFixture.create(dir)) {
      commitOf(g, ADA, QueryOptions.defaults(), "ada", "bob");
      assertThat(stats.get(0)).containsKey("expand indexed Knows").doesNotContainKey("expand csr Knows");
      assertThat(Adjacency.cachedTables()).isZero();
      System.clearProperty(Adjacency.MAX_EDGES);
      commitOf(g, ADA, QueryOptions.defaults(), "ada", "bob");
      assertThat(stats.get(1)).containsKey("expand csr Knows").doesNotContainKey("expand indexed Knows");
    }
  }

  /** Edges held after expanding versions 0..v (6 + v edges each), all kept while at most eight. */
  private static long edgesCached(int v) {
    long n = 0;
    for (int i = Math.max(0, v - Adjacency.MAX_TABLES + 1); i <= v; i++) {
      n += 6 + i;
    }
    return n;
  }

  /** Runs {@code q} at {@code at}, checks the names in order, returns the commit it read. */
  private static String commitOf(Graph g, String q, QueryOptions at, String... names) {
    try (QueryResult r = g.query(q, "q", QueryParams.none(), at)) {
      List<String> expected = new ArrayList<>();
      for (String n : names) {
        expected.add("{\"b.name\":\"" + n + "\"}");
      }
      assertThat(r.jsonRows()).containsExactlyElementsOf(expected);
      return r.commitId();
    }
  }
}
