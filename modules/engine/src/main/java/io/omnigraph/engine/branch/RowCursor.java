package io.omnigraph.engine.branch;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.export.NdjsonExporter;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.table.ScanCursor;
import io.omnigraph.engine.table.TableSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One side (base, source or target) of the ordered merge (docs/branches.md, "Memory bound of the
 * ordered merge"): a row cursor over an id-ordered {@link ScanCursor} of the table's pinned version,
 * one scanner batch at a time. Ids are compared as UTF-8 bytes, unsigned ({@link #compare}), the
 * order Lance sorts a UTF-8 column in; every id must be strictly greater than the one before, or the
 * merge stops with an internal error instead of mis-merging.
 */
final class RowCursor implements AutoCloseable {
  private final ScanCursor scan;
  private final CompiledSchema schema;
  private final String key;
  private final MergeMemory memory;
  private VectorSchemaRoot batch;
  private int row;
  private List<String> lines;
  private byte[] id;
  private byte[] previous;

  RowCursor(TableSnapshot table, CompiledSchema schema, String key, MergeMemory memory) {
    this.scan = ScanCursor.orderedById(table, BranchMerge.scanRows);
    this.schema = schema;
    this.key = key;
    this.memory = memory;
    try {
      load(scan.next());
      settle();
    } catch (RuntimeException e) {
      scan.close();
      throw e;
    }
  }

  /** UTF-8 byte order, unsigned: the order of the cursors. */
  static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  boolean has() {
    return batch != null;
  }

  /** @return the current row's id (UTF-8 bytes) */
  byte[] id() {
    return id;
  }

  VectorSchemaRoot batch() {
    return batch;
  }

  int row() {
    return row;
  }

  /** @return the current row as its canonical export line (the batch is rendered once) */
  String line() {
    if (lines == null) {
      lines = lines(schema, key, batch);
    }
    return lines.get(row);
  }

  void advance() {
    row++;
    settle();
  }

  private void load(VectorSchemaRoot next) {
    batch = next;
    row = 0;
    lines = null;
    if (next != null) {
      memory.batch(next.getRowCount(), ArrowBatches.memorySize(next));
    }
  }

  private void settle() {
    while (batch != null && row >= batch.getRowCount()) {
      load(scan.next());
    }
    if (batch == null) {
      id = null;
      return;
    }
    id = ((VarCharVector) batch.getVector("id")).get(row);
    if (previous != null && compare(previous, id) >= 0) {
      throw new InternalErrorException("the ordered scan of " + key + " gave id '"
          + new String(id, StandardCharsets.UTF_8) + "' after '" + new String(previous, StandardCharsets.UTF_8)
          + "': not ascending in UTF-8 byte order", null);
    }
    previous = id;
  }

  /** Each row of {@code batch} as the JSON line export writes for it: the canonical value of a row. */
  static List<String> lines(CompiledSchema schema, String key, VectorSchemaRoot batch) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (NdjsonExporter e = new NdjsonExporter(schema, bytes)) {
      e.write(key, batch);
      e.flush();
    } catch (IOException e) {
      throw new InternalErrorException("cannot render rows of " + key + ": " + e.getMessage(), null, e);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>(batch.getRowCount());
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        out.add(text.substring(start, i));
        start = i + 1;
      }
    }
    if (out.size() != batch.getRowCount()) {
      throw new InternalErrorException("rendering " + key + " gave " + out.size() + " lines for "
          + batch.getRowCount() + " rows", null);
    }
    return out;
  }

  @Override
  public void close() {
    scan.close();
  }
}
