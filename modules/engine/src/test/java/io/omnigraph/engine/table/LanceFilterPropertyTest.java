package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.plan.RowFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Arbitrary strings and numbers, written to a real Lance table: every rendered comparison selects in
 * Lance exactly the rows the in-memory evaluation selects, so quoting never changes a constant and
 * the two readings of a filter never disagree.
 */
class LanceFilterPropertyTest {

  @Property(tries = 12)
  void renderedStringComparisonsSelectWhatEvaluationSelects(@ForAll("strings") List<String> strings)
      throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String s : strings) {
      rows.add(Map.of("s", s));
    }
    Path dir = Files.createTempDirectory("filters");
    try (FilterTables t = new FilterTables(dir, rows)) {
      for (String s : strings) {
        for (CompOp op : List.of(CompOp.EQ, CompOp.LT, CompOp.GE)) {
          RowFilter f = new RowFilter.Compare(FilterTables.column("s"), op, s);
          assertThat(t.lanceSelects(f)).as(LanceFilter.of(f).sql()).isEqualTo(t.memorySelects(f));
        }
      }
      RowFilter in = new RowFilter.In(FilterTables.column("s"), List.copyOf(strings.subList(0, (strings.size() + 1) / 2)));
      assertThat(t.lanceSelects(in)).isEqualTo(t.memorySelects(in));
    }
  }

  @Property(tries = 8)
  void renderedNumericComparisonsSelectWhatEvaluationSelects(
      @ForAll @Size(min = 1, max = 10) List<Long> longs, @ForAll @Size(min = 1, max = 10) List<Double> doubles,
      @ForAll @Size(min = 1, max = 10) List<Float> floats) throws Exception {
    int n = Math.max(longs.size(), Math.max(doubles.size(), floats.size()));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Map<String, Object> row = new HashMap<>();
      if (i < longs.size()) {
        row.put("i64", longs.get(i));
        row.put("u64", longs.get(i));
      }
      if (i < doubles.size()) {
        row.put("f64", doubles.get(i));
      }
      if (i < floats.size()) {
        row.put("f32", floats.get(i));
      }
      rows.add(row);
    }
    Path dir = Files.createTempDirectory("filters");
    try (FilterTables t = new FilterTables(dir, rows)) {
      for (Map<String, Object> row : rows) {
        for (Map.Entry<String, Object> e : row.entrySet()) {
          for (CompOp op : List.of(CompOp.EQ, CompOp.GT, CompOp.LE)) {
            RowFilter f = new RowFilter.Compare(FilterTables.column(e.getKey()), op, e.getValue());
            assertThat(t.lanceSelects(f)).as(LanceFilter.of(f).sql()).isEqualTo(t.memorySelects(f));
          }
        }
      }
    }
  }

  @Provide
  Arbitrary<List<String>> strings() {
    Arbitrary<Integer> codePoint = Arbitraries.oneOf(
        Arbitraries.of((int) '\'', (int) '"', (int) '\\', (int) '`', (int) '%', (int) '_', 0, (int) '\n', (int) ' ', (int) 'a'),
        Arbitraries.integers().between(0, 0x7f),
        Arbitraries.integers().between(0x80, 0xD7FF),
        Arbitraries.integers().between(0xE000, 0xFFFF),
        Arbitraries.integers().between(0x10000, 0x10FFFF));
    return codePoint.list().ofMaxSize(10).map(cps -> {
      StringBuilder b = new StringBuilder();
      cps.forEach(b::appendCodePoint);
      return b.toString();
    }).list().ofMinSize(1).ofMaxSize(12);
  }
}
