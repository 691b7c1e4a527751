package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static io.omnigraph.testkit.graph.GraphIo.sortedLines;
import static io.omnigraph.testkit.graph.PeopleGraph.PEOPLE;
import static io.omnigraph.testkit.graph.PeopleGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadProgress;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.ResourceLimitException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graph.load in each mode and Graph.export, on real Lance datasets on local disk. */
class GraphLoadTest {
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

  @Test
  void appendThenExportGivesBackTheSameRows() {
    LoadResult r = load(graph, LoadMode.APPEND, PEOPLE);
    assertThat(r.rowsRead()).isEqualTo(4);
    assertThat(r.phaseNanos()).containsOnlyKeys("validate", "stage", "commit", "sync", "publish");
    assertThat(r.rowsByTable()).containsExactlyInAnyOrderEntriesOf(
        Map.of("node:Person", 2L, "node:Company", 1L, "edge:WorksAt", 1L));
    String exported = export(graph);
    assertThat(exported).contains("{\"type\":\"Person\",\"data\":{\"id\":\"ada\",\"name\":\"ada\",\"age\":36}}");
    assertThat(sortedLines(exported)).hasSize(4);
    // the export loads back identically into a fresh graph
    try (Graph copy = Omnigraph.init(dir.resolve("copy").toString(), SCHEMA)) {
      load(copy, LoadMode.APPEND, exported);
      assertThat(export(copy)).isEqualTo(exported);
    }
  }

