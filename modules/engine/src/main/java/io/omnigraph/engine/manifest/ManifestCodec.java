package io.omnigraph.engine.manifest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** The {@code __manifest} Arrow schema (docs/on-disk-layout.md, "__manifest") and row conversion. */
final class ManifestCodec {
  /** Schema metadata key of the internal storage-version stamp. */
  static final String STAMP_KEY = "omnigraph:internal_schema_version";
  /** The only internal storage version this release reads and writes. */
  static final int STAMP = 6;

  private ManifestCodec() {}

  static Schema schema(String stamp) {
    FieldType utf8 = FieldType.nullable(ArrowType.Utf8.INSTANCE);
    FieldType u64 = FieldType.nullable(new ArrowType.Int(64, false));
    return new Schema(List.of(
        new Field("object_id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
            Map.of("lance-schema:unenforced-primary-key", "true")), null),
        new Field("object_type", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("location", utf8, null),
        new Field("metadata", utf8, null),
        new Field("base_objects", FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(new Field("item", utf8, null))),
        new Field("table_key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("stable_table_id", u64, null),
        new Field("table_incarnation_id", u64, null),
        new Field("table_version", u64, null),
        new Field("table_branch", utf8, null),
        new Field("row_count", u64, null)),
        Map.of(STAMP_KEY, stamp));
  }

  /** The columns readers project: everything except the reserved {@code base_objects}. */
  static final List<String> READ_COLUMNS = List.of("object_id", "object_type", "location", "metadata", "table_key",
      "stable_table_id", "table_incarnation_id", "table_version", "table_branch", "row_count");

  static VectorSchemaRoot toArrow(List<ManifestRow> rows, BufferAllocator allocator, String stamp) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(stamp), allocator);
    root.allocateNew();
    for (int i = 0; i < rows.size(); i++) {
      ManifestRow r = rows.get(i);
      str(root, "object_id", i, r.objectId());
      str(root, "object_type", i, r.objectType());
      str(root, "location", i, r.location());
      str(root, "metadata", i, r.metadata());
      ((ListVector) root.getVector("base_objects")).setNull(i);
      str(root, "table_key", i, r.tableKey());
      u64(root, "stable_table_id", i, r.stableTableId());
      u64(root, "table_incarnation_id", i, r.incarnationId());
      u64(root, "table_version", i, r.tableVersion());
      str(root, "table_branch", i, r.tableBranch());
      u64(root, "row_count", i, r.rowCount());
    }
    root.setRowCount(rows.size());
    return root;
  }

  static List<ManifestRow> fromArrow(VectorSchemaRoot root) {
    List<ManifestRow> out = new ArrayList<>(root.getRowCount());
    for (int i = 0; i < root.getRowCount(); i++) {
      out.add(new ManifestRow(str(root, "object_id", i), str(root, "object_type", i), str(root, "location", i),
          str(root, "metadata", i), str(root, "table_key", i), u64(root, "stable_table_id", i),
          u64(root, "table_incarnation_id", i), u64(root, "table_version", i), str(root, "table_branch", i),
          u64(root, "row_count", i)));
    }
    return out;
  }

  private static void str(VectorSchemaRoot root, String col, int i, String v) {
    VarCharVector vec = (VarCharVector) root.getVector(col);
    if (v == null) {
      vec.setNull(i);
    } else {
      vec.setSafe(i, v.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void u64(VectorSchemaRoot root, String col, int i, Long v) {
    UInt8Vector vec = (UInt8Vector) root.getVector(col);
    if (v == null) {
      vec.setNull(i);
    } else {
      vec.setSafe(i, v);
    }
  }

  private static String str(VectorSchemaRoot root, String col, int i) {
    VarCharVector vec = (VarCharVector) root.getVector(col);
    return vec.isNull(i) ? null : new String(vec.get(i), StandardCharsets.UTF_8);
  }

  private static Long u64(VectorSchemaRoot root, String col, int i) {
    UInt8Vector vec = (UInt8Vector) root.getVector(col);
    return vec.isNull(i) ? null : vec.get(i);
  }
}
