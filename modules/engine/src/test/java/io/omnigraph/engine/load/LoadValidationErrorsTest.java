package io.omnigraph.engine.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.engine.testing.SchemaSamples;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every {@link LoadRule}, end to end: {@code Graph.load} on a real Lance graph with committed
 * rows refuses the input with an {@link InvalidInputException} whose code, HTTP status and
 * validation detail (rule, line, field) are the documented ones, and publishes nothing (the head
 * commit and the exported rows are unchanged). The case table must name every rule, so a new
 * rule without a case fails here. Rules that depend on committed state (unique, dangling,
 * cardinality) are answered by the Lance-backed view, not a map.
 */
class LoadValidationErrorsTest {
  /** Committed before the cases run: holders for @unique, sources at their @card maximum. */
  static final String COMMITTED = """
      {"type":"Author","data":{"handle":"okafor","full_name":"N. Okafor"}}
      {"type":"Author","data":{"handle":"lee","full_name":"L. Lee"}}
      {"type":"Author","data":{"handle":"kim","full_name":"K. Kim"}}
      {"type":"Book","data":{"isbn":"978-1","title":"Delta","year":2011,"status":"in_print","code":"c1"}}
      {"type":"Book","data":{"isbn":"978-2","title":"Echo","year":2012,"status":"draft"}}
      {"type":"Book","data":{"isbn":"978-3","title":"Fox","year":2013,"status":"draft"}}
      {"edge":"Cites","from":"978-1","to":"978-2"}
      {"edge":"Cites","from":"978-1","to":"978-3"}
      {"edge":"Wrote","from":"okafor","to":"978-1"}
      {"edge":"Likes","from":"okafor","to":"lee"}
      {"edge":"Likes","from":"okafor","to":"kim"}
      {"edge":"Likes","from":"lee","to":"okafor"}
      {"edge":"Likes","from":"lee","to":"kim"}
      {"edge":"Likes","from":"kim","to":"okafor"}
      {"edge":"Likes","from":"kim","to":"lee"}
      """;

  static final String OK = "{\"type\":\"Note\",\"data\":{\"text\":\"ok\"}}";
  static final String BOOK = "{\"type\":\"Book\",\"data\":{\"isbn\":\"1\",\"title\":\"t\",\"year\":2011,\"status\":\"draft\"";

  /**
   * @param mode load mode
   * @param line the offending line (1-based)
   * @param field the field the detail names, or {@code null}
   * @param input the NDJSON
   */
  record Case(LoadMode mode, long line, String field, String input) {}

  static final Map<LoadRule, Case> CASES = new EnumMap<>(LoadRule.class);

