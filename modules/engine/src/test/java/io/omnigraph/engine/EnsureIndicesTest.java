package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.EnsureIndicesResult;
import io.omnigraph.api.Graph;
import io.omnigraph.api.IndexStatus;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.table.LanceFilter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/** Graph.ensureIndices on real Lance tables (docs/indexes.md). */
class EnsureIndicesTest {
  static final String SCHEMA = """
      node Doc {
        slug: String @key
        body: String? @index
        stars: I32? @index
        kind: enum(note, post)? @index
        tags: [String]?
        emb: Vector(4)? @index
        plain: I64?
      }
      node Empty {
        name: String @key
      }
      edge Cites: Doc -> Doc {
        weight: F64? @index
      }
      """;

  @TempDir Path dir;
  Graph graph;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  static String docs(int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < to; i++) {
      b.append("{\"type\":\"Doc\",\"data\":{\"slug\":\"d").append(i).append("\",\"body\":\"text number ").append(i)
          .append("\",\"stars\":").append(i % 7).append(",\"kind\":\"note\",\"emb\":[").append(i).append(",1,2,3]}}\n");
    }
    return b.toString();
  }

  static Map<String, String> states(EnsureIndicesResult r) {
    return r.indexes().stream().collect(Collectors.toMap(i -> i.table() + "." + i.name(), IndexStatus::state));
  }

  @Test
  void buildsWhatTheSchemaCallsForInOneCommitAndNeverRebuilds() {
    load(graph, LoadMode.MERGE, docs(0, 10) + "{\"edge\":\"Cites\",\"from\":\"d1\",\"to\":\"d2\",\"data\":{\"weight\":0.5}}\n");
    String before = export(graph);
    int commits = graph.commits().size();
    EnsureIndicesResult r = graph.ensureIndices();
    assertThat(r.commitId()).isNotNull();
    assertThat(graph.commits()).hasSize(commits + 1);
    assertThat(graph.commits().get(0).id()).isEqualTo(r.commitId());
    assertThat(states(r)).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
        Map.entry("node:Doc.id_idx", "created"),
        Map.entry("node:Doc.slug_fts", "created"),
        Map.entry("node:Doc.body_fts", "created"),
        Map.entry("node:Doc.stars_idx", "created"),
        Map.entry("node:Doc.kind_idx", "created"),
        Map.entry("node:Doc.emb_vec", "deferred"),
        Map.entry("node:Empty.id_idx", "deferred"),
        Map.entry("node:Empty.name_fts", "deferred"),
        Map.entry("edge:Cites.id_idx", "created"),
        Map.entry("edge:Cites.src_idx", "created"),
        Map.entry("edge:Cites.dst_idx", "created"),
        Map.entry("edge:Cites.weight_idx", "created")));
    // A list gets no index; an unannotated property none either.
    assertThat(r.indexes()).noneMatch(i -> i.column().equals("tags") || i.column().equals("plain"));
    assertThat(r.indexes()).filteredOn(i -> i.state().equals("deferred")).allMatch(i -> i.reason() != null);
    assertThat(indexNames("node:Doc")).contains("id_idx", "slug_fts", "body_fts", "stars_idx", "kind_idx");
    assertThat(indexNames("edge:Cites")).contains("id_idx", "src_idx", "dst_idx", "weight_idx");
    assertThat(export(graph)).isEqualTo(before);

    // Existence-gated: a second run finds everything present and commits nothing.
    EnsureIndicesResult again = graph.ensureIndices();
    assertThat(again.commitId()).isNull();
    assertThat(again.created()).isZero();
    assertThat(states(again)).containsEntry("node:Doc.id_idx", "present").containsEntry("edge:Cites.src_idx", "present");
    assertThat(graph.commits()).hasSize(commits + 1);
  }

  @Test
  void keyIndicesOnlyBuildsIdSrcAndDstAndLeavesThePropertyIndexesToEnsureIndices() {
    load(graph, LoadMode.MERGE, docs(0, 10) + "{\"edge\":\"Cites\",\"from\":\"d1\",\"to\":\"d2\",\"data\":{\"weight\":0.5}}\n");
    String before = export(graph);
    int commits = graph.commits().size();
    EnsureIndicesResult r = graph.ensureKeyIndices();
    assertThat(r.commitId()).isNotNull();
    assertThat(graph.commits()).hasSize(commits + 1);
    assertThat(states(r)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "node:Doc.id_idx", "created",
        "node:Empty.id_idx", "deferred",
        "edge:Cites.id_idx", "created",
        "edge:Cites.src_idx", "created",
        "edge:Cites.dst_idx", "created"));
    assertThat(indexNames("node:Doc")).containsExactly("id_idx");
    assertThat(indexNames("edge:Cites")).containsExactlyInAnyOrder("id_idx", "src_idx", "dst_idx");
    assertThat(export(graph)).isEqualTo(before);

    // The key indexes are now present: a second key-only run commits nothing; ensureIndices adds the rest.
    assertThat(graph.ensureKeyIndices().commitId()).isNull();
    EnsureIndicesResult all = graph.ensureIndices();
    assertThat(states(all)).containsEntry("node:Doc.id_idx", "present").containsEntry("edge:Cites.src_idx", "present")
        .containsEntry("node:Doc.slug_fts", "created").containsEntry("edge:Cites.weight_idx", "created");
    assertThat(graph.commits()).hasSize(commits + 2);
  }

  @Test
  void aVectorIndexWaitsForEnoughRows() {
    load(graph, LoadMode.MERGE, docs(0, 300));
    EnsureIndicesResult r = graph.ensureIndices();
    assertThat(states(r)).containsEntry("node:Doc.emb_vec", "created");
    assertThat(indexNames("node:Doc")).contains("emb_vec");
  }

  @Test
  void theIdProbeUsesTheIndexAndWritesStayCorrect() {
    load(graph, LoadMode.MERGE, docs(0, 50));
    LanceFilter probe = LanceFilter.in("id", List.of(nodeId("d3"), "nope"));
    assertThat(indicesLoaded("node:Doc", probe)).isZero();
    graph.ensureIndices();
    assertThat(indicesLoaded("node:Doc", probe)).isPositive();
    // Rows in indexed and in newer, unindexed fragments are both found by the probe and by writes.
    // An upsert of an indexed row moves it to a new fragment: the index must not claim that fragment
    // (it did before TableWriter's mixed upsert listed every field as preserving), or the strict
    // append of d3 below finds nothing and duplicates it.
    load(graph, LoadMode.MERGE, docs(50, 55));
    String gq = """
        query add($slug: String) { insert Doc { slug: $slug } }
        """;
    graph.mutate(gq, "add", QueryParams.of(Map.of("slug", "d3")), MutationOptions.defaults());
    graph.mutate(gq, "add", QueryParams.of(Map.of("slug", "d52")), MutationOptions.defaults());
    graph.mutate(gq, "add", QueryParams.of(Map.of("slug", "new")), MutationOptions.defaults());
    assertThat(export(graph).lines().filter(l -> l.startsWith("{\"type\":\"Doc\"")).count()).isEqualTo(56);
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, docs(3, 4))).isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, docs(53, 54))).isInstanceOf(ConflictException.class);
  }

  // ---------------------------------------------------------------- helpers

  LanceGraph lance() {
    return (LanceGraph) graph;
  }

  String nodeId(String slug) {
    return export(graph).lines().filter(l -> l.contains("\"slug\":\"" + slug + "\"")).findFirst()
        .map(l -> l.replaceAll(".*\"id\":\"([^\"]+)\".*", "$1")).orElseThrow();
  }

  List<String> indexNames(String tableKey) {
    var s = lance().state();
    var e = s.table(tableKey).orElseThrow();
    try (var t = lance().tables().reader().openAt(lance().root().lance(e.path()), e.version())) {
      return lance().tables().reader().indexNames(t);
    }
  }

  /** @return how many indices Lance loaded to answer {@code filter} on the published version */
  long indicesLoaded(String tableKey, LanceFilter filter) {
    var e = lance().state().table(tableKey).orElseThrow();
    String uri = lance().root().lance(e.path()).uri();
    try (BufferAllocator a = new RootAllocator();
        Dataset ds = Dataset.open(a, uri, new org.lance.ReadOptions.Builder().setVersion(e.version()).build());
        LanceScanner sc = ds.newScan(new ScanOptions.Builder().columns(List.of("id")).filter(filter.sql())
            .collectStats(true).build())) {
      try (ArrowReader r = sc.scanBatches()) {
        while (r.loadNextBatch()) {
          // drain
        }
      }
      return sc.getStats().orElseThrow().getIndicesLoaded();
    } catch (Exception ex) {
      throw new AssertionError(ex);
    }
  }
}
