package io.omnigraph.engine.index;

import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the index and maintenance writers need of an open graph handle.
 *
 * @param root the graph root
 * @param tables the table gateway
 * @param manifest the root's manifest store
 * @param publisher the manifest publisher
 * @param snapshots the resolver of refs
 * @param writer the effect and publish half every writer shares
 * @param sidecars recovery sidecar I/O of the root
 * @param entryBarrier the write-entry recovery barrier (roll-forward-only heal)
 * @param window enters the exclusive effect window (gate, then lease)
 */
public record GraphAccess(GraphRoot root, TableStore tables, ManifestStore manifest, ManifestPublisher publisher,
    SnapshotResolver snapshots, GraphWrite writer, SidecarStore sidecars, Runnable entryBarrier,
    java.util.function.Function<String, EffectWindow> window) {
  public GraphAccess {
    Objects.requireNonNull(root);
    Objects.requireNonNull(tables);
    Objects.requireNonNull(manifest);
    Objects.requireNonNull(publisher);
    Objects.requireNonNull(snapshots);
    Objects.requireNonNull(writer);
    Objects.requireNonNull(sidecars);
    Objects.requireNonNull(entryBarrier);
    Objects.requireNonNull(window);
  }

  /** @return a supplier of the latest manifest state */
  public Supplier<io.omnigraph.engine.manifest.ManifestState> latest() {
    return snapshots::latest;
  }
}
