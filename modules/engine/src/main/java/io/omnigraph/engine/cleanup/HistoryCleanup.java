package io.omnigraph.engine.cleanup;

import io.omnigraph.api.CleanupOptions;
import io.omnigraph.api.CleanupReport;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.storage.CommitDurability;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.WriteGates;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code omnigraph cleanup}: removes table versions no commit needs (docs/maintenance.md, "cleanup").
 *
 * <p>Per table ref, a version is removable when it is all of: older than the {@code keep} newest
 * versions of that ref, created before now − {@code olderThan}, and not pinned by any commit of
 * main or of any live branch ({@link PinnedVersions}). Everything runs inside the root's effect
 * window, after a fresh listing of {@code __recovery/}: a pending sidecar refuses the run, and no
 * writer, branch create or branch delete can move what the pins were read from. A preview
 * removes nothing. {@code __manifest} and the recovery audit are never cleaned.
 */
public final class HistoryCleanup {
  private HistoryCleanup() {}

  /**
   * One table ref's removable versions.
   *
   * @param ref the table ref
   * @param boundary Lance removes versions below this one (the newest removable + 1)
   * @param removable the removable versions, oldest first
   * @param kept every version below {@code boundary} that must stay (pinned)
   * @param bytes data bytes only the removable versions reference
   */
  record Planned(PinnedVersions.TableRef ref, long boundary, List<Long> removable, Set<Long> kept, long bytes) {}

  /**
   * Plans and (with {@link CleanupOptions#confirm()}) removes.
   *
   * @throws RecoveryRequiredException a recovery sidecar is pending
   * @throws InternalErrorException Lance removed a version that had to stay (never expected; the
   *     report would otherwise hide it)
   */
  public static CleanupReport run(GraphRoot root, TableStore tables, SidecarStore sidecars, SnapshotResolver snapshots,
      ManifestStore manifest, CleanupOptions options, Clock clock) {
    try (EffectWindow window = WriteGates.exclusive(root, "cleanup")) {
      refuseWhilePending(sidecars);
      PinnedVersions pins = PinnedVersions.read(snapshots, manifest);
      long threshold = clock.instant().minus(options.olderThan()).toEpochMilli();
      List<Planned> plan = new ArrayList<>();
      for (PinnedVersions.TableRef ref : pins.refs()) {
        Planned p = plan(root, tables.reader(), ref, pins.of(ref), options.keep(), threshold);
        if (p != null) {
          plan.add(p);
        }
      }
      List<CleanupReport.TableCleanup> out = new ArrayList<>();
      if (!options.confirm()) {
        for (Planned p : plan) {
          out.add(new CleanupReport.TableCleanup(p.ref().tableKey(), branchName(p.ref()), p.removable(), p.bytes(), -1));
        }
        return new CleanupReport(false, out);
      }
      for (Planned p : plan) {
        window.checkValid();
        LanceLocation main = root.lance(p.ref().path());
        LanceLocation location = TableReader.branchLocation(main, p.ref().branch());
        Set<Long> before = versionIds(tables.reader(), location);
        long bytesRemoved = tables.writer().cleanupKeeping(main, p.ref().branch(), p.boundary(), p.kept());
        // Lance removes the files without a sync: the removal is durable before cleanup reports it.
        CommitDurability.of(root).syncCleanup(location);
        Set<Long> after = versionIds(tables.reader(), location);
        List<Long> removed = before.stream().filter(v -> !after.contains(v)).sorted().toList();
        List<Long> lost = removed.stream().filter(v -> !p.removable().contains(v)).toList();
        if (!lost.isEmpty()) {
          throw new InternalErrorException("cleanup of " + location.uri() + " removed version(s) " + lost
              + " that had to stay (pinned or among the kept ones); Lance's removal did not honour the pin tags", null);
        }
        out.add(new CleanupReport.TableCleanup(p.ref().tableKey(), branchName(p.ref()), removed, p.bytes(),
            bytesRemoved));
      }
      return new CleanupReport(true, out);
    }
  }

  /** @return the plan of one ref, or {@code null} when nothing of it is removable */
  static Planned plan(GraphRoot root, TableReader reader, PinnedVersions.TableRef ref, Set<Long> pinned, int keep,
      long threshold) {
    LanceLocation location = TableReader.branchLocation(root.lance(ref.path()), ref.branch());
    if (ref.dropped()) {
      // A hard drop deleted the dataset (its tombstone stays): nothing of it to clean.
      java.util.Optional<io.omnigraph.engine.table.TableSnapshot> s = reader.openLatestIfExists(location);
      if (s.isEmpty()) {
        return null;
      }
      s.get().close();
    }
    List<long[]> versions = reader.versions(location);
    if (versions.isEmpty()) {
      return null;
    }
    // The boundary: the first of the keep newest versions, or the first version created at or after
    // the age threshold, whichever is older. Only versions below it may go.
    long boundary = versions.get(Math.max(0, versions.size() - keep))[0];
    for (long[] v : versions) {
      if (v[1] >= threshold) {
        boundary = Math.min(boundary, v[0]);
      }
    }
    List<Long> removable = new ArrayList<>();
    Set<Long> kept = new TreeSet<>();
    for (long[] v : versions) {
      if (v[0] >= boundary) {
        break;
      }
      if (pinned.contains(v[0])) {
        kept.add(v[0]);
      } else {
        removable.add(v[0]);
      }
    }
    if (removable.isEmpty()) {
      return null;
    }
    return new Planned(ref, removable.get(removable.size() - 1) + 1, removable, kept,
        exclusiveDataBytes(reader, location, versions, new HashSet<>(removable)));
  }

  /**
   * The bytes of the data files that only removable versions reference: every version of the ref is
   * opened once (the preview's cost grows with the ref's history, not with what is removed).
   */
  private static long exclusiveDataBytes(TableReader reader, LanceLocation location, List<long[]> versions,
      Set<Long> removable) {
    Map<String, Long> doomed = new HashMap<>();
    Set<String> retained = new HashSet<>();
    for (long[] v : versions) {
      Map<String, Long> files = reader.dataFileSizes(location, v[0]);
      if (removable.contains(v[0])) {
        doomed.putAll(files);
      } else {
        retained.addAll(files.keySet());
      }
    }
    long bytes = 0;
    for (Map.Entry<String, Long> e : doomed.entrySet()) {
      if (!retained.contains(e.getKey()) && e.getValue() > 0) {
        bytes += e.getValue();
      }
    }
    return bytes;
  }

  private static Set<Long> versionIds(TableReader reader, LanceLocation location) {
    Set<Long> ids = new HashSet<>();
    for (long[] v : reader.versions(location)) {
      ids.add(v[0]);
    }
    return ids;
  }

  private static String branchName(PinnedVersions.TableRef ref) {
    return ref.branch() == null ? io.omnigraph.engine.manifest.GraphBranch.MAIN : ref.branch();
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
}
