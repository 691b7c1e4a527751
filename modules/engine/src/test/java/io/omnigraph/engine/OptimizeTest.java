package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.OptimizeResult;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graph.optimize on real Lance tables (docs/maintenance.md). */
class OptimizeTest {
  @TempDir Path dir;
  Graph graph;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  LanceGraph lance() {
    return (LanceGraph) graph;
  }

  int fragments(String key) {
    var e = lance().state().table(key).orElseThrow();
    try (var s = lance().tables().reader().openAt(lance().root().lance(e.path()), e.version())) {
      return lance().tables().reader().fragmentCount(s);
    }
  }

  Map<String, Boolean> coverage(String key) {
    var e = lance().state().table(key).orElseThrow();
    try (var s = lance().tables().reader().openAt(lance().root().lance(e.path()), e.version())) {
      Map<String, Boolean> out = new java.util.TreeMap<>();
      lance().tables().reader().indexCoverage(s).forEach((name, uncovered) -> out.put(name, uncovered == 0));
      return out;
    }
  }

  void writes(int from, int to) {
    for (int i = from; i < to; i++) {
      load(graph, LoadMode.MERGE, PeopleGraph.person("p" + i, i)
          + "{\"type\":\"Company\",\"data\":{\"title\":\"c" + i + "\"}}\n"
          + "{\"edge\":\"WorksAt\",\"from\":\"p" + i + "\",\"to\":\"c" + i + "\",\"data\":{\"since\":" + (2000 + i) + "}}\n");
    }
  }

  @Test
  void compactsFoldsAndBuildsInOneCommitWithoutChangingRows() {
    writes(0, 6);
    graph.ensureIndices();
    writes(6, 10);
    assertThat(fragments("node:Person")).isEqualTo(10);
    assertThat(coverage("node:Person")).containsEntry("id_idx", false);
    String before = export(graph);
    int commits = graph.commits().size();
    OptimizeResult r = graph.optimize();
    assertThat(r.commitId()).isNotNull();
    assertThat(graph.commits()).hasSize(commits + 1);
    assertThat(graph.commits().get(0).message()).isEqualTo("optimize");
    assertThat(r.tables()).extracting(OptimizeResult.TableOptimized::table)
        .containsExactlyInAnyOrder("node:Person", "node:Company", "edge:WorksAt");
    assertThat(fragments("node:Person")).isEqualTo(1);
    assertThat(coverage("node:Person")).containsEntry("id_idx", true).containsEntry("name_fts", true);
    assertThat(coverage("edge:WorksAt")).containsEntry("src_idx", true).containsEntry("dst_idx", true);
    assertThat(r.manifestFragmentsAfter()).isLessThan(r.manifestFragmentsBefore());
    assertThat(export(graph)).isEqualTo(before);
    // Nothing left to do: no commit.
    OptimizeResult again = graph.optimize();
    assertThat(again.tables()).as(again.toString()).isEmpty();
    assertThat(again.commitId()).isNull();
    assertThat(graph.commits()).hasSize(commits + 1);
    // Writes after optimize land and read back.
    writes(10, 12);
    assertThat(export(graph).lines().filter(l -> l.contains("\"Person\"")).count()).isEqualTo(12);
  }

  @Test
  void aFoldTouchesOnlyTheBtreeIndexesItNamesNeverAnUncoveredInvertedIndex() {
    writes(0, 6);
    graph.ensureIndices();
    writes(6, 10);
    assertThat(coverage("node:Person")).containsEntry("id_idx", false).containsEntry("name_fts", false);
    var e = lance().state().table("node:Person").orElseThrow();
    var location = lance().root().lance(e.path());
    long head = lance().tables().writer().optimizeIndices(location, "node:Person", e.version(), List.of("id_idx"));
    assertThat(head).isEqualTo(e.version() + 1);
    try (var s = lance().tables().reader().openLatest(location)) {
      // Lance's segment merge of an inverted index panics (docs/maintenance.md, "optimize"): the
      // fold must leave it to the rebuild.
      assertThat(lance().tables().reader().indexCoverage(s)).containsEntry("id_idx", 0L)
          .hasEntrySatisfying("name_fts", uncovered -> assertThat(uncovered).isPositive());
    }
  }

  @Test
  void everyCommitStillReadsAfterOptimizeAndCleanup() {
    writes(0, 5);
    String early = graph.commits().get(2).id();
    long earlyPeople;
    try (GraphSnapshot s = lance().snapshots().resolve(GraphRef.commit(early))) {
      earlyPeople = s.entry("node:Person").rowCount();
      assertThat(lance().tables().reader().countRows(s.table("node:Person"))).isEqualTo(earlyPeople);
    }
    graph.optimize();
    writes(5, 7);
    graph.optimize();
    String uri = graph.uri();
    graph.close();
    Omnigraph.cleanup(uri, OpenOptions.defaults());
    graph = Omnigraph.open(uri, OpenOptions.defaults());
    for (var c : graph.commits()) {
      try (GraphSnapshot s = lance().snapshots().resolve(GraphRef.commit(c.id()))) {
        for (String key : s.manifest().tables().keySet()) {
          assertThat(lance().tables().reader().countRows(s.table(key))).as(c.id() + " " + key)
              .isEqualTo(s.entry(key).rowCount());
        }
      }
    }
    try (GraphSnapshot s = lance().snapshots().resolve(GraphRef.commit(early))) {
      assertThat(lance().tables().reader().countRows(s.table("node:Person"))).isEqualTo(earlyPeople);
    }
  }
}
