package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Omnigraph#cleanup(String, OpenOptions, CleanupOptions)} removed, or would remove.
 *
 * @param applied {@code false} for a preview (nothing was removed)
 * @param tables one entry per dataset with removable versions
 */
public record CleanupReport(boolean applied, List<TableCleanup> tables) {
  public CleanupReport {
    tables = List.copyOf(tables);
  }

  /**
   * One dataset's removable versions.
   *
   * @param table the table key
   * @param versions the Lance versions removed (or that would be), oldest first
   * @param bytesRemoved bytes freed, or {@code -1} in a preview (Lance reports them only when it removes)
   */
  public record TableCleanup(String table, List<Long> versions, long bytesRemoved) {
    public TableCleanup {
      Objects.requireNonNull(table, "table");
      versions = List.copyOf(versions);
    }
  }
}
