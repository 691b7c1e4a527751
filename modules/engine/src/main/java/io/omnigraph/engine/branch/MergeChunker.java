package io.omnigraph.engine.branch;

import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.engine.write.WriteErrors;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Copies rows into owned Arrow batches, flushing at the first of {@link BranchMerge#chunkRows} rows or
 * {@link BranchMerge#chunkBytes} ({@link KeyedWrites#MAX_BYTES}) of actual buffered size (measured after each row),
 * and hands each full chunk to its consumer, which owns it (and {@link Chunk#release releases} it).
 * The rows and bytes it buffers are metered ({@link MergeMemory}).
 */
final class MergeChunker {
  /** One full chunk: its rows, and the bytes it was metered at. */
  record Chunk(VectorSchemaRoot root, long bytes, MergeMemory memory) implements AutoCloseable {
    /** Closes the rows and takes them off the meter. */
    @Override
    public void close() {
      memory.hold(-root.getRowCount(), -bytes);
      root.close();
    }
  }

  private final String key;
  private final BufferAllocator allocator;
  private final Consumer<Chunk> out;
  private final MergeMemory memory;
  private VectorSchemaRoot cur;
  private int n;
  private long bytes;

  MergeChunker(String key, BufferAllocator allocator, MergeMemory memory, Consumer<Chunk> out) {
    this.key = key;
    this.allocator = allocator;
    this.memory = memory;
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
    long size = ArrowBatches.memorySize(cur);
    if (size > cap) {
      setCount(n); // undo: the row does not fit
      if (n == 0) {
        throw WriteErrors.resourceLimit("branch-merge row bytes for " + key, cap, rowSize(batch, row));
      }
      flush();
      add(batch, row);
      return;
    }
    n++;
    memory.hold(1, size - bytes);
    bytes = size;
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
      Chunk c = new Chunk(cur, bytes, memory);
      cur = null;
      n = 0;
      bytes = 0;
      out.accept(c);
    }
  }

  void discard() {
    if (cur != null) {
      memory.hold(-n, -bytes);
      cur.close();
      cur = null;
      n = 0;
      bytes = 0;
    }
  }
}
