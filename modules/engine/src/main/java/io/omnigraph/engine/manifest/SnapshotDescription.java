package io.omnigraph.engine.manifest;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.SnapshotInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** {@link io.omnigraph.api.Graph#snapshot}: a branch head's manifest state as the API describes it. */
public final class SnapshotDescription {
  private SnapshotDescription() {}

  /**
   * @param branch the graph branch {@code state} is the latest state of
   * @param state that branch's latest manifest state
   * @return the head commit, manifest version, storage stamp and every published table
   */
  public static SnapshotInfo of(String branch, ManifestState state) {
    GraphCommit head = state.head(branch).orElseThrow(() -> new InternalErrorException(
        "branch " + branch + " has no commit at manifest version " + state.manifestVersion(), null));
    List<SnapshotInfo.Dataset> datasets = new ArrayList<>();
    for (TableEntry e : new TreeMap<>(state.tables()).values()) {
      datasets.add(new SnapshotInfo.Dataset(e.tableKey(), e.path(), e.version(), e.branch(), e.rowCount()));
    }
    return new SnapshotInfo(branch, head.commitId(), state.manifestVersion(), ManifestCodec.STAMP, datasets);
  }
}
