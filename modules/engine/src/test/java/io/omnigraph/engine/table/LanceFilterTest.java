package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.plan.RowFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Rendered filters run in real Lance and select exactly what the in-memory evaluation selects. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LanceFilterTest {
  static final Map<String, List<Object>> VALUES = new HashMap<>();

  static {
    VALUES.put("s", List.of("", "a", "O'Brien", "''", "back\\slash", "\\'", "line\nbreak", "tab\t", "é", "€uro",
        "\uD83D\uDE00 emoji", "\uD83D\uDE00", "x\uD834\uDD1Ey\u0000z", "nul\u0000", "\uFFFD", "\uE000", "NULL", "a' OR '1'='1", "`tick`", "\"dq\"", "%_like", "z"));
    VALUES.put("b", List.of(true, false));
    VALUES.put("i32", List.of(Integer.MIN_VALUE, -1, 0, 1, 1954, Integer.MAX_VALUE));
    VALUES.put("i64", List.of(Long.MIN_VALUE, -1L, 0L, 1L, 1L << 53, (1L << 53) + 1, Long.MAX_VALUE));
    VALUES.put("u32", List.of(0L, 1L, 0x7fff_ffffL, 0x8000_0000L, 0xffff_ffffL));
    VALUES.put("u64", List.of(0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, -1L));
    VALUES.put("f32", List.of(0.0f, -0.0f, 0.1f, -1.5f, Float.MIN_VALUE, Float.MAX_VALUE, 16777217.0f, Float.NaN,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY));
    VALUES.put("f64", List.of(0.0, -0.0, 0.1, -1.5, Double.MIN_VALUE, Double.MAX_VALUE, 1e-300, 1e300, 9007199254740993.0,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
    VALUES.put("d", List.of(-719162, -1, 0, 19000, 2932896));
    VALUES.put("ts", List.of(Long.MIN_VALUE / 4, -1L, 0L, 1714564800123L, 253402300799999L));
  }

  @TempDir static Path dir;
  FilterTables table;

  @BeforeAll
  void createTable() {
    // Row r holds the r-th value of every column (null once a column runs out), plus an all-null row.
    int n = VALUES.values().stream().mapToInt(List::size).max().orElseThrow();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int r = 0; r <= n; r++) {
      Map<String, Object> row = new HashMap<>();
      for (String c : FilterTables.COLUMNS.keySet()) {
        List<Object> vs = VALUES.get(c);
        if (r < vs.size()) {
          row.put(c, vs.get(r));
        }
      }
      rows.add(row);
    }
    table = new FilterTables(dir, rows);
  }

  @AfterAll
  void close() {
    table.close();
  }

  @Test
  void everyComparisonOfEveryColumnWithEveryValueSelectsTheSameRowsInLanceAndInMemory() {
    int checked = 0;
    for (String c : FilterTables.COLUMNS.keySet()) {
      for (Object v : VALUES.get(c)) {
        for (CompOp op : CompOp.values()) {
          if (c.equals("b") && op != CompOp.EQ && op != CompOp.NE) {
            continue;
          }
          RowFilter f = new RowFilter.Compare(FilterTables.column(c), op, v);
          assertThat(table.lanceSelects(f)).as("%s -> %s", f, LanceFilter.of(f).sql()).isEqualTo(table.memorySelects(f));
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(400);
  }

  @Test
  void evaluatingOverArrowBatchesReadBackFromLanceAgreesWithLanceFiltering() {
    int checked = 0;
    for (String c : FilterTables.COLUMNS.keySet()) {
      for (Object v : VALUES.get(c)) {
        for (CompOp op : List.of(CompOp.EQ, CompOp.LT, CompOp.GE)) {
          if (c.equals("b") && op != CompOp.EQ) {
            continue;
          }
          RowFilter f = new RowFilter.Compare(FilterTables.column(c), op, v);
          assertThat(table.arrowSelects(f)).as(LanceFilter.of(f).sql()).isEqualTo(table.lanceSelects(f));
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(200);
  }

  @Test
  void equalityFindsExactlyTheRowHoldingAnAdversarialString() {
    List<Object> strings = VALUES.get("s");
    for (int i = 0; i < strings.size(); i++) {
      RowFilter f = new RowFilter.Compare(FilterTables.column("s"), CompOp.EQ, strings.get(i));
      assertThat(table.lanceSelects(f)).as(LanceFilter.of(f).sql()).containsExactly(i);
    }
  }

  @Test
  void aNullConstantSelectsNothingEvenUnderNot() {
    RowFilter f = new RowFilter.Compare(FilterTables.column("i32"), CompOp.EQ, null);
    assertThat(table.lanceSelects(f)).isEmpty();
    assertThat(table.lanceSelects(new RowFilter.Not(f))).isEmpty();
    assertThat(table.memorySelects(new RowFilter.Not(f))).isEmpty();
  }

  @Test
  void nullColumnValuesAreUnknownSoNotDoesNotSelectThem() {
    RowFilter f = new RowFilter.Not(new RowFilter.Compare(FilterTables.column("b"), CompOp.EQ, true));
    assertThat(table.lanceSelects(f)).isEqualTo(table.memorySelects(f)).containsExactly(1);
  }

  @Test
  void inAndOrNotAndConstantsAgree() {
    ColumnRef s = FilterTables.column("s");
    ColumnRef i32 = FilterTables.column("i32");
    List<RowFilter> filters = List.of(
        new RowFilter.In(s, List.of("O'Brien", "back\\slash", "missing")),
        new RowFilter.In(s, List.of()),
        new RowFilter.Not(new RowFilter.In(s, List.of("a", "z"))),
        new RowFilter.Or(List.of(new RowFilter.In(s, List.of("a")), new RowFilter.Compare(i32, CompOp.GE, 1954))),
        new RowFilter.And(List.of(new RowFilter.Compare(i32, CompOp.GT, -1), new RowFilter.Not(new RowFilter.Compare(i32, CompOp.EQ, 1)))),
        new RowFilter.And(List.of()),
        new RowFilter.Or(List.of()),
        new RowFilter.Constant(true),
        new RowFilter.Constant(false),
        new RowFilter.Not(new RowFilter.Or(List.of(new RowFilter.Compare(i32, CompOp.EQ, null), new RowFilter.Compare(i32, CompOp.EQ, 0)))));
    for (RowFilter f : filters) {
      assertThat(table.lanceSelects(f)).as(LanceFilter.of(f).sql()).isEqualTo(table.memorySelects(f));
    }
  }

  @Test
  void quotingDoublesSingleQuotesOnlyAndRefusesUnpairedSurrogates() {
    assertThat(LanceFilter.quote("O'Brien \\ x")).isEqualTo("'O''Brien \\ x'");
    assertThatThrownBy(() -> LanceFilter.quote("bad \uD800 surrogate")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void constantsOutsideTheBmpAndNulAreSpelledAsCodePoints() {
    assertThat(LanceFilter.quote("a\uD83D\uDE00b")).isEqualTo("('a' || chr(128512) || 'b')");
    assertThat(LanceFilter.quote("\u0000")).isEqualTo("('' || chr(0))");
    assertThat(LanceFilter.quote("it's \\ \u00e9")).isEqualTo("'it''s \\ \u00e9'");
  }

  @Test
  void idListsSelectExactlyTheAdversarialIdsTheyName() {
    List<String> ids = VALUES.get("s").stream().map(String.class::cast).filter(v -> !v.isEmpty()).toList();
    LanceLocation loc = new LanceLocation(dir.resolve("ids").toUri().toString(), Map.of());
    Schema schema = new Schema(List.of(new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
        Map.of("lance-schema:unenforced-primary-key", "true")), null)));
    try (TableStore store = new TableStore()) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, store.allocator())) {
        VarCharVector id = (VarCharVector) root.getVector("id");
        for (int i = 0; i < ids.size(); i++) {
          id.setSafe(i, ids.get(i).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(ids.size());
        store.writer().createTable(loc, "node:Ids", schema, List.of(root));
      }
      try (TableSnapshot s = store.reader().openLatest(loc)) {
        // The id probe of loads and keyed writes goes through the same rendering.
        assertThat(store.reader().existingIds(s, ids)).containsExactlyElementsOf(ids);
        for (int i = 0; i < ids.size(); i++) {
          List<String> wanted = List.of(ids.get(i), ids.get((i + 1) % ids.size()), "absent \uD83D\uDE00");
          List<String> found = new ArrayList<>();
          store.reader().scan(s, List.of("id"), LanceFilter.in("id", wanted), r -> {
            VarCharVector v = (VarCharVector) r.getVector("id");
            for (int row = 0; row < r.getRowCount(); row++) {
              found.add(new String(v.get(row), StandardCharsets.UTF_8));
            }
          });
          assertThat(found).as(LanceFilter.in("id", wanted).sql()).containsExactlyInAnyOrderElementsOf(wanted.subList(0, 2));
        }
      }
    }
  }

  @Test
  void idListsNameOnlySystemColumnsAndAnEmptyListSelectsNothing() {
    assertThat(LanceFilter.in("src", List.of()).sql()).isEqualTo("FALSE");
    assertThatThrownBy(() -> LanceFilter.in("name", List.of("a"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LanceFilter.in("id", List.of("\uDC00"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void filtersRejectValuesOutsideTheColumnRepresentation() {
    assertThatThrownBy(() -> new RowFilter.Compare(FilterTables.column("i32"), CompOp.EQ, 5L))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RowFilter.Compare(FilterTables.column("u32"), CompOp.EQ, -1L))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RowFilter.In(FilterTables.column("s"), List.of(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
