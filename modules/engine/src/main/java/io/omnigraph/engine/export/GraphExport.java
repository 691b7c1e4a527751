package io.omnigraph.engine.export;

import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.schema.TableSpec;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * One {@link io.omnigraph.api.Graph#export}: every table of one snapshot, node tables first then
 * edge tables (schema order), rows in ascending id order, as NDJSON that loads back identically.
 */
public final class GraphExport {
  private final GraphSnapshot snapshot;

  public GraphExport(GraphSnapshot snapshot) {
    this.snapshot = snapshot;
  }

  public void writeTo(OutputStream out) {
    // The exporter closes its stream; the caller's stream must only be flushed.
    OutputStream keepOpen = new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
    try (NdjsonExporter exporter = new NdjsonExporter(snapshot.schema(), keepOpen)) {
      for (TableSpec t : snapshot.schema().tables()) {
        snapshot.scanSortedById(t.tableKey(), batch -> {
          try {
            exporter.write(t.tableKey(), batch);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
      exporter.flush();
    } catch (IOException | UncheckedIOException e) {
      throw new StorageFailureException("export failed writing its output: " + e.getMessage(), null, e);
    }
  }
}
