package io.omnigraph.engine.gq;

import static io.omnigraph.engine.gq.GqTestSupport.assertCheckError;
import static io.omnigraph.engine.gq.GqTestSupport.mutation;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.gq.CheckedMutation;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.gq.QueryException.Code;
import io.omnigraph.engine.plan.MutationPlan.Statement;
import io.omnigraph.engine.plan.MutationBinder;
import io.omnigraph.engine.plan.MutationPlan;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.table.LanceFilter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class MutationCheckerTest {
  static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678901Z");

  @Nested
  class Plans {
    @Test
    void keyedNodeInsertIsAnUpsertWithEveryColumnInTableOrder() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("""
          query add($h: String, $n: String) { insert Author { full_name: $n, handle: $h, score: 1 } }
          """), Map.of("h", "tolkien", "n", "J. R. R."), NOW);
      assertThat(plan.mode()).isEqualTo(MutationPlan.Mode.CONSTRUCTIVE);
      assertThat(plan.statements()).singleElement().isInstanceOfSatisfying(Statement.InsertNode.class, s -> {
        assertThat(s.upsert()).isTrue();
        assertThat(s.tableKey()).isEqualTo("node:Author");
        assertThat(s.values().keySet()).containsExactly("handle", "full_name", "born", "tags", "active", "score");
        assertThat(s.values()).containsEntry("handle", "tolkien").containsEntry("full_name", "J. R. R.")
            .containsEntry("born", null).containsEntry("score", 1.0f);
      });
      assertThat(plan.touchedTables()).containsExactly("node:Author");
    }

    @Test
    void keyIdsDeriveFromTheKeyLikeTheLoaderDoes() throws Exception {
      var schema = io.omnigraph.engine.schema.SchemaCompiler.compileForInit(
          "node Ed { author: String  year: I32  title: String?  @key(author, year) }\nnode Slug { slug: String @key }",
          io.omnigraph.engine.schema.Ulid.generate());
      var one = (Statement.InsertNode) MutationBinder.bind(((CheckedMutation) GqCompiler.compile(schema.catalog(),
          "query q($y: I32) { insert Ed { year: $y, author: \"tolkien\" } }", "q")), Map.of("y", 1954), NOW).statements().get(0);
      assertThat(one.keyId(schema)).contains("[\"tolkien\",\"1954\"]");
      var slug = (Statement.InsertNode) MutationBinder.bind(((CheckedMutation) GqCompiler.compile(schema.catalog(),
          "query q() { insert Slug { slug: \"dune\" } }", "q")), Map.of(), NOW).statements().get(0);
      assertThat(slug.keyId(schema)).contains("dune");
    }

    @Test
    void unkeyedNodeInsertIsStrict() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("query n() { insert Note { text: \"hi\" } }"), Map.of(), NOW);
      assertThat(((Statement.InsertNode) plan.statements().get(0)).upsert()).isFalse();
    }

    @Test
    void edgeInsertResolvesEndpointsAndCaseInsensitiveTypeName() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("""
          query credit($h: String, $isbn: String) { insert WROTE { from: $h, to: $isbn, role: "lead" } }
          """), Map.of("h", "tolkien", "isbn", "978-0"), NOW);
      assertThat(plan.statements()).singleElement().isInstanceOfSatisfying(Statement.InsertEdge.class, e -> {
        assertThat(e.type().name()).isEqualTo("Wrote");
        assertThat(e.from()).isEqualTo("tolkien");
        assertThat(e.to()).isEqualTo("978-0");
        assertThat(e.values()).containsEntry("role", "lead").containsEntry("order", null);
      });
    }

    @Test
    void updateCarriesOnlyAssignedColumnsAndATypedPredicate() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("""
          query retire($y: I64) { update Book set { status: "out_of_print", updated: now() } where year < $y }
          """), Map.of("y", 1950), NOW);
      Statement.UpdateNodes u = (Statement.UpdateNodes) plan.statements().get(0);
      assertThat(u.assignments()).containsExactly(Map.entry("status", "out_of_print"), Map.entry("updated", NOW.toEpochMilli() / 1000 * 1000 + 678));
      assertThat(plan.now()).isEqualTo(Instant.parse("2026-01-02T03:04:05.678Z"));
      assertThat(u.where()).isInstanceOfSatisfying(RowFilter.Compare.class, c -> {
        assertThat(c.column().name()).isEqualTo("year");
        assertThat(c.op()).isEqualTo(CompOp.LT);
        assertThat(c.value()).isEqualTo(1950); // converted from the I64 parameter to the I32 column
      });
      assertThat(LanceFilter.of(u.where()).sql()).isEqualTo("(`year` < CAST(1950 AS INT))");
    }

    @Test
    void multiStatementConstructiveMutationKeepsOrder() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("""
          query both($h: String) {
            insert Author { handle: $h, full_name: "x" }
            insert Book { isbn: "1", year: 2000, status: "draft", title: "t", blurb_vec: [1, 2, 3] }
            insert Wrote { from: $h, to: "1" }
            update Author set { active: true } where handle = $h
          }
          """), Map.of("h", "a"), NOW);
      assertThat(plan.statements()).extracting(s -> s.getClass().getSimpleName())
          .containsExactly("InsertNode", "InsertNode", "InsertEdge", "UpdateNodes");
      assertThat(plan.touchedTables()).containsExactly("node:Author", "node:Book", "edge:Wrote");
    }

    @Test
    void nodeDeleteCascadesToEveryIncidentEdgeType() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("query purge() { delete Book where isbn = \"1\" }"), Map.of(), NOW);
      Statement.DeleteNodes d = (Statement.DeleteNodes) plan.statements().get(0);
      assertThat(plan.mode()).isEqualTo(MutationPlan.Mode.DESTRUCTIVE);
      assertThat(d.cascadeEdges()).extracting(e -> e.name()).containsExactly("Wrote", "Cites");
      assertThat(plan.touchedTables()).containsExactly("node:Book", "edge:Wrote", "edge:Cites");
      var wrote = d.cascadeEdges().get(0);
      var cites = d.cascadeEdges().get(1);
      assertThat(LanceFilter.of(d.cascadeFilter(wrote, List.of("1"))).sql()).isEqualTo("(`dst` IN ('1'))");
      assertThat(LanceFilter.of(d.cascadeFilter(cites, List.of("1", "o'k"))).sql()).isEqualTo("((`src` IN ('1', 'o''k')) OR (`dst` IN ('1', 'o''k')))");
    }

    @Test
    void edgeDeleteMapsFromAndToToSrcAndDst() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("query un($h: String) { delete Wrote where from = $h }"), Map.of("h", "x"), NOW);
      Statement.DeleteEdges d = (Statement.DeleteEdges) plan.statements().get(0);
      assertThat(LanceFilter.of(d.where()).sql()).isEqualTo("(`src` = 'x')");
    }

    @Test
    void embedSourceSatisfiesARequiredVector() throws Exception {
      MutationPlan plan = MutationBinder.bind(mutation("""
          query b() { insert Book { isbn: "1", year: 2000, status: "draft", title: "t", blurb: "text" } }
          """), Map.of(), NOW);
      assertThat(((Statement.InsertNode) plan.statements().get(0)).embedTargets()).containsExactly("blurb_vec");
    }
  }

  @Nested
  class Errors {
    @Test
    void unknownTypeIsT10() {
      assertCheckError("query q() { insert Person { name: \"a\" } }", Code.T10, 1, 20, "unknown node or edge type 'Person'");
      assertCheckError("query q() { delete Person where name = \"a\" }", Code.T10, 1, 20, "unknown node or edge type");
    }

    @Test
    void emptyAssignmentsAreT10() {
      assertCheckError("query q() { insert Note { } }", Code.T10, 1, 13, "has no assignments");
      assertCheckError("query q() { update Note set { } where text = \"a\" }", Code.T10, 1, 13, "has no assignments");
    }

    @Test
    void unknownPropertiesAreT11() {
      assertCheckError("query q() { insert Note { text: \"a\", body: \"b\" } }", Code.T11, 1, 38, "node type Note has no property 'body'");
      assertCheckError("query q() { update Note set { body: \"b\" } where text = \"a\" }", Code.T11, 1, 31, "no property 'body'");
      assertCheckError("query q() { delete Note where body = \"a\" }", Code.T11, 1, 31, "no property 'body'");
      assertCheckError("query q() { insert Wrote { from: \"a\", to: \"b\", rank: 1 } }", Code.T11, 1, 48, "edge type Wrote has no property 'rank'");
      assertCheckError("query q() { insert Wrote { src: \"a\", to: \"b\" } }", Code.T11, 1, 28, "write the endpoints as from: and to:");
      assertCheckError("query q() { insert Note { id: \"a\", text: \"b\" } }", Code.T11, 1, 27, "'id' is a system column");
      assertCheckError("query q() { delete Book where cover = \"a\" }", Code.T11, 1, 31, "Blob property 'cover' cannot be used in a where predicate");
    }

    @Test
    void missingRequiredPropertiesAreT12() {
      assertCheckError("query q() {\n  insert Author { handle: \"h\" } }", Code.T12, 2, 3, "insert Author is missing required property 'full_name' (String)");
      assertCheckError("query q() { insert Book { isbn: \"1\", year: 1, status: \"draft\", title: \"t\" } }", Code.T12, 1, 13,
          "missing required property 'blurb_vec' (Vector(3)) or its @embed source 'blurb'");
      assertCheckError("query q() { insert Wrote { from: \"a\" } }", Code.T12, 1, 13, "needs both endpoints");
      assertCheckError("query q() { insert Cites { to: \"a\" } }", Code.T12, 1, 13, "(missing from)");
    }

    @Test
    void duplicateAssignmentIsT13() {
      assertCheckError("query q() { insert Note { text: \"a\", text: \"b\" } }", Code.T13, 1, 38, "assigned more than once");
    }

    @Test
    void undeclaredParameterIsT14() {
      assertCheckError("query q($a: String) { insert Note { text: $b } }", Code.T14, 1, 43, "'$b' is not a declared parameter of query 'q' (declared: $a)");
      assertCheckError("query q() { delete Note where text = $x }", Code.T14, 1, 38, "(it declares none)");
    }

    @Test
    void updateOnAnEdgeIsT16() {
      assertCheckError("query q() { update Wrote set { role: \"x\" } where role = \"y\" }", Code.T16, 1, 20, "update is not supported on edge type Wrote");
    }

    @Test
    void keyAndIdAreImmutableInUpdates() {
      assertCheckError("query q() { update Author set { handle: \"x\" } where handle = \"y\" }", Code.IMMUTABLE_PROPERTY, 1, 33,
          "cannot update @key property 'handle' — delete and re-insert instead");
      assertCheckError("query q() { update Note set { id: \"x\" } where text = \"y\" }", Code.IMMUTABLE_PROPERTY, 1, 31, "cannot update 'id'");
    }

    @Test
    void literalTypeMismatchesAreT3() {
      assertCheckError("query q() { insert Note { text: 5 } }", Code.T3, 1, 33, "Note.text has type String; integer 5 does not fit");
      assertCheckError("query q() { update Book set { year: 1.5 } where isbn = \"1\" }", Code.T3, 1, 37, "a decimal literal does not fit");
      assertCheckError("query q() { update Book set { year: 3000000000 } where isbn = \"1\" }", Code.T3, 1, 37, "out of range for Book.year (I32)");
      assertCheckError("query q() { update Book set { status: \"gone\" } where isbn = \"1\" }", Code.T3, 1, 39,
          "invalid enum value 'gone' for Book.status (expected: draft, in_print, out_of_print)");
      assertCheckError("query q() { delete Book where status = \"gone\" }", Code.T3, 1, 40, "invalid enum value 'gone'");
      assertCheckError("query q() { update Book set { blurb_vec: [1, 2] } where isbn = \"1\" }", Code.T3, 1, 42, "has 2 values, expected 3");
      assertCheckError("query q() { update Author set { born: \"1892-01-03\" } where handle = \"1\" }", Code.T3, 1, 39, "write date(\"1892-01-03\")");
      assertCheckError("query q() { update Author set { born: date(\"1892-13-03\") } where handle = \"1\" }", Code.T3, 1, 39, "not a valid date");
      assertCheckError("query q() { update Book set { updated: datetime(\"noon\") } where isbn = \"1\" }", Code.T3, 1, 40, "not a valid date-time");
      assertCheckError("query q() { update Author set { born: now() } where handle = \"1\" }", Code.T3, 1, 39, "now() is a DateTime");
      assertCheckError("query q() { update Book set { cover: \"x\" } where isbn = \"1\" }", Code.T3, 1, 38, "Blob values can only be passed as a Blob parameter");
      assertCheckError("query q() { update Author set { tags: \"sf\" } where handle = \"1\" }", Code.T3, 1, 39, "write a list literal");
      assertCheckError("query q() { update Author set { tags: [1] } where handle = \"1\" }", Code.T3, 1, 40, "Author.tags item has type String");
      assertCheckError("query q() { insert Note { text: \"\uD800\" } }", Code.T3, 1, 33, "unpaired surrogate");
    }

    @Test
    void parameterTypeMismatches() {
      assertCheckError("query q($y: String) { update Book set { year: $y } where isbn = \"1\" }", Code.T3, 1, 47,
          "$y (String) does not fit Book.year: a String parameter cannot be used for a I32 column");
      assertCheckError("query q($r: F64) { delete Book where year = $r }", Code.T7, 1, 45, "does not fit Book.year");
      assertCheckError("query q($s: I32) { update Book set { status: $s } where isbn = \"1\" }", Code.T3, 1, 46, "does not fit Book.status");
    }

    @Test
    void predicateOperandErrorsAreT7() {
      assertCheckError("query q() { delete Author where tags = \"x\" }", Code.T7, 1, 33, "lists and vectors cannot be compared");
      assertCheckError("query q() { delete Author where active > true }", Code.T7, 1, 33, "can only be compared with = or !=");
    }
  }
}