  static {
    append(LoadRule.INVALID_JSON, null, "{\"type\":\"Note\",\"data\":{\"text\":\"a\"}");
    CASES.put(LoadRule.LINE_TOO_LONG, new Case(LoadMode.APPEND, 2, null, OK + "\n{\"type\":\"Note\",\"data\":{\"text\":\""
        + "a".repeat(GraphLoader.DEFAULT_MAX_LINE_BYTES) + "\"}}\n"));
    append(LoadRule.TOO_MANY_TOKENS, null, "{\"type\":\"Author\",\"data\":{\"handle\":\"h\",\"full_name\":\"f\",\"tags\":["
        + "\"t\",".repeat((int) GraphLoader.DEFAULT_MAX_LINE_TOKENS) + "\"t\"]}}");
    append(LoadRule.INVALID_ENVELOPE, "extra", "{\"type\":\"Note\",\"extra\":1}");
    append(LoadRule.RESERVED_FIELD, "_rowid", "{\"type\":\"Note\",\"_rowid\":1}");
    append(LoadRule.UNKNOWN_NODE_TYPE, "type", "{\"type\":\"Nope\",\"data\":{}}");
    append(LoadRule.UNKNOWN_EDGE_TYPE, "edge", "{\"edge\":\"Nope\",\"from\":\"a\",\"to\":\"b\"}");
    append(LoadRule.UNKNOWN_FIELD, "color", "{\"type\":\"Note\",\"data\":{\"text\":\"a\",\"color\":\"red\"}}");
    append(LoadRule.TYPE_MISMATCH, "text", "{\"type\":\"Note\",\"data\":{\"text\":5}}");
    append(LoadRule.OUT_OF_RANGE, "year", BOOK.replace("2011", "2147483648") + "}}");
    append(LoadRule.NULL_VALUE, "title", BOOK.replace("\"title\":\"t\",", "") + "}}");
    append(LoadRule.LIST_NULL_ITEM, "tags", "{\"type\":\"Author\",\"data\":{\"handle\":\"h\",\"full_name\":\"f\",\"tags\":[\"a\",null]}}");
    append(LoadRule.VECTOR_LENGTH, "vec", BOOK + ",\"vec\":[1,2]}}");
    append(LoadRule.ENUM_VALUE, "status", BOOK.replace("draft", "gone") + "}}");
    append(LoadRule.RANGE_VIOLATION, "year", BOOK.replace("2011", "1399") + "}}");
    append(LoadRule.CHECK_VIOLATION, "isbn", BOOK.replace("\"isbn\":\"1\"", "\"isbn\":\"abc\"") + "}}");
    append(LoadRule.MISSING_KEY, "handle", "{\"type\":\"Author\",\"data\":{\"full_name\":\"f\"}}");
    append(LoadRule.INVALID_ID, "id", "{\"type\":\"Author\",\"data\":{\"id\":\"x\",\"handle\":\"h\",\"full_name\":\"f\"}}");
    CASES.put(LoadRule.DUPLICATE_KEY, new Case(LoadMode.APPEND, 3, "id", OK + "\n"
        + "{\"type\":\"Author\",\"data\":{\"handle\":\"new\",\"full_name\":\"a\"}}\n"
        + "{\"type\":\"Author\",\"data\":{\"handle\":\"new\",\"full_name\":\"b\"}}\n"));
    // held by the committed 978-1
    CASES.put(LoadRule.UNIQUE_VIOLATION, new Case(LoadMode.MERGE, 2, "code", OK + "\n"
        + BOOK.replace("\"isbn\":\"1\"", "\"isbn\":\"978-9\"") + ",\"code\":\"c1\"}}\n"));
    append(LoadRule.DANGLING_EDGE, "from", "{\"edge\":\"Wrote\",\"from\":\"ghost\",\"to\":\"978-1\"}");
    // 978-1 already has the two committed Cites edges @card(0..2) allows
    append(LoadRule.CARDINALITY_VIOLATION, "from", "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-1\"}");
    append(LoadRule.INVALID_BLOB, "cover", BOOK + ",\"cover\":\"s3://b/k\"}}");
  }

  /** The offending line is line 2 of an append, after a valid line. */
  private static void append(LoadRule rule, String field, String bad) {
    CASES.put(rule, new Case(LoadMode.APPEND, 2, field, OK + "\n" + bad + "\n"));
  }

  @TempDir static Path dir;
  static Graph graph;
  static CommitInfo head;
  static String exported;

  @BeforeAll
  static void committedGraph() {
    graph = Omnigraph.init(dir.resolve("g").toString(), SchemaSamples.BOOKS);
    load(LoadMode.OVERWRITE, COMMITTED);
    head = graph.commits().get(0);
    exported = export();
  }

  @AfterAll
  static void close() {
    graph.close();
  }

  static void load(LoadMode mode, String ndjson) {
    graph.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults());
  }

  static String export() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(LoadRule.class)
  void isRefusedWithItsCodeLineAndFieldAndPublishesNothing(LoadRule rule) {
    Case c = CASES.get(rule);
    assertThat(c).as("a case for " + rule + " in CASES").isNotNull();
    assertThatThrownBy(() -> load(c.mode(), c.input()))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> {
          String what = e.getMessage().length() > 300 ? e.getMessage().substring(0, 300) : e.getMessage();
          assertThat(e.kind()).as(what).isEqualTo(ErrorKind.INVALID_INPUT);
          assertThat(e.code()).as(what).isEqualTo("bad_request");
          assertThat(e.httpStatus()).as(what).isEqualTo(400);
          assertThat(e.detail()).as(what).contains(new ErrorDetail.Validation(c.line(), null, c.field(), rule.code()));
          assertThat(e.getMessage()).startsWith("line " + c.line() + ": ");
          assertThat(e.toJson()).as(what).contains("\"rule\":\"" + rule.code() + "\"").contains("\"line\":" + c.line());
        });
    assertThat(graph.commits()).first().isEqualTo(head);
    assertThat(List.of(export())).containsExactly(exported);
  }
}
