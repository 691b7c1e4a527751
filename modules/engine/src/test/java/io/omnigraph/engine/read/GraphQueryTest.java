package io.omnigraph.engine.read;

import static io.omnigraph.engine.read.ReadFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traversals, edge bindings, anonymous endpoints, negation, aggregates and joins on {@link
 * ReadFixture} with exact expected rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GraphQueryTest {
  @TempDir static Path dir;
  Graph g;

  @BeforeAll
  void setUp() {
    g = ReadFixture.create(dir);
  }

  @AfterAll
  void tearDown() {
    g.close();
  }

  static String n(String col, String v) {
    return "{\"" + col + "\":\"" + v + "\"}";
  }

  @Test
  void oneHopReportsEachDestinationOnceAndTheSourceOnlyThroughItsSelfLoop() {
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "ada" }  $a knows $b } return { $b.name } order { $b.name } }
        """)).containsExactly(n("b.name", "ada"), n("b.name", "bob"));
  }

  @Test
  void directionIsInferredFromTheBoundTypes() {
    assertThat(rows(g, """
        query q() { match { $c: Company { name: "acme" }  $p worksAt $c } return { $p.name } order { $p.name } }
        """)).containsExactly(n("p.name", "ada"), n("p.name", "bob"));
    assertThat(rows(g, """
        query q() { match { $b: Person { name: "cy" }  $a knows $b } return { $a.name } }
        """)).containsExactly(n("a.name", "bob"));
  }

  @Test
  void boundedHopsUseShortestDistanceAndASelfLoopIsNoExtraHop() {
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "ada" }  $a knows{2,3} $b } return { $b.name } order { $b.name } }
        """)).containsExactly(n("b.name", "cy"), n("b.name", "dee"));
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "ada" }  $a knows{2,2} $b } return { $b.name } }
        """)).containsExactly(n("b.name", "cy"));
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "ada" }  $a knows{1,9} $b } return { $b.name } order { $b.name } }
        """)).containsExactly(n("b.name", "ada"), n("b.name", "bob"), n("b.name", "cy"), n("b.name", "dee"));
  }

  @Test
  void undirectedHasSetSemantics() {
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "bob" }  $a <knows> $b } return { $b.name } order { $b.name } }
        """)).containsExactly(n("b.name", "ada"), n("b.name", "cy"));
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "ada" }  $a <knows> $b } return { $b.name } order { $b.name } }
        """)).containsExactly(n("b.name", "ada"), n("b.name", "bob"), n("b.name", "dee"));
  }

  @Test
  void edgeBindingGivesOneRowPerEdge() {
    assertThat(rows(g, """
        query q() { match { $a: Person { name: "ada" }  $a $k: knows $b } return { $b.name, $k.since } order { $k.since } }
        """)).containsExactly("{\"b.name\":\"ada\",\"k.since\":null}", "{\"b.name\":\"bob\",\"k.since\":2010}",
        "{\"b.name\":\"bob\",\"k.since\":2020}");
    assertThat(rows(g, """
        query q() { match { $a: Person  $a $k: knows $b  $k.since >= 2015 } return { $a.name, $b.name } order { $a.name } }
        """)).containsExactly("{\"a.name\":\"ada\",\"b.name\":\"bob\"}", "{\"a.name\":\"bob\",\"b.name\":\"cy\"}");
  }

  @Test
  void anonymousEndpoint() {
    assertThat(rows(g, """
        query q() { match { $p: Person  $p worksAt $_ } return { $p.name } order { $p.name } }
        """)).containsExactly(n("p.name", "ada"), n("p.name", "bob"), n("p.name", "dee"), n("p.name", "eve"));
  }

  @Test
  void negationIsAnAntiJoin() {
    assertThat(rows(g, """
        query q() { match { $p: Person  not { $p worksAt $_ } } return { $p.name } }
        """)).containsExactly(n("p.name", "cy"));
    assertThat(rows(g, """
        query q() { match { $p: Person  not { $_ knows $p } } return { $p.name } }
        """)).containsExactly(n("p.name", "eve"));
    assertThat(rows(g, """
        query q() { match { $p: Person  not { $p knows $q  $q.age > 30 } } return { $p.name } order { $p.name } }
        """)).containsExactly(n("p.name", "bob"), n("p.name", "eve"));
  }

  @Test
  void aggregatesGroupImplicitly() {
    assertThat(rows(g, """
        query q() { match { $p: Person  $p worksAt $c } return { $c.name, count($p) as n } order { n desc, $c.name } }
        """)).containsExactly("{\"c.name\":\"acme\",\"n\":2}", "{\"c.name\":\"blox\",\"n\":1}", "{\"c.name\":\"corp\",\"n\":1}");
    assertThat(rows(g, """
        query q() { match { $p: Person }
          return { count($p.age) as n, sum($p.age) as s, avg($p.age) as a, min($p.age) as lo, max($p.name) as hi } }
        """)).containsExactly("{\"n\":4,\"s\":127.0,\"a\":31.75,\"lo\":25,\"hi\":\"eve\"}");
  }

  @Test
  void emptyInputGivesOneRowWithoutKeysAndNoneWithKeys() {
    assertThat(rows(g, """
        query q() { match { $p: Person { name: "zed" } } return { count($p) as n, sum($p.age) as s, min($p.name) as m } }
        """)).containsExactly("{\"n\":0,\"s\":null,\"m\":null}");
    assertThat(rows(g, """
        query q() { match { $p: Person { name: "zed" } } return { $p.age, count($p) as n } }
        """)).isEmpty();
  }

  @Test
  void separateComponentsCrossJoin() {
    assertThat(rows(g, """
        query q() { match { $p: Person { name: "ada" }  $c: Company { city: "rome" } } return { $p.name, $c.name } }
        """)).containsExactly("{\"p.name\":\"ada\",\"c.name\":\"corp\"}");
  }

  @Test
  void aTraversalBetweenBoundVariablesChecksReachability() {
    assertThat(rows(g, """
        query q() { match { $a: Person  $b: Person  $a knows $b  $b knows $a } return { $a.name, $b.name } }
        """)).containsExactly("{\"a.name\":\"ada\",\"b.name\":\"ada\"}");
  }

  @Test
  void multiVariableFilters() {
    assertThat(rows(g, """
        query q() { match { $a: Person  $a knows $b  $a.age > $b.age } return { $a.name, $b.name } order { $a.name } }
        """)).containsExactly("{\"a.name\":\"ada\",\"b.name\":\"bob\"}", "{\"a.name\":\"dee\",\"b.name\":\"ada\"}");
  }
}
