package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static io.omnigraph.testkit.graph.GraphIo.sortedLines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edge keys (docs/edge-keys.md) on a real Lance graph: the id of a keyed edge derives from its key,
 * so a merge load converges, an append of an existing edge is a key conflict naming the derived
 * id, a mismatching explicit id is refused, a keyed edge insert is an upsert; unkeyed edges keep
 * multiset semantics.
 */
class EdgeKeysTest {
  static final String SCHEMA = """
      node Author { handle: String @key }
      node Book { isbn: String @key }
      edge Wrote: Author -> Book {
        role: String
        @key(src, dst)
      }
      edge Played: Author -> Book {
        part: String
        weight: I32
        @key(src, dst, part)
      }
      edge Cites: Book -> Book { note: String? }
      edge Edits: Author -> Book @card(0..1) { }
      """;

  static final String NODES = """
      {"type":"Author","data":{"handle":"okafor"}}
      {"type":"Author","data":{"handle":"berg"}}
      {"type":"Book","data":{"isbn":"978-1"}}
      {"type":"Book","data":{"isbn":"978-2"}}
      """;

  static final String EDGES = """
      {"edge":"Wrote","from":"okafor","to":"978-1","data":{"role":"lead"}}
      {"edge":"Wrote","from":"berg","to":"978-1","data":{"role":"co"}}
      {"data":{"role":"lead"},"edge":"Wrote","from":"okafor","to":"978-2"}
      {"edge":"Played","from":"okafor","to":"978-1","data":{"part":"editor","weight":1}}
      {"edge":"Played","from":"okafor","to":"978-1","data":{"part":"author","weight":2}}
      {"edge":"Cites","from":"978-1","to":"978-2","data":{}}
      """;

  @TempDir Path dir;
  Graph graph;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
    load(graph, LoadMode.APPEND, NODES);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  private List<String> lines(String prefix) {
    return sortedLines(export(graph)).stream().filter(l -> l.startsWith(prefix)).toList();
  }

  @Test
  void aKeyedEdgeIdIsDerivedFromItsKeyOnTheFastAndTheExactPath() {
    load(graph, LoadMode.MERGE, EDGES);
    // the third Wrote line has data first: the exact decoder reads it; the others the fast one
    assertThat(lines("{\"edge\":\"Wrote\"")).containsExactly(
        "{\"edge\":\"Wrote\",\"from\":\"berg\",\"to\":\"978-1\",\"data\":{\"id\":\"[\\\"berg\\\",\\\"978-1\\\"]\",\"role\":\"co\"}}",
        "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"id\":\"[\\\"okafor\\\",\\\"978-1\\\"]\",\"role\":\"lead\"}}",
        "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-2\",\"data\":{\"id\":\"[\\\"okafor\\\",\\\"978-2\\\"]\",\"role\":\"lead\"}}");
    assertThat(lines("{\"edge\":\"Played\"")).extracting(l -> l.replaceAll(".*\"id\":\"(.*?)\",\"part.*", "$1"))
        .containsExactlyInAnyOrder("[\\\"okafor\\\",\\\"978-1\\\",\\\"author\\\"]", "[\\\"okafor\\\",\\\"978-1\\\",\\\"editor\\\"]");
  }

  @Test
  void loadingTheSameKeyedFileTwiceWithMergeConverges() {
    load(graph, LoadMode.MERGE, EDGES);
    String first = export(graph);
    List<String> unkeyedFirst = lines("{\"edge\":\"Cites\"");
    load(graph, LoadMode.MERGE, EDGES);
    List<String> keyedAfter = sortedLines(export(graph)).stream().filter(l -> !l.startsWith("{\"edge\":\"Cites\"")).toList();
    List<String> keyedBefore = sortedLines(first).stream().filter(l -> !l.startsWith("{\"edge\":\"Cites\"")).toList();
    assertThat(keyedAfter).isEqualTo(keyedBefore).hasSize(4 + 5);
    // unkeyed edges keep multiset semantics: a re-run without data.id doubles them
    assertThat(unkeyedFirst).hasSize(1);
    assertThat(lines("{\"edge\":\"Cites\"")).hasSize(2);
  }

