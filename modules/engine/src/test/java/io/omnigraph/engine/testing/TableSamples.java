package io.omnigraph.engine.testing;

import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Arrow schemas the table-layer tests write with. */
public final class TableSamples {
  private TableSamples() {}

  /** {@code id} (Utf8, Lance's unenforced primary key) and {@code n} (nullable Int64). */
  public static final Schema ID_N = new Schema(List.of(
      new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
          Map.of("lance-schema:unenforced-primary-key", "true")), null),
      new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null)));
}
