package io.omnigraph.engine.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.value.Scalars;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Writes table rows as strict graph-batch NDJSON that {@link GraphLoader} loads back to the same
 * rows (docs/ndjson-format.md, "Export"): node lines {@code {"type":T,"data":{"id":…, props…}}}, edge lines
 * {@code {"edge":E,"from":src,"to":dst,"data":{"id":…, props…}}}.
 *
 * <p>Deterministic: envelope members in that order, {@code id} first in {@code data}, then
 * properties in schema order; null values are omitted; Date as {@code YYYY-MM-DD}, DateTime as
 * {@code YYYY-MM-DDTHH:MM:SS.sssZ}, U64 as an unsigned integer, non-finite floats as {@code
 * "NaN"}/{@code "Infinity"}/{@code "-Infinity"}, Blob as {@code "base64:<data>"}. The caller
 * decides row and table order (the engine writes node tables, then edge tables).
 */
public final class NdjsonExporter implements Closeable, Flushable {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final CompiledSchema schema;
  private final OutputStream out;
  private final JsonGenerator gen;
  private long lines;

  /**
   * @param schema the schema the rows belong to
   * @param out where the lines go (UTF-8); closed by {@link #close()}
   * @throws IOException if the generator cannot be created
   */
  public NdjsonExporter(CompiledSchema schema, OutputStream out) throws IOException {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.out = Objects.requireNonNull(out, "out");
    this.gen = FACTORY.createGenerator(out, JsonEncoding.UTF8);
    this.gen.setRootValueSeparator(null);
    this.gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
  }

  /** @return lines written so far */
  public long lines() {
    return lines;
  }

  /**
   * Writes every row of one batch.
   *
   * @param tableKey {@code node:T} or {@code edge:E}
   * @param batch rows with the table's schema (at least the id/src/dst columns and every property
   *     column, by name)
   * @throws IOException if writing fails
   * @throws IllegalArgumentException if the table is unknown or a column is missing
   */
  public void write(String tableKey, VectorSchemaRoot batch) throws IOException {
    TableSpec spec = schema.table(tableKey).orElseThrow(() -> new IllegalArgumentException("unknown table " + tableKey));
    boolean edge = spec.kind() == io.omnigraph.engine.schema.SchemaIr.DeclKind.EDGE;
    List<Property> props = edge
        ? schema.catalog().edge(spec.typeName()).map(EdgeType::properties).orElseThrow()
        : schema.catalog().node(spec.typeName()).map(NodeType::properties).orElseThrow();
    VarCharVector id = (VarCharVector) column(batch, "id");
    VarCharVector src = edge ? (VarCharVector) column(batch, "src") : null;
    VarCharVector dst = edge ? (VarCharVector) column(batch, "dst") : null;
    FieldVector[] cols = new FieldVector[props.size()];
    for (int p = 0; p < cols.length; p++) {
      cols[p] = column(batch, props.get(p).name());
    }
    for (int i = 0; i < batch.getRowCount(); i++) {
      gen.writeStartObject();
      if (edge) {
        gen.writeStringField("edge", spec.typeName());
        gen.writeStringField("from", text(src, i));
        gen.writeStringField("to", text(dst, i));
      } else {
        gen.writeStringField("type", spec.typeName());
      }
      gen.writeObjectFieldStart("data");
      gen.writeStringField("id", text(id, i));
      for (int p = 0; p < cols.length; p++) {
        if (cols[p].isNull(i)) {
          continue;
        }
        gen.writeFieldName(props.get(p).name());
        writeValue(props.get(p).type(), cols[p], i);
      }
      gen.writeEndObject();
      gen.writeEndObject();
      gen.flush();
      out.write('\n');
      lines++;
    }
  }

  private static FieldVector column(VectorSchemaRoot batch, String name) {
    FieldVector v = batch.getVector(name);
    if (v == null) {
      throw new IllegalArgumentException("batch lacks column '" + name + "'");
    }
    return v;
  }

  private static String text(VarCharVector v, int i) {
    return new String(v.get(i), StandardCharsets.UTF_8);
  }

  private void writeValue(PropertyType type, FieldVector v, int i) throws IOException {
    if (type instanceof PropertyType.VectorOf) {
      FixedSizeListVector f = (FixedSizeListVector) v;
      Float4Vector data = (Float4Vector) f.getDataVector();
      int n = f.getListSize();
      gen.writeStartArray();
      for (int k = 0; k < n; k++) {
        writeFloat(data.get(i * n + k));
      }
      gen.writeEndArray();
      return;
    }
    if (type instanceof PropertyType.ListOf l) {
      ListVector lv = (ListVector) v;
      int start = lv.getOffsetBuffer().getInt((long) i * ListVector.OFFSET_WIDTH);
      int end = lv.getOffsetBuffer().getInt((long) (i + 1) * ListVector.OFFSET_WIDTH);
      gen.writeStartArray();
      for (int k = start; k < end; k++) {
        writeScalar(l.item(), lv.getDataVector(), k);
      }
      gen.writeEndArray();
      return;
    }
    writeScalar(type instanceof PropertyType.Scalar s ? s.kind() : ScalarKind.STRING, v, i);
  }

  private void writeScalar(ScalarKind k, FieldVector v, int i) throws IOException {
    switch (k) {
      case STRING -> gen.writeString(text((VarCharVector) v, i));
      case BOOL -> gen.writeBoolean(((BitVector) v).get(i) != 0);
      case I32 -> gen.writeNumber(((IntVector) v).get(i));
      case I64 -> gen.writeNumber(((BigIntVector) v).get(i));
      case U32 -> gen.writeNumber(Integer.toUnsignedLong(((UInt4Vector) v).get(i)));
      case U64 -> gen.writeNumber(new BigInteger(Long.toUnsignedString(((UInt8Vector) v).get(i))));
      case F32 -> writeFloat(((Float4Vector) v).get(i));
      case F64 -> {
        double d = ((Float8Vector) v).get(i);
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          gen.writeString(Double.toString(d));
        } else {
          gen.writeNumber(d);
        }
      }
      case DATE -> gen.writeString(Scalars.formatDate(((DateDayVector) v).get(i)));
      case DATE_TIME -> gen.writeString(Scalars.formatDateTime(((DateMilliVector) v).get(i)));
      case BLOB -> gen.writeString("base64:" + Base64.getEncoder().encodeToString(((LargeVarBinaryVector) v).get(i)));
    }
  }

  private void writeFloat(float f) throws IOException {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      gen.writeString(Float.toString(f));
    } else {
      gen.writeNumber(f);
    }
  }

  @Override
  public void flush() throws IOException {
    gen.flush();
    out.flush();
  }

  @Override
  public void close() throws IOException {
    gen.close();
    out.close();
  }
}
