package io.omnigraph.engine.read;

import static io.omnigraph.engine.read.ReadFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code contains}, {@code starts_with} and list membership with a constant are pushed into the
 * Lance scan (docs/queries.md, "Property matches and filters") with their exact meaning: exact,
 * case-sensitive, {@code %} {@code _} and quotes literal, the empty string in every non-null
 * value, null never matching.
 */
class TextPushdownTest {
  static final String SCHEMA = "node T { k: String @key  s: String?  tags: [String]?  nums: [I32]? }";
  static final String DATA = """
      {"type":"T","data":{"k":"a","s":"50%_off","tags":["x","y"],"nums":[1,2]}}
      {"type":"T","data":{"k":"b","s":"a'b","tags":["y"],"nums":[3]}}
      {"type":"T","data":{"k":"c","s":"50 off","tags":[]}}
      {"type":"T","data":{"k":"d"}}
      {"type":"T","data":{"k":"e","s":"ABC","tags":["X"],"nums":[2]}}
      """;

  @TempDir Path dir;

  static String q(String clause) {
    return "query q($n: String?) { match { $t: T " + clause + " } return { $t.k } order { $t.k } }";
  }

  @Test
  void pushedTextFiltersKeepTheirMeaning() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      assertThat(rows(g, q("$t.s contains \"%_\""))).containsExactly("{\"t.k\":\"a\"}");
      assertThat(rows(g, q("$t.s contains \"'\""))).containsExactly("{\"t.k\":\"b\"}");
      assertThat(rows(g, q("$t.s starts_with \"50\""))).containsExactly("{\"t.k\":\"a\"}", "{\"t.k\":\"c\"}");
      assertThat(rows(g, q("$t.s contains \"abc\""))).isEmpty();
      assertThat(rows(g, q("$t.s contains \"\""))).containsExactly("{\"t.k\":\"a\"}", "{\"t.k\":\"b\"}", "{\"t.k\":\"c\"}",
          "{\"t.k\":\"e\"}");
      assertThat(rows(g, q("$t.s starts_with $n"), new HashMap<>(Map.of()))).isEmpty();
      assertThat(rows(g, q("{ tags: \"y\" }"))).containsExactly("{\"t.k\":\"a\"}", "{\"t.k\":\"b\"}");
      assertThat(rows(g, q("$t.tags contains \"x\""))).containsExactly("{\"t.k\":\"a\"}");
      assertThat(rows(g, q("{ nums: 2 }"))).containsExactly("{\"t.k\":\"a\"}", "{\"t.k\":\"e\"}");
      String plan = g.explainQuery(q("{ tags: \"y\" }  $t.s contains \"%\"  $t.k starts_with \"a\""), "q",
          QueryParams.of(Map.of()), QueryOptions.defaults());
      assertThat(plan).contains("NodeScan $t: T [columns [id, k]; pushed to Lance: ")
          .contains("array_has(`tags`, 'y')").contains("(strpos(`s`, '%') > 0)").contains("starts_with(`k`, 'a')")
          .doesNotContain("in memory");
    }
  }
}
