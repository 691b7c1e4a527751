package io.omnigraph.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** The benchmark's deterministic rows, as NDJSON (engine input) and as Arrow (raw Lance input). */
public final class BenchData {
  /** The benchmark schema: one keyed node type. */
  public static final String SCHEMA = """
      node Item {
        sku: String @key
        qty: I64
        price: F64
        label: String
      }
      """;

  /** The Arrow schema of the Item table, column for column what the engine writes. */
  public static final Schema ARROW = new Schema(List.of(
      new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
          Map.of("lance-schema:unenforced-primary-key", "true")), null),
      new Field("sku", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("qty", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("price", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
      new Field("label", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));

  private BenchData() {}

  static String sku(long i) {
    return String.format("item-%09d", i);
  }

  static long qty(long i) {
    return (i * 7) % 1000;
  }

  static double price(long i) {
    return (i % 1000) / 4.0 + 0.25;
  }

  static String label(long i) {
    return "label-" + (i % 97);
  }

  /** @return NDJSON node lines for rows {@code [from, from + count)} */
  public static byte[] ndjson(long from, int count) {
    StringBuilder b = new StringBuilder(count * 90);
    for (long i = from; i < from + count; i++) {
      b.append("{\"type\":\"Item\",\"data\":{\"sku\":\"").append(sku(i)).append("\",\"qty\":").append(qty(i))
          .append(",\"price\":").append(price(i)).append(",\"label\":\"").append(label(i)).append("\"}}\n");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** @return the same rows as one Arrow batch (caller closes) */
  public static VectorSchemaRoot arrow(long from, int count, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ARROW, allocator);
    root.allocateNew();
    VarCharVector id = (VarCharVector) root.getVector("id");
    VarCharVector sku = (VarCharVector) root.getVector("sku");
    BigIntVector qty = (BigIntVector) root.getVector("qty");
    Float8Vector price = (Float8Vector) root.getVector("price");
    VarCharVector label = (VarCharVector) root.getVector("label");
    for (int r = 0; r < count; r++) {
      long i = from + r;
      byte[] s = sku(i).getBytes(StandardCharsets.UTF_8);
      id.setSafe(r, s);
      sku.setSafe(r, s);
      qty.setSafe(r, qty(i));
      price.setSafe(r, price(i));
      label.setSafe(r, label(i).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(count);
    return root;
  }

  /** @return a reader yielding {@code root} once (the root stays owned by the caller) */
  public static ArrowReader reader(VectorSchemaRoot root, BufferAllocator allocator) {
    return new ArrowReader(allocator) {
      private boolean done;

      @Override
      public boolean loadNextBatch() {
        if (done) {
          return false;
        }
        done = true;
        try (ArrowRecordBatch rb = new VectorUnloader(root).getRecordBatch()) {
          new VectorLoader(getVectorSchemaRoot()).load(rb);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {
        // the caller owns root
      }

      @Override
      protected Schema readSchema() {
        return root.getSchema();
      }
    };
  }
}
