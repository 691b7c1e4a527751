package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the executor holds is bounded by the result, not by the rows it scans (docs/queries.md,
 * "Execution"): {@code order … limit n} keeps a top-n heap even when every row is scanned and
 * expanded, {@code limit n} without an order stops the pipeline within the first piece, and an
 * aggregate holds one entry per group. Measured by the executor's counters ({@code result rows
 * held (max)}: rows, heap entries or groups held at once after each piece; {@code rows expanded
 * <Edge>}: source rows the traversal processed), not by timing.
 */
class ResultBoundsTest {
  static final int PEOPLE = 4000;
  static final int COMPANIES = 20;

  @TempDir Path dir;
  private final List<Map<String, Integer>> stats = new ArrayList<>();

  @BeforeEach
  void seam() {
    ReadExecutor.onFinish = stats::add;
  }

  @AfterEach
  void reset() {
    ReadExecutor.onFinish = s -> { };
  }

  private Graph create() {
    Graph g = Omnigraph.init(dir.resolve("g").toString(), ReadFixture.SCHEMA);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < COMPANIES; i++) {
      b.append("{\"type\":\"Company\",\"data\":{\"name\":\"c").append(i).append("\"}}\n");
    }
    for (int i = 0; i < PEOPLE; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":").append(i % 50).append("}}\n");
      b.append("{\"edge\":\"WorksAt\",\"from\":\"p").append(i).append("\",\"to\":\"c").append(i % COMPANIES)
          .append("\",\"data\":{}}\n");
    }
    GraphIo.load(g, LoadMode.OVERWRITE, b.toString());
    return g;
  }

  private Map<String, Integer> last() {
    return stats.get(stats.size() - 1);
  }

  @Test
  void orderWithLimitHoldsATopNHeapWhileEveryRowIsExpanded() {
    try (Graph g = create()) {
      String q = "query q() { match { $p: Person  $p worksAt $c } return { $p.name, $c.name } order { $p.age desc }%s }";
      List<String> all = ReadFixture.rows(g, String.format(q, ""));
      assertThat(all).hasSize(PEOPLE);
      assertThat(last().get("result rows held (max)")).as("an unlimited ordering holds its whole result").isEqualTo(PEOPLE);

      List<String> top = ReadFixture.rows(g, String.format(q, " limit 5"));
      assertThat(top).isEqualTo(all.subList(0, 5));
      assertThat(last().get("rows expanded WorksAt")).as("the ordering needs every row").isEqualTo(PEOPLE);
      assertThat(last().get("result rows held (max)")).as("only the top-5 heap is held").isLessThanOrEqualTo(5);
    }
  }

  @Test
  void limitWithoutOrderStopsThePipelineWithinTheFirstPiece() {
    try (Graph g = create()) {
      List<String> rows = ReadFixture.rows(g, "query q() { match { $p: Person  $p worksAt $c } return { $p.name, $c.name } limit 5 }");
      assertThat(rows).hasSize(5);
      assertThat(last().get("rows expanded WorksAt")).as("source rows expanded before the limit stopped the scan")
          .isLessThanOrEqualTo(ReadExecutor.PIECE).isLessThan(PEOPLE);
      assertThat(last().get("result rows held (max)")).isLessThanOrEqualTo(5);
    }
  }

  @Test
  void anAggregateHoldsOneEntryPerGroup() {
    try (Graph g = create()) {
      List<String> rows = ReadFixture.rows(g,
          "query q() { match { $p: Person  $p worksAt $c } return { $c.name, count($p) as n } order { $c.name } }");
      assertThat(rows).hasSize(COMPANIES).allMatch(r -> r.contains("\"n\":" + PEOPLE / COMPANIES));
      assertThat(last().get("rows expanded WorksAt")).isEqualTo(PEOPLE);
      assertThat(last().get("result rows held (max)")).isEqualTo(COMPANIES);
    }
  }
}
