package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * What one branch head publishes: its commit, the manifest version, and every table's dataset at the
 * version that head pins (docs/snapshots.md; served as {@code GET /graphs/{id}/snapshot}, docs/server.md).
 *
 * @param branch the graph branch
 * @param commitId the branch's head commit
 * @param manifestVersion the manifest version the head was read from
 * @param internalSchemaVersion the graph's internal storage version (the manifest's stamp)
 * @param datasets one entry per table, sorted by table key
 */
public record SnapshotInfo(String branch, String commitId, long manifestVersion, int internalSchemaVersion,
    List<Dataset> datasets) {
  public SnapshotInfo {
    Objects.requireNonNull(branch, "branch");
    Objects.requireNonNull(commitId, "commitId");
    datasets = List.copyOf(datasets);
  }

  /**
   * One table as the head publishes it.
   *
   * @param tableKey {@code node:T} or {@code edge:E}
   * @param path the Lance dataset's path relative to the graph root
   * @param version the published Lance version
   * @param nativeBranch the dataset's native Lance branch that version lives on ({@code null}: its main)
   * @param entityCount the number of rows (nodes or edges) at that version
   */
  public record Dataset(String tableKey, String path, long version, String nativeBranch, long entityCount) {
    public Dataset {
      Objects.requireNonNull(tableKey, "tableKey");
      Objects.requireNonNull(path, "path");
    }

    /** @return {@code node} or {@code edge} */
    public String entityKind() {
      int colon = tableKey.indexOf(':');
      return colon < 0 ? "" : tableKey.substring(0, colon);
    }

    /** @return the node or edge type name */
    public String typeName() {
      return tableKey.substring(tableKey.indexOf(':') + 1);
    }
  }
}
