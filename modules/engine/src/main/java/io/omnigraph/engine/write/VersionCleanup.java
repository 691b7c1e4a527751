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
   * Cleanup within bounds (docs/maintenance.md, "cleanup"): per table, the removable versions are
   * the oldest ones that are older than every version a commit pins, not among the
   * {@code keep} newest, and created before now − {@code olderThan}; Lance removes exactly that
   * prefix. A preview removes nothing.
   *
   * @throws RecoveryRequiredException a sidecar is pending
   */
  public static io.omnigraph.api.CleanupReport run(GraphRoot root, TableStore tables, SidecarStore sidecars,
      Supplier<ManifestState> latest, io.omnigraph.api.CleanupOptions options) {
    try (EffectWindow window = WriteGates.exclusive(root, "cleanup")) {
      refuseWhilePending(sidecars);
      ManifestState state = latest.get();
      java.time.Instant threshold = java.time.Instant.now().minus(options.olderThan());
      List<io.omnigraph.api.CleanupReport.TableCleanup> out = new java.util.ArrayList<>();
      for (TableEntry t : new java.util.TreeMap<>(state.tables()).values()) {
        long oldestPinned = t.version();
        for (var c : state.commits()) {
          Long v = c.tableVersions().get(t.tableKey());
          if (v != null) {
            oldestPinned = Math.min(oldestPinned, v);
          }
        }
        var location = root.lance(t.path());
        List<long[]> versions = tables.reader().versions(location);
        long newest = versions.isEmpty() ? 0 : versions.get(versions.size() - 1)[0];
        long keepFrom = newest - options.keep() + 1;
        List<Long> removable = new java.util.ArrayList<>();
        for (long[] v : versions) {
          if (v[0] >= oldestPinned || v[0] >= keepFrom || v[1] >= threshold.toEpochMilli()) {
            break; // Lance removes a prefix: the first version that must stay ends it
          }
          removable.add(v[0]);
        }
        if (removable.isEmpty()) {
          continue;
        }
        long bytes = -1;
        if (options.confirm()) {
          window.checkValid();
          bytes = tables.writer().cleanupBefore(location, removable.get(removable.size() - 1) + 1);
          // Lance removes the files without a sync: the removal is durable before cleanup reports it.
          io.omnigraph.engine.storage.CommitDurability.of(root).syncCleanup(location);
        }
        out.add(new io.omnigraph.api.CleanupReport.TableCleanup(t.tableKey(), removable, bytes));
      }
      return new io.omnigraph.api.CleanupReport(options.confirm(), out);
    }
  }

  private static void refuseWhilePending(SidecarStore sidecars) {
    List<String> pending = sidecars.list();
    if (!pending.isEmpty()) {
      String first = pending.get(0);
      String id = first.substring(first.lastIndexOf('/') + 1, first.length() - ".json".length());
      throw new RecoveryRequiredException("recovery required for operation " + id + ": " + pending.size()
          + " recovery sidecar(s) pending under " + RecoverySidecar.DIR + "/; cleanup would remove the history"
          + " recovery needs, so run 'omnigraph repair' (or open the graph) first",
          new ErrorDetail.RecoveryRequired(id));
    }
  }

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
        var location = root.lance(t.path());
        removed.put(t.tableKey(), tables.writer().cleanupVersionsBefore(location, oldest));
        // Lance removes the files without a sync: the removal is durable before cleanup reports it.
        io.omnigraph.engine.storage.CommitDurability.of(root).syncCleanup(location);
      }
      return removed;
    }
  }
}
