package io.omnigraph.engine.gq;

import static io.omnigraph.engine.gq.GqTestSupport.assertCheckError;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.gq.QueryException.Code;
import org.junit.jupiter.api.Test;

class ReadCheckerTest {
  @Test
  void wellTypedReadsCheckAndReportVariableTypes() throws Exception {
    CheckedRead r = (CheckedRead) GqTestSupport.compile("""
        query books_by($h: String) {
          match {
            $a: Author { handle: $h, tags: "sf" }
            $a wrote $b
            $b cites{1,3} $c
            $b.year >= 1950
            not { $_ cites $b }
          }
          return { $b.title, $c.isbn as isbn, count($a) }
          order { isbn desc }
          limit 20
        }
        """, "books_by");
    assertThat(r.variableTypes()).containsExactly(
        java.util.Map.entry("a", "Author"), java.util.Map.entry("b", "Book"), java.util.Map.entry("c", "Book"));
  }

  @Test
  void traversalDirectionIsInferredFromTheBoundEndpoint() throws Exception {
    CheckedRead r = (CheckedRead) GqTestSupport.compile(
        "query q() { match { $b: Book  $b wrote $a } return { $a.handle } }", "q");
    assertThat(r.variableTypes()).containsEntry("a", "Author");
  }

  @Test
  void bindingErrors() {
    assertCheckError("query q() { match { $a: Person } return { $a } }", Code.T1, 1, 25, "unknown node type 'Person'");
    assertCheckError("query q() { match { $a: Author { nick: \"x\" } } return { $a } }", Code.T2, 1, 34, "has no property 'nick'");
    assertCheckError("query q() { match { $a: Author { handle: 5 } } return { $a } }", Code.T3, 1, 42, "integer 5 does not fit");
    assertCheckError("query q() { match { $a: Author { tags: [\"a\"] } } return { $a } }", Code.T3, 1, 34, "list equality");
    assertCheckError("query q() { match { $b: Book { cover: \"a\" } } return { $b } }", Code.T3, 1, 32, "Blob property 'cover' cannot be matched");
    assertCheckError("query q() { match { $a: Author  $a: Book } return { $a } }", Code.BINDING, 1, 33, "cannot be rebound to Book");
  }

  @Test
  void traversalErrors() {
    assertCheckError("query q() { match { $a: Author  $a likes $b } return { $a } }", Code.T4, 1, 36, "unknown edge 'likes'");
    assertCheckError("query q() { match { $a: Note  $a wrote $b } return { $a } }", Code.T5, 1, 31, "edge Wrote connects Author -> Book");
    assertCheckError("query q() { match { $a: Book  $a cites{1,} $b } return { $a } }", Code.T15, 1, 34, "unbounded traversal is disabled");
    assertCheckError("query q() { match { $a: Book  $a cites{0,2} $b } return { $a } }", Code.T15, 1, 34, "at least 1");
    assertCheckError("query q() { match { $a: Book  $a cites{3,2} $b } return { $a } }", Code.T15, 1, 34, "below the minimum");
    assertCheckError("query q() { match { $a: Author  $a <wrote> $b } return { $a } }", Code.T22, 1, 37, "undirected traversal");
    assertCheckError("query q() { match { $a: Book  $a $w: cites{1,2} $b } return { $a } }", Code.T23, 1, 38, "single-hop");
    assertCheckError("query q() { match { $a: Author  $a $a: wrote $b } return { $a } }", Code.T23, 1, 33, "fresh name");
  }

  @Test
  void expressionErrors() {
    assertCheckError("query q() { match { $a: Author  $a.nick = \"x\" } return { $a } }", Code.T6, 1, 33, "has no property 'nick'");
    assertCheckError("query q() { match { $a: Author  $z.handle = \"x\" } return { $a } }", Code.T6, 1, 33, "unbound variable '$z'");
    assertCheckError("query q() { match { $a: Author } return { $b } }", Code.T6, 1, 43, "unbound variable '$b'");
    assertCheckError("query q() { match { $a: Author } return { $a } order { n } }", Code.T6, 1, 56, "unknown alias 'n'");
    assertCheckError("query q($v: Vector(3)) { match { $b: Book } return { $b } order { nearest($b.blurb_vec, $v) } }", Code.T17, 1, 67,
        "requires a limit");
  }

