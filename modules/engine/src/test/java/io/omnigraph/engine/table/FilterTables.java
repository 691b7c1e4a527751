package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.plan.ArrowRowValues;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A real Lance table with one nullable column per comparable scalar type, for checking that {@link
 * LanceFilter} selects in Lance exactly what {@link RowFilter#evaluate} selects in memory.
 */
final class FilterTables implements AutoCloseable {
  static final Map<String, ScalarKind> COLUMNS = new LinkedHashMap<>();

  static {
    COLUMNS.put("s", ScalarKind.STRING);
    COLUMNS.put("b", ScalarKind.BOOL);
    COLUMNS.put("i32", ScalarKind.I32);
    COLUMNS.put("i64", ScalarKind.I64);
    COLUMNS.put("u32", ScalarKind.U32);
    COLUMNS.put("u64", ScalarKind.U64);
    COLUMNS.put("f32", ScalarKind.F32);
    COLUMNS.put("f64", ScalarKind.F64);
    COLUMNS.put("d", ScalarKind.DATE);
    COLUMNS.put("ts", ScalarKind.DATE_TIME);
  }

  final TableStore store = new TableStore();
  final List<Map<String, Object>> rows;
  private final LanceLocation loc;

  /** @param rows each row: column → value (absent or null = null); ids are row indexes */
  FilterTables(Path dir, List<Map<String, Object>> rows) {
    this.rows = List.copyOf(rows);
    this.loc = new LanceLocation(dir.resolve("filters").toUri().toString(), Map.of());
    Schema schema = schema();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, store.allocator())) {
      root.allocateNew();
      for (int r = 0; r < rows.size(); r++) {
        ((VarCharVector) root.getVector("id")).setSafe(r, Integer.toString(r).getBytes(StandardCharsets.UTF_8));
        for (Map.Entry<String, ScalarKind> c : COLUMNS.entrySet()) {
          set(root.getVector(c.getKey()), c.getValue(), r, rows.get(r).get(c.getKey()));
        }
      }
      root.setRowCount(rows.size());
      store.writer().createTable(loc, "node:F", schema, List.of(root));
    }
  }

  static ColumnRef column(String name) {
    ScalarKind k = COLUMNS.get(name);
    return new ColumnRef(name, new PropertyType.Scalar(k), true);
  }

  static Schema schema() {
    List<Field> fields = new ArrayList<>();
    fields.add(new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
        Map.of("lance-schema:unenforced-primary-key", "true")), null));
    for (Map.Entry<String, ScalarKind> c : COLUMNS.entrySet()) {
      fields.add(new Field(c.getKey(), FieldType.nullable(arrow(c.getValue())), null));
    }
    return new Schema(fields);
  }

  private static ArrowType arrow(ScalarKind k) {
    return switch (k) {
      case STRING -> ArrowType.Utf8.INSTANCE;
      case BOOL -> ArrowType.Bool.INSTANCE;
      case I32 -> new ArrowType.Int(32, true);
      case I64 -> new ArrowType.Int(64, true);
      case U32 -> new ArrowType.Int(32, false);
      case U64 -> new ArrowType.Int(64, false);
      case F32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case F64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case DATE_TIME -> new ArrowType.Date(DateUnit.MILLISECOND);
      case BLOB -> throw new IllegalArgumentException();
    };
  }

  private static void set(FieldVector v, ScalarKind k, int r, Object value) {
    if (value == null) {
      v.setNull(r);
      return;
    }
    switch (k) {
      case STRING -> ((VarCharVector) v).setSafe(r, ((String) value).getBytes(StandardCharsets.UTF_8));
      case BOOL -> ((BitVector) v).setSafe(r, (Boolean) value ? 1 : 0);
      case I32 -> ((IntVector) v).setSafe(r, (Integer) value);
      case I64 -> ((BigIntVector) v).setSafe(r, (Long) value);
      case U32 -> ((UInt4Vector) v).setSafe(r, (int) (long) (Long) value);
      case U64 -> ((UInt8Vector) v).setSafe(r, (Long) value);
      case F32 -> ((Float4Vector) v).setSafe(r, (Float) value);
      case F64 -> ((Float8Vector) v).setSafe(r, (Double) value);
      case DATE -> ((DateDayVector) v).setSafe(r, (Integer) value);
      case DATE_TIME -> ((DateMilliVector) v).setSafe(r, (Long) value);
      case BLOB -> throw new IllegalArgumentException();
    }
  }

  /** @return the row indexes Lance selects with the rendered filter */
  Set<Integer> lanceSelects(RowFilter f) {
    Set<Integer> out = new TreeSet<>();
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      store.reader().scan(s, List.of("id"), LanceFilter.of(f), root -> {
        VarCharVector id = (VarCharVector) root.getVector("id");
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(Integer.parseInt(new String(id.get(i), StandardCharsets.UTF_8)));
        }
      });
    }
    return out;
  }

  /** @return the row indexes selected by evaluating the filter over the batches Lance returns for a full scan */
  Set<Integer> arrowSelects(RowFilter f) {
    Set<Integer> out = new TreeSet<>();
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      store.reader().scan(s, null, null, root -> {
        VarCharVector id = (VarCharVector) root.getVector("id");
        ArrowRowValues row = new ArrowRowValues(root);
        for (int i = 0; i < root.getRowCount(); i++) {
          if (f.matches(row.at(i))) {
            out.add(Integer.parseInt(new String(id.get(i), StandardCharsets.UTF_8)));
          }
        }
      });
    }
    return out;
  }

  /** @return the row indexes the in-memory evaluation selects */
  Set<Integer> memorySelects(RowFilter f) {
    Set<Integer> out = new TreeSet<>();
    for (int r = 0; r < rows.size(); r++) {
      Map<String, Object> row = rows.get(r);
      if (f.matches(row::get)) {
        out.add(r);
      }
    }
    return out;
  }

  @Override
  public void close() {
    store.close();
  }
}
