package io.omnigraph.engine;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tables of one manifest state, opened lazily at their published versions and closed together.
 * Everything a load or export reads comes from this one cut.
 */
final class CommittedTables implements AutoCloseable {
  private final GraphRoot root;
  private final TableStore tables;
  private final ManifestState state;
  private final Map<String, TableSnapshot> open = new TreeMap<>();

  CommittedTables(GraphRoot root, TableStore tables, ManifestState state) {
    this.root = root;
    this.tables = tables;
    this.state = state;
  }

  ManifestState state() {
    return state;
  }

  /** @return the table's published entry */
  TableEntry entry(String tableKey) {
    return state.table(tableKey).orElseThrow(() -> new InternalErrorException(
        "table " + tableKey + " is not published at manifest version " + state.manifestVersion(), null));
  }

  /** @return the table pinned at its published version (opened once) */
  TableSnapshot snapshot(String tableKey) {
    TableSnapshot s = open.get(tableKey);
    if (s == null) {
      TableEntry e = entry(tableKey);
      s = tables.reader().openAt(root.lance(e.path()), e.version());
      open.put(tableKey, s);
    }
    return s;
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (TableSnapshot s : open.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
