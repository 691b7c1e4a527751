package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.table.TableSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * Drift: a table whose Lance HEAD is not the version the graph's manifest publishes (a commit
 * that was never published, or a rollback that never finished). Reads the handle's internals.
 */
final class TableDrift {
  private TableDrift() {}

  /** Tables whose Lance HEAD is not the version the manifest publishes (drift). */
  static Map<String, String> drift(Graph g) {
    LanceGraph lg = (LanceGraph) g;
    ManifestState state = lg.state();
    Map<String, String> out = new TreeMap<>();
    for (TableEntry e : state.tables().values()) {
      try (TableSnapshot s = lg.tables().reader().openLatest(lg.root().lance(e.path()))) {
        if (s.version() != e.version()) {
          out.put(e.tableKey(), e.version() + " -> " + s.version());
        }
      }
    }
    return out;
  }

  /** Asserts that every table's Lance HEAD is the version the manifest publishes. */
  static void assertNoDrift(LanceGraph g) {
    ManifestState state = g.state();
    state.tables().forEach((key, entry) -> {
      try (TableSnapshot s = g.tables().reader().openLatest(g.root().lance(entry.path()))) {
        assertThat(s.version()).as("HEAD of " + key).isEqualTo(entry.version());
      }
    });
  }
}
