package io.omnigraph.engine.read;

import static io.omnigraph.engine.read.ReadFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code order { nearest(...) } limit k}: exact k-NN after the match filters, typed error for a String query. */
class NearestQueryTest {
  static final String SCHEMA = "node Doc { name: String @key  kind: String  vec: Vector(2)? }";
  static final String DATA = """
      {"type":"Doc","data":{"name":"a","kind":"x","vec":[0.0,0.0]}}
      {"type":"Doc","data":{"name":"b","kind":"y","vec":[1.0,0.0]}}
      {"type":"Doc","data":{"name":"c","kind":"x","vec":[0.0,2.0]}}
      {"type":"Doc","data":{"name":"d","kind":"x","vec":[3.0,3.0]}}
      {"type":"Doc","data":{"name":"e","kind":"x"}}
      """;

  @TempDir Path dir;

  @Test
  void nearestIsExactTopKAfterTheMatchFilters() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, DATA);
      // b is the nearest document overall, but the prefilter (kind: "x") removes it before top-k
      assertThat(rows(g, """
          query q() { match { $d: Doc { kind: "x" } } return { $d.name } order { nearest($d.vec, [0.9, 0.1]) } limit 2 }
          """)).containsExactly("{\"d.name\":\"a\"}", "{\"d.name\":\"c\"}");
      assertThat(rows(g, """
          query q($q: Vector(2)) { match { $d: Doc } return { $d.name } order { nearest($d.vec, $q) } limit 9 }
          """, Map.of("q", List.of(3.0, 3.0)))).containsExactly("{\"d.name\":\"d\"}", "{\"d.name\":\"c\"}",
          "{\"d.name\":\"b\"}", "{\"d.name\":\"a\"}");
      assertThatThrownBy(() -> rows(g, """
          query q($t: String) { match { $d: Doc } return { $d.name } order { nearest($d.vec, $t) } limit 2 }
          """, Map.of("t", "hello")))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("embedding provider")
          .satisfies(e -> assertThat(((ErrorDetail.Validation) ((InvalidInputException) e).detail().orElseThrow()).rule())
              .isEqualTo("embedding_unavailable"));
    }
  }
}
