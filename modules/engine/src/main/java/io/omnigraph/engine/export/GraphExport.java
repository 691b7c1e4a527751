package io.omnigraph.engine.export;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.schema.TableSpec;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One {@link io.omnigraph.api.Graph#export}: every table of one snapshot (or only the chosen types'
 * tables), node tables first then edge tables (schema order), rows in ascending id order, as NDJSON
 * that loads back identically. The CLI, the server and the HTTP client all export through this.
 */
public final class GraphExport {
  private final GraphSnapshot snapshot;
  private final List<TableSpec> tables;

  /** Every table of {@code snapshot}. */
  public GraphExport(GraphSnapshot snapshot) {
    this(snapshot, null);
  }

  /**
   * @param snapshot the graph state to export
   * @param typeNames the node and edge type names to export; {@code null}: every type
   * @throws InvalidInputException a name the snapshot's schema does not have (rule {@code unknown_type})
   */
  public GraphExport(GraphSnapshot snapshot, Set<String> typeNames) {
    this.snapshot = snapshot;
    List<TableSpec> chosen = new ArrayList<>();
    List<String> known = new ArrayList<>();
    for (TableSpec t : snapshot.schema().tables()) {
      known.add(t.typeName());
      if (typeNames == null || typeNames.contains(t.typeName())) {
        chosen.add(t);
      }
    }
    if (typeNames != null) {
      for (String name : typeNames) {
        if (!known.contains(name)) {
          throw new InvalidInputException("the schema has no node or edge type '" + name + "' (types: "
              + String.join(", ", known) + ")", new ErrorDetail.Validation(null, null, "type_names", "unknown_type"));
        }
      }
    }
    this.tables = List.copyOf(chosen);
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
      for (TableSpec t : tables) {
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
