package io.omnigraph.engine.read;

import static io.omnigraph.engine.read.ReadFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Full-text search ({@code search}, {@code match_text}, {@code fuzzy}, {@code bm25}) and {@code
 * rrf} fusion (docs/queries.md, "Search"): exact rows with and without the inverted index, the
 * prefilter rule, and identical results from Lance's inverted-index search and the in-memory
 * evaluation.
 */
class SearchQueryTest {
  static final String SCHEMA = """
      node Doc {
        slug: String @key
        body: String? @index
        plain: String?
        kind: String
        vec: Vector(2)?
      }
      """;

  /** body and plain hold the same text; only body gets an inverted index. */
  static String doc(String slug, String text, String kind, String vec) {
    String t = text == null ? "null" : "\"" + text + "\"";
    return "{\"type\":\"Doc\",\"data\":{\"slug\":\"" + slug + "\",\"body\":" + t + ",\"plain\":" + t + ",\"kind\":\"" + kind
        + "\"" + (vec == null ? "" : ",\"vec\":" + vec) + "}}\n";
  }

  static final String DATA = doc("a", "The quick brown fox", "x", "[0,0]")
      + doc("b", "lazy dog sleeps", "y", "[1,0]")
      + doc("c", "quick thinking Fox-hunt", "x", "[0,1]")
      + doc("d", null, "x", "[5,5]")
      + doc("e", "Café au lait", "y", "[2,2]")
      + doc("f", "foxes and dogs quick quick", "x", "[0,3]")
      + doc("g", "a fox a fox a fox", "y", "[1,1]");

  @TempDir Path dir;

  static List<String> slugs(Graph g, String gq, Map<String, ?> params) {
    return rows(g, gq, params).stream().map(r -> r.replaceAll(".*\"d.slug\":\"([^\"]*)\".*", "$1")).toList();
  }

  static List<String> slugs(Graph g, String gq) {
    return slugs(g, gq, Map.of());
  }

