package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code @unique} against rows already committed in Lance: the committed value, read back from its
 * Arrow column, must compare equal to the value the loader parsed from NDJSON, for every type that
 * {@code @unique} accepts (DateTime once failed: its column came back as a {@code LocalDateTime}
 * while the loader holds epoch milliseconds, so a duplicate slipped through).
 */
class CommittedUniqueTest {
  static final String SCHEMA = """
      node S { k: String @key  v: String? @unique }
      node B { k: String @key  v: Bool? @unique }
      node I32T { k: String @key  v: I32? @unique }
      node I64T { k: String @key  v: I64? @unique }
      node U32T { k: String @key  v: U32? @unique }
      node U64T { k: String @key  v: U64? @unique }
      node F32T { k: String @key  v: F32? @unique }
      node F64T { k: String @key  v: F64? @unique }
      node D { k: String @key  v: Date? @unique }
      node DT { k: String @key  v: DateTime? @unique }
      node E { k: String @key  v: enum(red, green)? @unique }
      node Pair { a: String @key  b: DateTime?  c: I64?  @unique(b, c) }
      edge Link: S -> S { @unique(src, dst) }
      """;

  @TempDir static Path dir;
  static Graph graph;

  @BeforeAll
  static void committedRows() {
    graph = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
    GraphIo.load(graph, LoadMode.OVERWRITE, """
        {"type":"S","data":{"k":"a","v":"x"}}
        {"type":"S","data":{"k":"z"}}
        {"type":"B","data":{"k":"a","v":true}}
        {"type":"I32T","data":{"k":"a","v":-5}}
        {"type":"I64T","data":{"k":"a","v":9007199254740993}}
        {"type":"U32T","data":{"k":"a","v":4000000000}}
        {"type":"U64T","data":{"k":"a","v":18446744073709551615}}
        {"type":"F32T","data":{"k":"a","v":1.5}}
        {"type":"F64T","data":{"k":"a","v":2.25}}
        {"type":"D","data":{"k":"a","v":"2024-02-29"}}
        {"type":"DT","data":{"k":"a","v":"2024-02-29T10:11:12.345Z"}}
        {"type":"E","data":{"k":"a","v":"red"}}
        {"type":"Pair","data":{"a":"a","b":"2024-01-01T00:00:00Z","c":7}}
        {"edge":"Link","from":"a","to":"z"}
        """);
  }

  @AfterAll
  static void close() {
    graph.close();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      S    | "x"
      B    | true
      I32T | -5
      I64T | 9007199254740993
      U32T | 4000000000
      U64T | 18446744073709551615
      F32T | 1.5
      F64T | 2.25
      D    | "2024-02-29"
      D    | 19782
      DT   | "2024-02-29T10:11:12.345Z"
      DT   | "2024-02-29T11:11:12.345+01:00"
      DT   | 1709201472345
      E    | "red"
      """)
  void aValueHeldByACommittedRowIsAUniqueViolationInMergeAndAppend(String type, String json) {
    int commits = graph.commits().size();
    for (LoadMode mode : new LoadMode[] {LoadMode.MERGE, LoadMode.APPEND}) {
      String line = "{\"type\":\"" + type + "\",\"data\":{\"k\":\"b\",\"v\":" + json + "}}\n";
      assertThatThrownBy(() -> GraphIo.load(graph, mode, line)).as(mode + " " + line)
          .isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(e.code()).isEqualTo("bad_request");
            assertThat(e.detail()).contains(new ErrorDetail.Validation(1L, null, "v", "unique_violation"));
            assertThat(e.getMessage()).contains("@unique violation on " + type + ".v").contains("held by 'a' and 'b'");
          });
    }
    assertThat(graph.commits()).hasSize(commits);
  }

  @Test
  void aCompositeTupleWithADateTimeMemberHeldByACommittedRowIsAViolation() {
    assertThatThrownBy(() -> GraphIo.load(graph, LoadMode.MERGE,
        "{\"type\":\"Pair\",\"data\":{\"a\":\"b\",\"b\":1704067200000,\"c\":7}}\n"))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.Validation(1L, null, "b,c", "unique_violation")));
  }

  @Test
  void aParallelEdgeToACommittedOneViolatesUniqueSrcDst() {
    assertThatThrownBy(() -> GraphIo.load(graph, LoadMode.APPEND, "{\"edge\":\"Link\",\"from\":\"a\",\"to\":\"z\"}\n"))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.Validation(1L, null, "src,dst", "unique_violation")));
  }

  @Test
  void differentValuesAndTheHolderItselfAreAccepted() {
    try (Graph g = Omnigraph.init(dir.resolve("other").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, "{\"type\":\"DT\",\"data\":{\"k\":\"a\",\"v\":\"2024-02-29T10:11:12.345Z\"}}\n");
      GraphIo.load(g, LoadMode.APPEND, "{\"type\":\"DT\",\"data\":{\"k\":\"b\",\"v\":\"2024-02-29T10:11:12.346Z\"}}\n");
      // the holder rewriting its own value is not a conflict with itself
      GraphIo.load(g, LoadMode.MERGE, "{\"type\":\"DT\",\"data\":{\"k\":\"a\",\"v\":\"2024-02-29T10:11:12.345Z\"}}\n");
      assertThat(g.commits()).hasSize(4);
    }
  }
}