  @Test
  void aMergeLoadUpdatesTheNonKeyPropertiesOfAnExistingKeyedEdge() {
    load(graph, LoadMode.MERGE, EDGES);
    load(graph, LoadMode.MERGE, "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"role\":\"ghost\"}}\n");
    assertThat(lines("{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\"")).singleElement()
        .asString().contains("\"role\":\"ghost\"");
  }

  @Test
  void appendOfAnExistingKeyedEdgeIsAKeyConflictNamingTheDerivedId() {
    load(graph, LoadMode.APPEND, EDGES);
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND,
        "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"role\":\"again\"}}\n"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.KeyConflict("edge", "Wrote", List.of("[\"okafor\",\"978-1\"]"))));
  }

  @Test
  void aRepeatedKeyInOneAppendIsADuplicateKey() {
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, """
        {"edge":"Wrote","from":"okafor","to":"978-1","data":{"role":"a"}}
        {"edge":"Wrote","from":"okafor","to":"978-1","data":{"role":"b"}}
        """))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.Validation(2L, null, "id", "duplicate_key")));
  }

  @Test
  void anExplicitIdThatDiffersFromTheDerivedOneIsInvalidId() {
    assertThatThrownBy(() -> load(graph, LoadMode.MERGE,
        "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"id\":\"w1\",\"role\":\"a\"}}\n"))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.Validation(1L, null, "id", "invalid_id")));
    // the derived id itself is accepted (an export loads back)
    load(graph, LoadMode.MERGE,
        "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"id\":\"[\\\"okafor\\\",\\\"978-1\\\"]\",\"role\":\"a\"}}\n");
    assertThat(lines("{\"edge\":\"Wrote\"")).hasSize(1);
  }

  @Test
  void aMissingKeyPropertyIsMissingKey() {
    assertThatThrownBy(() -> load(graph, LoadMode.MERGE,
        "{\"edge\":\"Played\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"weight\":1}}\n"))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.Validation(1L, null, "part", "missing_key")));
  }

  @Test
  void insertingTheSameKeyedEdgeTwiceWithGqLeavesOneRowWithTheSecondInsertsProperties() {
    String q = """
        query wrote($a: String, $b: String, $r: String) {
          insert Wrote { from: $a, to: $b, role: $r }
        }
        query cites($a: String, $b: String) {
          insert Cites { from: $a, to: $b }
        }
        """;
    graph.mutate(q, "wrote", QueryParams.of(Map.of("a", "okafor", "b", "978-1", "r", "lead")), MutationOptions.defaults());
    graph.mutate(q, "wrote", QueryParams.of(Map.of("a", "okafor", "b", "978-1", "r", "editor")), MutationOptions.defaults());
    assertThat(lines("{\"edge\":\"Wrote\"")).containsExactly(
        "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"id\":\"[\\\"okafor\\\",\\\"978-1\\\"]\",\"role\":\"editor\"}}");
    // the mutation derives the id the loader derives: a merge load of the same key converges with it
    load(graph, LoadMode.MERGE, "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"role\":\"lead\"}}\n");
    assertThat(lines("{\"edge\":\"Wrote\"")).singleElement().asString().contains("\"role\":\"lead\"");
    // unkeyed: two inserts are two rows
    graph.mutate(q, "cites", QueryParams.of(Map.of("a", "978-1", "b", "978-2")), MutationOptions.defaults());
    graph.mutate(q, "cites", QueryParams.of(Map.of("a", "978-1", "b", "978-2")), MutationOptions.defaults());
    assertThat(lines("{\"edge\":\"Cites\"")).hasSize(2);
  }

  @Test
  void appendOfExistingNodesReportsTheKeyConflictBeforeACardinalityRule() {
    load(graph, LoadMode.APPEND, "{\"edge\":\"Edits\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{}}\n");
    // re-appending the seed (nodes that exist, plus an edge that would break @card(0..1)) names the ids
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND,
        NODES + "{\"edge\":\"Edits\",\"from\":\"okafor\",\"to\":\"978-2\",\"data\":{}}\n"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.KeyConflict("node", "Author", List.of("okafor", "berg"))));
  }
}
