package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Omnigraph#cleanup(String, OpenOptions, CleanupOptions)} removed, or would remove
 * (docs/maintenance.md, "cleanup").
 *
 * @param applied {@code false} for a preview (nothing was removed)
 * @param tables one entry per table ref with removable versions, by table key then ref
 */
public record CleanupReport(boolean applied, List<TableCleanup> tables) {
  public CleanupReport {
    tables = List.copyOf(tables);
  }

  /** @return how many versions were removed (or would be), over every table */
  public long versionCount() {
    return tables.stream().mapToLong(t -> t.versions().size()).sum();
  }

  /** @return {@link TableCleanup#bytes()} summed over every table */
  public long bytes() {
    return tables.stream().mapToLong(TableCleanup::bytes).sum();
  }

  /**
   * One table ref's removable versions.
   *
   * @param table the table key
   * @param branch the native ref of the table's dataset the versions belong to: {@code main}, or the
   *     graph branch that forked the table
   * @param versions the Lance versions removed (or that would be), oldest first
   * @param bytes the bytes of the data files that only these versions reference: what removing them
   *     frees at least (deletion files, index files, manifests and transaction files come on top)
   * @param bytesRemoved the bytes Lance freed (every kind of file), or {@code -1} in a preview
   */
  public record TableCleanup(String table, String branch, List<Long> versions, long bytes, long bytesRemoved) {
    public TableCleanup {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(branch, "branch");
      versions = List.copyOf(versions);
    }
  }
}
