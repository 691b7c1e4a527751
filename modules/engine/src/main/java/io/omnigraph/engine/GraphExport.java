package io.omnigraph.engine;

import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.load.NdjsonExporter;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.schema.TableSpec;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * One {@link io.omnigraph.api.Graph#export}: every table of one manifest cut, node tables first then
 * edge tables (schema order), rows in ascending id order, as NDJSON that loads back identically.
 */
final class GraphExport {
  private final LanceGraph graph;
  private final ManifestState state;

  GraphExport(LanceGraph graph, ManifestState state) {
    this.graph = graph;
    this.state = state;
  }

  void writeTo(OutputStream out) {
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
    try (CommittedTables committed = new CommittedTables(graph.root(), graph.tables(), state);
        NdjsonExporter exporter = new NdjsonExporter(graph.compiledSchema(), keepOpen)) {
      for (TableSpec t : graph.compiledSchema().tables()) {
        graph.tables().reader().scanSortedById(committed.snapshot(t.tableKey()), batch -> {
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