  @Test
  void oneLoadIsOneCommitRecordingActorMessageAndPins() {
    graph.load(LoadMode.APPEND, new ByteArrayInputStream(PEOPLE.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withActor("alice").withMessage("first people"));
    List<CommitInfo> commits = graph.commits();
    assertThat(commits).hasSize(2);
    CommitInfo c = commits.get(0);
    assertThat(c.actor()).isEqualTo("alice");
    assertThat(c.message()).isEqualTo("first people");
    assertThat(c.parents()).containsExactly(commits.get(1).id());
    assertThat(c.tableVersions()).containsEntry("node:Person", 2L).containsEntry("edge:WorksAt", 2L);
  }

  @Test
  void appendOfExistingKeysIsAKeyConflictAndPublishesNothing() {
    load(graph, LoadMode.APPEND, PEOPLE);
    String before = export(graph);
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, """
        {"type":"Person","data":{"name":"cy"}}
        {"type":"Person","data":{"name":"bob"}}
        {"type":"Person","data":{"name":"ada"}}
        """)).isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(409);
          assertThat(e.detail()).contains(new ErrorDetail.KeyConflict("node", "Person", List.of("bob", "ada")));
        });
    assertThat(graph.commits()).hasSize(2);
    assertThat(export(graph)).isEqualTo(before);
  }

  @Test
  void mergeUpsertsAndTheLastRowForAnIdWins() {
    load(graph, LoadMode.APPEND, PEOPLE);
    load(graph, LoadMode.MERGE, """
        {"type":"Person","data":{"name":"bob","age":1}}
        {"type":"Person","data":{"name":"cy","age":5}}
        {"type":"Person","data":{"name":"bob","age":2}}
        """);
    String exported = export(graph);
    assertThat(exported).contains("{\"type\":\"Person\",\"data\":{\"id\":\"bob\",\"name\":\"bob\",\"age\":2}}")
        .contains("\"id\":\"cy\"").contains("\"id\":\"ada\"").doesNotContain("\"age\":1}");
    assertThat(sortedLines(exported)).hasSize(5);
  }

  @Test
  void overwriteReplacesTouchedTablesOnly() {
    load(graph, LoadMode.APPEND, PEOPLE);
    load(graph, LoadMode.OVERWRITE, """
        {"type":"Company","data":{"title":"acme"}}
        {"type":"Company","data":{"title":"zeta"}}
        """);
    String exported = export(graph);
    assertThat(exported).contains("\"id\":\"zeta\"").contains("\"id\":\"ada\"").contains("\"edge\":\"WorksAt\"");
  }

  @Test
  void overwriteValidatesReferentialIntegrityBeforeAnyHeadMoves() {
    load(graph, LoadMode.APPEND, PEOPLE);
    String before = export(graph);
    Map<String, Long> pins = graph.commits().get(0).tableVersions();
    // Replacing Company without acme would orphan the committed WorksAt edge.
    assertThatThrownBy(() -> load(graph, LoadMode.OVERWRITE, """
        {"type":"Company","data":{"title":"zeta"}}
        """)).isInstanceOf(InvalidInputException.class);
    assertThat(graph.commits().get(0).tableVersions()).isEqualTo(pins);
    assertThat(export(graph)).isEqualTo(before);
    // and the table HEADs did not move: the next load commits normally
    load(graph, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"dee\"}}\n");
  }

  @Test
  void danglingEdgeEndpointsAreValidationErrorsWithTheirLine() {
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, """
        {"type":"Person","data":{"name":"ada"}}
        {"edge":"WorksAt","from":"ada","to":"nowhere","data":{}}
        """)).isInstanceOfSatisfying(InvalidInputException.class, e -> {
          ErrorDetail.Validation v = (ErrorDetail.Validation) e.detail().orElseThrow();
          assertThat(v.line()).isEqualTo(2L);
        });
    assertThat(graph.commits()).hasSize(1);
  }

  @Test
  void edgeCardinalityCountsCommittedEdges() {
    load(graph, LoadMode.APPEND, PEOPLE);
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, """
        {"type":"Company","data":{"title":"beta"}}
        {"edge":"WorksAt","from":"ada","to":"beta","data":{}}
        """)).isInstanceOf(InvalidInputException.class);
  }

  static String people(int n) {
    return IntStream.range(0, n).mapToObj(i -> "{\"type\":\"Person\",\"data\":{\"name\":\"p" + i + "\",\"age\":" + (i % 90)
        + "}}").collect(Collectors.joining("\n", "", "\n"));
  }

  @Test
  void appendAndMergeAreLimitedTo8192RowsPerTableButOverwriteIsNot() {
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, people(8193)))
        .isInstanceOfSatisfying(ResourceLimitException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(413);
          ErrorDetail.ResourceLimit l = (ErrorDetail.ResourceLimit) e.detail().orElseThrow();
          assertThat(l.limit()).isEqualTo(8192);
          assertThat(l.actual()).isEqualTo(8193);
          assertThat(l.resource()).contains("node:Person");
        });
    assertThatThrownBy(() -> load(graph, LoadMode.MERGE, people(8193))).isInstanceOf(ResourceLimitException.class);
    assertThat(graph.commits()).hasSize(1);
    assertThat(load(graph, LoadMode.APPEND, people(8192)).rowsByTable()).containsEntry("node:Person", 8192L);
    assertThat(load(graph, LoadMode.OVERWRITE, people(20_000)).rowsByTable()).containsEntry("node:Person", 20_000L);
    assertThat(sortedLines(export(graph))).hasSize(20_000);
  }

  @Test
  void anOverwriteLargerThanOneStreamedBatchCommitsEveryBatchAsOneVersion() {
    load(graph, LoadMode.APPEND, people(10));
    int commits = graph.commits().size();
    int n = 65_536 + 1_000; // more than one streamed batch (GraphLoad.OVERWRITE_BATCH_ROWS)
    LoadResult r = load(graph, LoadMode.OVERWRITE, people(n));
    assertThat(r.rowsByTable()).containsEntry("node:Person", (long) n);
    assertThat(graph.commits()).hasSize(commits + 1);
    List<String> lines = sortedLines(export(graph)).stream().filter(l -> l.contains("\"Person\"")).toList();
    assertThat(lines).hasSize(n).contains("{\"type\":\"Person\",\"data\":{\"id\":\"p66535\",\"name\":\"p66535\",\"age\":25}}");
  }

  @Test
  void anOverwriteThatFailsValidationAfterStreamingBatchesPublishesNothing() {
    load(graph, LoadMode.APPEND, PEOPLE);
    String before = export(graph);
    int commits = graph.commits().size();
    String input = people(70_000) + "{\"type\":\"Person\",\"data\":{\"name\":\"p3\"}}\n";
    assertThatThrownBy(() -> load(graph, LoadMode.OVERWRITE, input))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage()).startsWith("line 70001: duplicate id 'p3'"));
    assertThat(graph.commits()).hasSize(commits);
    assertThat(export(graph)).isEqualTo(before);
  }

  @Test
  void progressEndsWithOneFinalReport() {
    List<LoadProgress> reports = new ArrayList<>();
    graph.load(LoadMode.OVERWRITE, new ByteArrayInputStream(people(3000).getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withProgress(reports::add));
    assertThat(reports).isNotEmpty();
    LoadProgress last = reports.get(reports.size() - 1);
    assertThat(last.finished()).isTrue();
    assertThat(last.rowsRead()).isEqualTo(3000);
    assertThat(reports.stream().filter(LoadProgress::finished)).hasSize(1);
  }

  @Test
  void everyModeRoundTripsThroughExport() {
    load(graph, LoadMode.OVERWRITE, PEOPLE);
    load(graph, LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":7}}\n");
    load(graph, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"o'neil\",\"age\":3}}\n");
    String exported = export(graph);
    try (Graph copy = Omnigraph.init(dir.resolve("copy").toString(), SCHEMA)) {
      load(copy, LoadMode.OVERWRITE, exported);
      assertThat(sortedLines(export(copy))).isEqualTo(sortedLines(exported));
      assertThat(export(copy)).isEqualTo(exported);
    }
  }

  @Test
  void reopenedGraphsSeeLoadedData() {
    load(graph, LoadMode.APPEND, PEOPLE);
    String exported = export(graph);
    try (Graph again = Omnigraph.open(graph.uri())) {
      assertThat(export(again)).isEqualTo(exported);
      assertThat(again.commits()).hasSize(2);
    }
  }
}