  @Test
  void operandAndAggregateErrors() {
    assertCheckError("query q() { match { $a: Author  $a.tags = \"x\" } return { $a } }", Code.T7, 1, 33, "cannot compare [String] values");
    assertCheckError("query q() { match { $b: Book  $b.year = \"x\" } return { $b } }", Code.T7, 1, 31, "cannot compare I32 with String");
    assertCheckError("query q() { match { $b: Book  $b.year contains 1 } return { $b } }", Code.T7, 1, 31, "contains needs a list or a String");
    assertCheckError("query q() { match { $a: Author  $a.tags contains 1 } return { $a } }", Code.T7, 1, 33, "needs a String on the right");
    assertCheckError("query q() { match { $b: Book  $b.year starts_with \"1\" } return { $b } }", Code.T7, 1, 31, "starts_with needs String");
    assertCheckError("query q() { match { $b: Book  $b.cover = \"1\" } return { $b } }", Code.T7, 1, 31, "cannot compare Blob values");
    assertCheckError("query q() { match { $b: Book } return { sum($b.title) } }", Code.T8, 1, 41, "sum(...) needs a numeric argument");
    assertCheckError("query q() { match { $b: Book } return { max($b.blurb_vec) } }", Code.T8, 1, 41, "numeric or String");
    assertCheckError("query q() { match { $b: Book } return { count($b) 5 } }", Code.T9, 1, 51, "group key");
    assertCheckError("query q() { match { $b: Book  not { $x: Note } } return { $b } }", Code.T9, 1, 31, "must reference at least one variable");
    assertCheckError("query q() { match { $b: Book } return { $b.cover } }", Code.T24, 1, 41, "Blob values cannot be returned");
    assertCheckError("query q() { match { $a: Author  $a $w: wrote $b } return { $w } }", Code.T23, 1, 60, "cannot be projected bare");
  }

  @Test
  void searchAndRankingErrors() {
    assertCheckError("query q() { match { $b: Book  search($b.year, \"x\") } return { $b } }", Code.T19, 1, 31, "needs a String property");
    assertCheckError("query q() { match { $b: Book  match_text($b.title) } return { $b } }", Code.T20, 1, 31, "takes 2 arguments");
    assertCheckError("query q($v: Vector(4)) { match { $b: Book } return { $b } order { nearest($b.blurb_vec, $v) } limit 3 }",
        Code.T15, 1, 67, "needs a Vector(3) parameter");
    assertCheckError("query q() { match { $b: Book } return { $b } order { nearest($b.title, \"x\") } limit 3 }",
        Code.T15, 1, 54, "needs a Vector property");
    assertCheckError("query q() { match { $b: Book } return { $b.title as t } order { nearest($b.blurb_vec, [1, 2, 3]), t } limit 3 }",
        Code.T18, 1, 65, "alias orderings cannot be combined");
    assertCheckError("query q() { match { $b: Book } return { $b } order { rrf(nearest($b.blurb_vec, \"x\"), $b.title) } limit 3 }",
        Code.T21, 1, 86, "must be nearest(...) or bm25(...)");
    assertCheckError("query q() { match { $b: Book } return { $b } order { rrf(nearest($b.blurb_vec, \"x\"), bm25($b.title, \"y\")) } }",
        Code.T21, 1, 54, "requires a limit");
  }

  @Test
  void searchAndRankingWellTyped() throws Exception {
    GqTestSupport.compile("""
        query s($q: String, $v: Vector(3)) {
          match { $b: Book  search($b.title, $q)  fuzzy($b.title, $q, 1) }
          return { $b.isbn }
          order { rrf(nearest($b.blurb_vec, $v), bm25($b.title, $q), 60) }
          limit 5
        }
        """, "s");
  }
}
