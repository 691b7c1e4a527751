package io.omnigraph.engine.write;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Removes table versions no commit of the lineage pins, inside the root's effect window. Refused
 * while any recovery sidecar is pending: recovery may need exactly those versions.
 */
public final class VersionCleanup {
  private VersionCleanup() {}

  /**
   * @param latest reads the latest manifest state (inside the window)
   * @return per table key, how many versions were removed
   * @throws RecoveryRequiredException a sidecar is pending
   */
  public static Map<String, Long> run(GraphRoot root, TableStore tables, SidecarStore sidecars,
      Supplier<ManifestState> latest) {
    try (EffectWindow window = WriteGates.exclusive(root, "cleanup")) {
      List<String> pending = sidecars.list();
      if (!pending.isEmpty()) {
        String first = pending.get(0);
        String id = first.substring(first.lastIndexOf('/') + 1, first.length() - ".json".length());
        throw new RecoveryRequiredException("recovery required for operation " + id + ": " + pending.size()
            + " recovery sidecar(s) pending under " + RecoverySidecar.DIR + "/; cleanup would remove the history"
            + " recovery needs, so run 'omnigraph repair' (or open the graph) first",
            new ErrorDetail.RecoveryRequired(id));
      }
      ManifestState state = latest.get();
      Map<String, Long> removed = new TreeMap<>();
      for (TableEntry t : state.tables().values()) {
        // The oldest version any commit in the lineage pins: everything from it on stays readable.
        long oldest = t.version();
        for (var c : state.commits()) {
          Long v = c.tableVersions().get(t.tableKey());
          if (v != null) {
            oldest = Math.min(oldest, v);
          }
        }
        removed.put(t.tableKey(), tables.writer().cleanupVersionsBefore(root.lance(t.path()), oldest));
      }
      return removed;
    }
  }
}
