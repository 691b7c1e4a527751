package io.omnigraph.engine.load;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Test helper: converts validated {@link TableRows} into Arrow batches with the table's exact schema
 * (column order {@code id}[, {@code src}, {@code dst}], then properties).
 */
public final class ArrowRows {
  private ArrowRows() {}

  /**
   * Copies the rows of one table into new batches of at most {@code maxRowsPerBatch} rows; the
   * caller owns (and must close) every returned root.
   *
   * @param rows the table's validated rows (retained, not streamed)
   * @param allocator where the vectors are allocated
   * @param maxRowsPerBatch at most this many rows per batch (at least 1)
   * @return batches in row order; one empty batch if {@code rows} is empty (a valid zero-row overwrite)
   */
  public static List<VectorSchemaRoot> toBatches(TableRows rows, BufferAllocator allocator, int maxRowsPerBatch) {
    if (maxRowsPerBatch < 1) {
      throw new IllegalArgumentException("maxRowsPerBatch must be at least 1");
    }
    List<VectorSchemaRoot> out = new ArrayList<>();
    try {
      for (VectorSchemaRoot src : rows.batches()) {
        for (int from = 0; from < src.getRowCount(); from += maxRowsPerBatch) {
          int count = Math.min(src.getRowCount() - from, maxRowsPerBatch);
          List<Integer> select = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            select.add(from + i);
          }
          out.add(io.omnigraph.engine.table.ArrowBatches.select(src, select, allocator));
        }
      }
      if (out.isEmpty()) {
        VectorSchemaRoot empty = VectorSchemaRoot.create(rows.spec().arrowSchema(), allocator);
        out.add(empty);
        empty.allocateNew();
        empty.setRowCount(0);
      }
      return out;
    } catch (RuntimeException e) {
      out.forEach(VectorSchemaRoot::close);
      throw e;
    }
  }
}
