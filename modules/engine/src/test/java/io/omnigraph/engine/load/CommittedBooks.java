package io.omnigraph.engine.load;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.testing.SchemaSamples;
import io.omnigraph.testkit.graph.GraphIo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real graph with the {@link SchemaSamples#BOOKS} schema on the local file system, holding the
 * committed rows a loader test starts from (loaded through the public API, so they obey every graph
 * rule), and a snapshot of its {@code main} head for the loader to validate against.
 */
final class CommittedBooks implements AutoCloseable {
  private final Path dir;
  private final GraphRoot root;
  private final TableStore tables;
  private final GraphSnapshot snapshot;

  private CommittedBooks(Path dir, GraphRoot root, TableStore tables, GraphSnapshot snapshot) {
    this.dir = dir;
    this.root = root;
    this.tables = tables;
    this.snapshot = snapshot;
  }

  /**
   * @param lines NDJSON lines committed with one merge load (none: an empty graph)
   * @return the graph, with a snapshot of its head after the load
   */
  static CommittedBooks of(String... lines) {
    try {
      Path dir = Files.createTempDirectory("committed-books");
      String uri = dir.resolve("g").toString();
      try (Graph g = Omnigraph.init(uri, SchemaSamples.BOOKS)) {
        if (lines.length > 0) {
          GraphIo.load(g, LoadMode.MERGE, String.join("\n", lines));
        }
      }
      GraphRoot root = GraphRoot.open(uri, Map.of());
      TableStore tables = new TableStore();
      return new CommittedBooks(dir, root, tables, new SnapshotResolver(root, tables).resolve(GraphRef.main()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return the snapshot of the graph's head (closed with this) */
  GraphSnapshot snapshot() {
    return snapshot;
  }

  @Override
  public void close() {
    try {
      snapshot.close();
    } finally {
      try {
        tables.close();
      } finally {
        root.close();
        try (Stream<Path> s = Files.walk(dir)) {
          for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(p);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
