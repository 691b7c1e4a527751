package io.omnigraph.engine.gq;

import static io.omnigraph.engine.gq.GqTestSupport.assertParseError;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.gq.QueryAst.*;
import io.omnigraph.engine.gq.QueryException.Code;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.SourcePos;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class GqParserTest {
  static final String EXAMPLES =
      """
      query books_by($h: String) @description("books written by one author") {
        match {
          $a: Author { handle: $h }
          $a wrote $b
          $b.year >= 1950
        }
        return { $b.title, $b.year }
        order { $b.year desc }
        limit 20
      }

      query prolific($min: I64) {
        match { $a: Author  $a wrote $b }
        return { $a.handle, count($b) as n }
        order { n desc }
      }

      query uncited() {
        match { $b: Book  not { $_ cites $b } }
        return { $b.isbn }
      }

      query citation_web($isbn: String) {
        match { $s: Book { isbn: $isbn }  $s cites{1,3} $t }
        return { $t.isbn, $t.title }
      }

      query similar($q: String) {
        match { $b: Book { status: "in_print" } }
        return { $b.isbn, $b.title }
        order { nearest($b.blurb_vec, $q) }
        limit 5
      }

      query add_author($h: String, $n: String) {
        insert Author { handle: $h, full_name: $n }
      }

      query credit($h: String, $isbn: String) {
        insert Wrote { from: $h, to: $isbn, role: "lead" }
      }

      query retire($isbn: String) {
        update Book set { status: "out_of_print" } where isbn = $isbn
      }

      query purge_author($h: String) {
        delete Author where handle = $h        // cascades Wrote edges
      }
      """;

  @Nested
  class GoodInputs {
    @Test
    void theLanguageReferenceExamplesParse() throws Exception {
      QueryAst.File f = GqCompiler.parse(EXAMPLES);
      assertThat(f.queries()).extracting(QueryDecl::name).containsExactly(
          "books_by", "prolific", "uncited", "citation_web", "similar", "add_author", "credit", "retire", "purge_author");
      QueryDecl booksBy = f.query("books_by").orElseThrow();
      assertThat(booksBy.description()).contains("books written by one author");
      assertThat(booksBy.params()).containsExactly(
          new ParamDecl("h", new PropertyType.Scalar(ScalarKind.STRING), false, new SourcePos(1, 16)));
      ReadBody read = (ReadBody) booksBy.body();
      assertThat(read.match()).hasSize(3);
      assertThat(read.match().get(0)).isEqualTo(new Binding("a", "Author", new SourcePos(3, 9),
          List.of(new PropMatch("handle", new SourcePos(3, 18), new ParamRef("h", new SourcePos(3, 26)))), new SourcePos(3, 5)));
      assertThat(read.match().get(1)).isInstanceOfSatisfying(Traversal.class, t -> {
        assertThat(t.source()).isEqualTo("a");
        assertThat(t.edgeName()).isEqualTo("wrote");
        assertThat(t.target()).isEqualTo("b");
        assertThat(t.maxHops()).contains(BigInteger.ONE);
      });
      assertThat(read.match().get(2)).isInstanceOfSatisfying(QueryAst.Filter.class, fl -> {
        assertThat(fl.left()).isEqualTo(new PropAccess("b", "year", new SourcePos(5, 5)));
        assertThat(fl.op()).isEqualTo(FilterOp.GE);
      });
      assertThat(read.orderings()).singleElement().satisfies(o -> assertThat(o.descending()).isTrue());
      assertThat(read.limit().orElseThrow().value()).isEqualTo(20);

      ReadBody web = (ReadBody) f.query("citation_web").orElseThrow().body();
      assertThat(web.match().get(1)).isInstanceOfSatisfying(Traversal.class, t -> {
        assertThat(t.minHops()).isEqualTo(1);
        assertThat(t.maxHops()).contains(BigInteger.valueOf(3));
      });
      ReadBody uncited = (ReadBody) f.query("uncited").orElseThrow().body();
      assertThat(uncited.match().get(1)).isInstanceOf(Negation.class);
      ReadBody prolific = (ReadBody) f.query("prolific").orElseThrow().body();
      assertThat(prolific.projections().get(1)).isEqualTo(new Projection(
          new Call(Function.COUNT, List.of(new VarRef("b", new SourcePos(14, 29))), new SourcePos(14, 23)), Optional.of("n")));
      assertThat(prolific.orderings().get(0).expr()).isEqualTo(new AliasRef("n", new SourcePos(15, 11)));
    }

    @Test
    void mutationStatementsParseWithPositions() throws Exception {
      QueryAst.File f = GqCompiler.parse(EXAMPLES);
      MutationBody credit = (MutationBody) f.query("credit").orElseThrow().body();
      assertThat(credit.statements()).singleElement().isEqualTo(new Insert("Wrote", new SourcePos(40, 3), new SourcePos(40, 10), List.of(
          new Assignment("from", new SourcePos(40, 18), new ParamRef("h", new SourcePos(40, 24))),
          new Assignment("to", new SourcePos(40, 28), new ParamRef("isbn", new SourcePos(40, 32))),
          new Assignment("role", new SourcePos(40, 39), new LiteralValue(new StringLit("lead", new SourcePos(40, 45)))))));
      MutationBody retire = (MutationBody) f.query("retire").orElseThrow().body();
      assertThat(retire.statements().get(0)).isInstanceOfSatisfying(Update.class, u -> {
        assertThat(u.where()).isEqualTo(new Predicate("isbn", new SourcePos(44, 52), CompOp.EQ, new ParamRef("isbn", new SourcePos(44, 59))));
      });
      MutationBody purge = (MutationBody) f.query("purge_author").orElseThrow().body();
      assertThat(purge.statements().get(0)).isInstanceOf(Delete.class);
    }

    @Test
    void literalsOfEveryKindAndOptionalCommasParse() throws Exception {
      QueryAst.File f = GqCompiler.parse("""
          query q($t: [String]?, $v: Vector(3), $when: DateTime?) {
            insert Book { isbn: "1" year: 1954, rating: 4.25, status: "draft", title: "a \\"q\\" \\\\ b"
              blurb_vec: [1, 2.5, 3] updated: datetime("2024-05-01T12:00:00Z") }
            insert Author { handle: "h", full_name: "x", born: date("1892-01-03"), tags: [], active: true }
            update Book set { updated: now() } where year >= 0
          }
          """);
      QueryDecl q = f.queries().get(0);
      assertThat(q.params()).extracting(ParamDecl::typeSpelling).containsExactly("[String]?", "Vector(3)", "DateTime?");
      MutationBody body = (MutationBody) q.body();
      Insert book = (Insert) body.statements().get(0);
      assertThat(book.assignments()).extracting(a -> ((LiteralValue) a.value()).literal().getClass().getSimpleName())
          .containsExactly("StringLit", "IntLit", "FloatLit", "StringLit", "StringLit", "ListLit", "DateTimeLit");
      assertThat(((LiteralValue) book.assignments().get(2).value()).literal()).isEqualTo(new FloatLit(new BigDecimal("4.25"), new SourcePos(2, 47)));
      assertThat(((LiteralValue) book.assignments().get(4).value()).literal()).isEqualTo(new StringLit("a \"q\" \\ b", new SourcePos(2, 77)));
      Update up = (Update) body.statements().get(2);
      assertThat(up.assignments().get(0).value()).isInstanceOf(Now.class);
    }

    @Test
    void edgeBindingsUndirectedTraversalsTextSearchAndFiltersParse() throws Exception {
      QueryAst.File f = GqCompiler.parse("""
          query q($q: String) {
            match {
              $a: Author
              $a $w: wrote $b
              $b <cites> $c
              search($b.title, $q)
              $b.title contains "x"
              $x < 5
            }
            return { $w.role }
          }
          """);
      ReadBody body = (ReadBody) f.queries().get(0).body();
      assertThat(body.match().get(1)).isInstanceOfSatisfying(Traversal.class, t -> assertThat(t.edgeVariable()).contains("w"));
      assertThat(body.match().get(2)).isInstanceOfSatisfying(Traversal.class, t -> assertThat(t.undirected()).isTrue());
      assertThat(body.match().get(3)).isInstanceOf(TextSearch.class);
      assertThat(body.match().get(4)).isInstanceOfSatisfying(QueryAst.Filter.class, fl -> assertThat(fl.op()).isEqualTo(FilterOp.CONTAINS));
      assertThat(body.match().get(5)).isInstanceOfSatisfying(QueryAst.Filter.class, fl -> assertThat(fl.op()).isEqualTo(FilterOp.LT));
    }
  }

  @Nested
  class BadInputs {
    @Test
    void d2MixingDeleteWithInsertOrUpdateIsRejectedAtTheFirstOffendingStatement() {
      assertParseError("""
          query mixed($h: String) {
            insert Author { handle: $h, full_name: "x" }
            update Author set { full_name: "y" } where handle = $h
            delete Author where handle = "old"
          }
          """, Code.MIXED_MUTATION, 4, 3, "mutation 'mixed' mixes inserts/updates and deletes; split it into separate mutations");
      assertParseError("""
          query mixed2() {
            delete Note where text = "a"
            insert Note { text: "b" }
          }
          """, Code.MIXED_MUTATION, 3, 3, "(1) inserts and updates, then (2) deletes");
    }

    @Test
    void d2IsAParseTimeRuleSoItHoldsEvenForUnknownTypes() {
      assertParseError("query m() { delete Nope where x = 1 update Nope set { x: 1 } where x = 2 }",
          Code.MIXED_MUTATION, 1, 37, "split");
    }

    @Test
    void syntaxErrorsSayWhatWasExpectedWhere() {
      assertParseError("query q() {\n  insert Author handle: 1 }", Code.SYNTAX, 2, 17, "expected '{', found 'handle'");
      assertParseError("query q() { insert author { a: 1 } }", Code.SYNTAX, 1, 20, "expected a node or edge type name (starting with an uppercase letter)");
      assertParseError("query q() { update Note { text: 1 } where text = 1 }", Code.SYNTAX, 1, 25, "expected 'set'");
      assertParseError("query q() { delete Note text = 1 }", Code.SYNTAX, 1, 25, "expected 'where'");
      assertParseError("query q() { delete Note where text = 1 and x = 2 }", Code.SYNTAX, 1, 40, "exactly one comparison");
      assertParseError("query q() { delete Note where text contains \"a\" }", Code.SYNTAX, 1, 36, "'contains' is not allowed");
      assertParseError("query q() { delete Note where text = -1 }", Code.SYNTAX, 1, 38, "negative literals are not supported");
      assertParseError("query q() { delete Note where text = null }", Code.SYNTAX, 1, 38, "there is no null literal");
      assertParseError("query q() { insert Note { text: \"abc }", Code.SYNTAX, 1, 33, "unterminated string literal");
      assertParseError("query q() { }", Code.SYNTAX, 1, 13, "expected 'match', 'insert', 'update' or 'delete'");
      assertParseError("query q() { insert Note { text: 1.} }", Code.SYNTAX, 1, 34, "digits after the decimal point");
      assertParseError("query q() /* never closed", Code.SYNTAX, 1, 11, "unterminated block comment");
      assertParseError("node Author {}", Code.SYNTAX, 1, 1, "expected 'query'");
      assertParseError("query q($x String) { delete Note where text = $x }", Code.SYNTAX, 1, 12, "expected ':' and a type after '$x'");
      assertParseError("query q() { match { $a: Author $a Wrote $b } return { $a } }", Code.SYNTAX, 1, 35, "lowercase-initial");
      assertParseError("query q() { match { $a: Author } return { } }", Code.SYNTAX, 1, 43, "at least one projection");
      assertParseError("query q() { match { $b: Book } return { $b } order { nearest($b.blurb_vec, $q) desc } limit 1 }",
          Code.SYNTAX, 1, 80, "cannot take 'desc'");
      assertParseError("query q() { match { $b: Book {} } return { $b } }", Code.SYNTAX, 1, 30, "empty '{ }'");
    }

    @Test
    void declarationErrors() {
      assertParseError("query q() { delete Note where text = \"a\" }\nquery q() { delete Note where text = \"b\" }",
          Code.QUERY_NAME, 2, 7, "declared more than once");
      assertParseError("query q($a: String, $a: I32) { delete Note where text = $a }", Code.PARAM_DECL, 1, 21, "declared more than once");
      assertParseError("query q($a: Strng) { delete Note where text = $a }", Code.PARAM_DECL, 1, 13, "unknown parameter type `Strng` for `$a`");
      assertParseError("query q($a: enum(x)) { delete Note where text = $a }", Code.PARAM_DECL, 1, 13, "enum parameter types are not supported");
      assertParseError("query q($__nanograph_now: DateTime) { delete Note where text = \"a\" }", Code.PARAM_DECL, 1, 9, "reserved");
      assertParseError("query q() @description(\"a\") @description(\"b\") { delete Note where text = \"a\" }", Code.SYNTAX, 1, 30, "more than one @description");
      assertParseError("query q() @tag(\"a\") { delete Note where text = \"a\" }", Code.SYNTAX, 1, 12, "'description' or 'instruction'");
    }
  }
}
