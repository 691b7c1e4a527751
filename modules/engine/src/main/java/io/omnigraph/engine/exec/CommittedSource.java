package io.omnigraph.engine.exec;

import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.table.TableSnapshot;

/**
 * The committed side of a mutation's reads: the tables of one manifest cut, each pinned at its
 * published version. Every read of one mutation attempt comes from the same cut.
 */
public interface CommittedSource {
  /**
   * @param tableKey {@code node:T} or {@code edge:E}
   * @return the table's published entry in the cut
   */
  TableEntry entry(String tableKey);

  /**
   * @param tableKey {@code node:T} or {@code edge:E}
   * @return the table pinned at its published version (owned by the source; do not close)
   */
  TableSnapshot snapshot(String tableKey);
}
