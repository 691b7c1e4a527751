package io.omnigraph.engine.table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** Arrow helpers shared by the table layer. */
public final class ArrowBatches {
  private ArrowBatches() {}

  /** @return the Arrow buffer memory held by {@code root}, the size the keyed-write byte limit counts */
  public static long memorySize(VectorSchemaRoot root) {
    long n = 0;
    for (FieldVector v : root.getFieldVectors()) {
      n += v.getBufferSize();
    }
    return n;
  }

  /**
   * Copies the rows at {@code rows} (in that order) of {@code src} into a new root owned by the
   * caller.
   */
  public static VectorSchemaRoot select(VectorSchemaRoot src, List<Integer> rows, BufferAllocator allocator) {
    VectorSchemaRoot out = VectorSchemaRoot.create(src.getSchema(), allocator);
    for (FieldVector v : out.getFieldVectors()) {
      v.setInitialCapacity(Math.max(rows.size(), 1));
      v.allocateNew();
    }
    for (int c = 0; c < src.getFieldVectors().size(); c++) {
      FieldVector from = src.getVector(c);
      FieldVector to = out.getVector(c);
      for (int i = 0; i < rows.size(); i++) {
        to.copyFromSafe(rows.get(i), i, from);
      }
      to.setValueCount(rows.size());
    }
    out.setRowCount(rows.size());
    return out;
  }

  /**
   * An {@link ArrowReader} over existing roots, for Lance calls that take a stream. The roots stay
   * owned by the caller; the reader only references their buffers while a batch is loaded.
   */
  public static ArrowReader reader(Schema schema, List<VectorSchemaRoot> batches, BufferAllocator allocator) {
    return new RootsReader(schema, batches, allocator);
  }

  private static final class RootsReader extends ArrowReader {
    private final Schema schema;
    private final Iterator<VectorSchemaRoot> it;
    private long bytes;

    RootsReader(Schema schema, List<VectorSchemaRoot> batches, BufferAllocator allocator) {
      super(allocator);
      this.schema = schema;
      this.it = new ArrayList<>(batches).iterator();
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (!it.hasNext()) {
        return false;
      }
      VectorSchemaRoot next = it.next();
      try (ArrowRecordBatch rb = new VectorUnloader(next).getRecordBatch()) {
        new VectorLoader(getVectorSchemaRoot()).load(rb);
        bytes += rb.computeBodyLength();
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return bytes;
    }

    @Override
    protected void closeReadSource() {
      // The caller owns the source roots.
    }

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
