package io.omnigraph.engine.read;

import static io.omnigraph.engine.read.ReadFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Node bindings, property matches, filters, projection, order and limit with exact rows. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeQueryTest {
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

  @Test
  void propertyMatchAndOrder() {
    assertThat(rows(g, """
        query q() { match { $p: Person { age: 25 } } return { $p.name, $p.age } order { $p.name desc } }
        """)).containsExactly("{\"p.name\":\"eve\",\"p.age\":25}", "{\"p.name\":\"bob\",\"p.age\":25}");
  }

  @Test
  void listPropertyMatchIsMembership() {
    assertThat(rows(g, """
        query q() { match { $p: Person { tags: "math" } } return { $p.name } order { $p.name } }
        """)).containsExactly("{\"p.name\":\"ada\"}", "{\"p.name\":\"dee\"}");
  }

  @Test
  void filtersNeverMatchNull() {
    assertThat(rows(g, """
        query q() { match { $p: Person  $p.age != 25 } return { $p.name } order { $p.name } }
        """)).containsExactly("{\"p.name\":\"ada\"}", "{\"p.name\":\"dee\"}");
    assertThat(rows(g, """
        query q($a: I32?) { match { $p: Person  $p.age = $a } return { $p.name } }
        """, java.util.Collections.singletonMap("a", null))).isEmpty();
  }

  @Test
  void comparisonsAcrossNumericKinds() {
    assertThat(rows(g, """
        query q() { match { $p: Person  $p.age > 30.5 } return { $p.name } order { $p.name } }
        """)).containsExactly("{\"p.name\":\"ada\"}", "{\"p.name\":\"dee\"}");
    assertThat(rows(g, """
        query q($s: I64) { match { $p: Person  $s < $p.score } return { $p.name, $p.score } order { $p.score desc } }
        """, Map.of("s", 5))).containsExactly("{\"p.name\":\"ada\",\"p.score\":9.5}", "{\"p.name\":\"bob\",\"p.score\":7.25}");
  }

  @Test
  void containsAndStartsWith() {
    assertThat(rows(g, """
        query q() { match { $p: Person  $p.tags contains "art" } return { $p.name } }
        """)).containsExactly("{\"p.name\":\"bob\"}");
    assertThat(rows(g, """
        query q() { match { $c: Company  $c.city contains "ar" } return { $c.name } }
        """)).containsExactly("{\"c.name\":\"acme\"}");
    assertThat(rows(g, """
        query q() { match { $c: Company  $c.name starts_with "b" } return { $c.name } }
        """)).containsExactly("{\"c.name\":\"blox\"}");
  }

  @Test
  void nullsFirstAscendingLastDescendingAndIdTieBreak() {
    assertThat(rows(g, """
        query q() { match { $p: Person } return { $p.name, $p.age } order { $p.age } }
        """)).containsExactly("{\"p.name\":\"cy\",\"p.age\":null}", "{\"p.name\":\"bob\",\"p.age\":25}",
        "{\"p.name\":\"eve\",\"p.age\":25}", "{\"p.name\":\"ada\",\"p.age\":36}", "{\"p.name\":\"dee\",\"p.age\":41}");
    assertThat(rows(g, """
        query q() { match { $p: Person } return { $p.name, $p.age } order { $p.age desc } limit 4 }
        """)).containsExactly("{\"p.name\":\"dee\",\"p.age\":41}", "{\"p.name\":\"ada\",\"p.age\":36}",
        "{\"p.name\":\"bob\",\"p.age\":25}", "{\"p.name\":\"eve\",\"p.age\":25}");
  }

  @Test
  void aliasesNameColumnsAndOrder() {
    assertThat(rows(g, """
        query q() { match { $p: Person  $p.age >= 36 } return { $p.name as who, $p } order { who desc } }
        """)).containsExactly("{\"who\":\"dee\",\"p\":\"dee\"}", "{\"who\":\"ada\",\"p\":\"ada\"}");
  }

  @Test
  void limitWithoutOrderStopsEarly() {
    assertThat(rows(g, """
        query q() { match { $p: Person } return { $p.name } limit 2 }
        """)).hasSize(2);
  }

  @Test
  void typedValuesAndColumns() {
    try (QueryResult r = g.query("""
        query q() { match { $p: Person { name: "ada" } } return { $p.name, $p.age, $p.tags, $p.score, $p } }
        """, "q", QueryParams.none(), QueryOptions.defaults())) {
      assertThat(r.columns()).containsExactly(new QueryResult.Column("p.name", "String", false),
          new QueryResult.Column("p.age", "I32", true), new QueryResult.Column("p.tags", "[String]", true),
          new QueryResult.Column("p.score", "F64", true), new QueryResult.Column("p", "String", false));
      QueryResult.Row row = r.rows().get(0);
      assertThat(row.get("p.age")).isEqualTo(36);
      assertThat(row.get("p.tags")).isEqualTo(List.of("math", "poetry"));
      assertThat(row.get(3)).isEqualTo(9.5);
      assertThat(r.commitId()).isEqualTo(g.commits().get(0).id());
    }
  }

  @Test
  void typeErrorsCarryLineAndColumn() {
    assertThatThrownBy(() -> g.query("query q() {\n  match { $p: Persn }\n  return { $p.name }\n}", "q",
        QueryParams.none(), QueryOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(e -> {
          ErrorDetail.Validation v = (ErrorDetail.Validation) ((InvalidInputException) e).detail().orElseThrow();
          assertThat(v.rule()).isEqualTo("T1");
          assertThat(v.line()).isEqualTo(2L);
        });
  }

  @Test
  void mutationIsRefused() {
    assertThatThrownBy(() -> g.query("query m($n: String) { insert Person { name: $n } }", "m",
        QueryParams.of(Map.of("n", "x")), QueryOptions.defaults())).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("mutation");
  }

  @Test
  void unusedImportGuard() {
    assertThat(LocalDate.EPOCH).isNotNull();
  }
}