  /** The same expectations hold without an index (in memory) and with it (Lance's inverted index). */
  @Test
  void textSearchRowsWithoutAndWithTheInvertedIndex() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      String explainBefore = g.explainQuery("query q() { match { $d: Doc  search($d.body, \"fox\") } return { $d.slug } }",
          "q", QueryParams.of(Map.of()), QueryOptions.defaults());
      assertThat(explainBefore).contains("Search search($d.body, \"fox\") on node:Doc [in memory, no inverted index");
      expectations(g);
      g.ensureIndices();
      String explainAfter = g.explainQuery("query q() { match { $d: Doc  search($d.body, \"fox\") } return { $d.slug } }",
          "q", QueryParams.of(Map.of()), QueryOptions.defaults());
      assertThat(explainAfter).contains("[Lance inverted index;");
      expectations(g);
    }
  }

  private static void expectations(Graph g) {
    // any query token matches; tokens are lower-cased, split on non-alphanumerics, accents folded
    assertThat(slugs(g, "query q() { match { $d: Doc  search($d.body, \"Quick FOX\") } return { $d.slug } order { $d.slug } }"))
        .containsExactly("a", "c", "f", "g");
    assertThat(slugs(g, "query q() { match { $d: Doc  match_text($d.body, \"hunt\") } return { $d.slug } }"))
        .containsExactly("c");
    assertThat(slugs(g, "query q() { match { $d: Doc  search($d.body, \"CAFÉ\") } return { $d.slug } }"))
        .containsExactly("e");
    // no stemming: "fox" does not match "foxes"
    assertThat(slugs(g, "query q() { match { $d: Doc  search($d.body, \"foxes\") } return { $d.slug } }"))
        .containsExactly("f");
    // a null query and a query without tokens match nothing
    assertThat(slugs(g, "query q($t: String?) { match { $d: Doc  search($d.body, $t) } return { $d.slug } }",
        new HashMap<>(Map.of()))).isEmpty();
    assertThat(slugs(g, "query q() { match { $d: Doc  search($d.body, \"!!\") } return { $d.slug } }")).isEmpty();
    // fuzzy: Levenshtein distance per token, default 2
    assertThat(slugs(g, "query q() { match { $d: Doc  fuzzy($d.body, \"fix\", 1) } return { $d.slug } order { $d.slug } }"))
        .containsExactly("a", "c", "g");
    assertThat(slugs(g, "query q() { match { $d: Doc  fuzzy($d.body, \"fox\") } return { $d.slug } order { $d.slug } }"))
        .containsExactly("a", "b", "c", "f", "g");
    // combined with a property match and a negated search
    assertThat(slugs(g, """
        query q() { match { $d: Doc { kind: "x" }  search($d.body, "quick")  not { search($d.body, "brown") } }
          return { $d.slug } order { $d.slug } }""")).containsExactly("c", "f");
    // bm25: best first; g repeats "fox" in a longer text and wins; a and c tie and fall back to the id order
    assertThat(slugs(g, "query q() { match { $d: Doc } return { $d.slug } order { bm25($d.body, \"fox\") } limit 5 }"))
        .containsExactly("g", "a", "c");
    // prefilter: the match filters apply before top-k (g is the best overall but not kind x)
    assertThat(slugs(g, "query q() { match { $d: Doc { kind: \"x\" } } return { $d.slug } order { bm25($d.body, \"fox\") } limit 1 }"))
        .containsExactly("a");
    // rrf: nearest top-3 a,b,c; bm25 top-3 g,a,c; fused a (1/61+1/62), c (2/63), g (1/61), b (1/62)
    assertThat(slugs(g, """
        query q() { match { $d: Doc } return { $d.slug } order { rrf(nearest($d.vec, [0, 0]), bm25($d.body, "fox")) } limit 3 }"""))
        .containsExactly("a", "c", "g");
    // rrf with a prefilter: candidates are kind x only (a, c, d, f); bm25 has two matches there
    assertThat(slugs(g, """
        query q() { match { $d: Doc { kind: "x" } } return { $d.slug } order { rrf(nearest($d.vec, [0, 0]), bm25($d.body, "fox"), 60) } limit 3 }"""))
        .containsExactly("a", "c", "f");
  }

  @Test
  void fuzzyAllowsAtMostTwoEdits() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      assertThatThrownBy(() -> rows(g, "query q() { match { $d: Doc  fuzzy($d.body, \"fox\", 3) } return { $d.slug } }"))
          .isInstanceOf(InvalidInputException.class)
          .satisfies(e -> assertThat(((ErrorDetail.Validation) ((InvalidInputException) e).detail().orElseThrow()).rule())
              .isEqualTo("T19"));
    }
  }

  /**
   * The in-memory evaluation gives the rows Lance's inverted-index search gives, on a generated
   * corpus: the indexed column, the same column forced in memory, and an unindexed copy agree on
   * every match set and every bm25 order.
   */
  @Test
  void inMemoryEvaluationEqualsTheInvertedIndexSearch() {
    String[] words = {"fox", "Fox", "foxes", "box", "ofx", "quick", "quack", "dog", "dogs", "Ünïcode", "unicode", "naïve",
        "naive", "the", "and", "ÆON", "straße", "x1", "9lives", "über", "hello-world", "a_b", "lorem", "ipsum"};
    Random rnd = new Random(4711);
    StringBuilder data = new StringBuilder();
    for (int i = 0; i < 120; i++) {
      int n = rnd.nextInt(8);
      List<String> w = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        w.add(words[rnd.nextInt(words.length)]);
      }
      data.append(doc(String.format("s%03d", i), i % 17 == 0 ? null : String.join(rnd.nextBoolean() ? " " : ", ", w),
          i % 3 == 0 ? "x" : "y", null));
    }
    String[] queries = {"quick", "quack", "Fox quick", "fox", "FOX quick", "dogs", "unicode", "naive", "aeon", "strasse", "x1 9lives", "uber", "hello",
        "world", "a_b", "b", "the and", "ipsum lorem fox dog"};
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, data.toString());
      g.ensureIndices();
      int compared = 0;
      for (String q : queries) {
        for (String fn : new String[] {"search", "fuzzy1", "fuzzy2", "bm25"}) {
          String call = fn.startsWith("fuzzy") ? "fuzzy($d.%s, $q, " + fn.charAt(5) + ")" : fn + "($d.%s, $q)";
          String gq = fn.equals("bm25")
              ? "query q($q: String) { match { $d: Doc } return { $d.slug } order { " + call + " } limit 200 }"
              : "query q($q: String) { match { $d: Doc  " + call + " } return { $d.slug } order { $d.slug } }";
          List<String> indexed = slugs(g, gq.formatted("body"), Map.of("q", q));
          List<String> unindexed = slugs(g, gq.formatted("plain"), Map.of("q", q));
          List<String> forced;
          System.setProperty("omnigraph.search", "memory");
          try {
            forced = slugs(g, gq.formatted("body"), Map.of("q", q));
          } finally {
            System.clearProperty("omnigraph.search");
          }
          assertThat(unindexed).as(fn + " " + q).isEqualTo(indexed);
          assertThat(forced).as(fn + " " + q).isEqualTo(indexed);
          compared += indexed.size();
        }
      }
      assertThat(compared).isGreaterThan(300);
    }
  }
}
