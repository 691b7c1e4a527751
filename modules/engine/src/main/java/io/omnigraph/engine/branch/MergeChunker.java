package io.omnigraph.engine.branch;

import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.engine.write.WriteErrors;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Copies rows into owned Arrow batches, flushing at the first of {@link BranchMerge#chunkRows} rows or
 * {@link BranchMerge#chunkBytes} ({@link KeyedWrites#MAX_BYTES}) of actual buffered size (measured after each row).
 */
final class MergeChunker {
  private final String key;
  private final BufferAllocator allocator;
  private final List<VectorSchemaRoot> out;
  private VectorSchemaRoot cur;
  private int n;

  MergeChunker(String key, BufferAllocator allocator, List<VectorSchemaRoot> out) {
    this.key = key;
    this.allocator = allocator;
    this.out = out;
  }

  void add(VectorSchemaRoot batch, int row) {
    if (cur == null) {
      cur = VectorSchemaRoot.create(batch.getSchema(), allocator);
      cur.allocateNew();
      n = 0;
    }
    copy(batch, row, n);
    long cap = BranchMerge.chunkBytes;
    if (ArrowBatches.memorySize(cur) > cap) {
      setCount(n); // undo: the row does not fit
      if (n == 0) {
        long size = rowSize(batch, row);
        throw WriteErrors.resourceLimit("branch-merge row bytes for " + key, cap, size);
      }
      flush();
      add(batch, row);
      return;
    }
    n++;
    if (n >= BranchMerge.chunkRows) {
      flush();
    }
  }

  private void copy(VectorSchemaRoot batch, int row, int at) {
    for (int c = 0; c < cur.getFieldVectors().size(); c++) {
      FieldVector to = cur.getVector(c);
      to.copyFromSafe(row, at, batch.getVector(to.getName()));
    }
    setCount(at + 1);
  }

  private void setCount(int count) {
    for (FieldVector v : cur.getFieldVectors()) {
      v.setValueCount(count);
    }
    cur.setRowCount(count);
  }

  private long rowSize(VectorSchemaRoot batch, int row) {
    try (VectorSchemaRoot one = ArrowBatches.select(batch, List.of(row), allocator)) {
      return ArrowBatches.memorySize(one);
    }
  }

  void flush() {
    if (cur != null && n > 0) {
      out.add(cur);
      cur = null;
      n = 0;
    }
  }

  void discard() {
    if (cur != null) {
      cur.close();
      cur = null;
    }
  }
}
