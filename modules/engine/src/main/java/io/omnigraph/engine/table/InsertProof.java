package io.omnigraph.engine.table;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of checking that a table's history between two versions is an insertion-only chain
 * (docs/branches.md, "The proven-insert route"): every transaction in {@code (baseVersion,
 * sourceVersion]} on the source's ref is a verified {@link InsertAbsence} v1 link, prepared on the
 * version before it, and the links together inserted exactly the rows the manifest's entity counts
 * grew by. Such an interval holds only rows whose ids were absent from the base version, so a target
 * still at the base version can take them without an id probe and without a merge join.
 *
 * <p>A proven outcome is the capability {@link TableWriter#stageProvenInsert} requires: it is minted
 * only by {@link TableReader#proveInsertOnlyHistory} (the constructor is package-private) and holds
 * the pinned source version, so {@link TableReader#scanProvenRows} reads exactly the proven rows.
 */
public final class InsertProof {
  /** The longest history the proof reads (the per-table merge chain limit). */
  public static final int MAX_LINKS = 1024;

  private final String tableKey;
  private final TableSnapshot source;
  private final long baseVersion;
  private final long rows;
  private final List<Integer> newFragments;
  private final String refusal;

  InsertProof(String tableKey, TableSnapshot source, long baseVersion, long rows, List<Integer> newFragments,
      String refusal) {
    this.tableKey = Objects.requireNonNull(tableKey, "tableKey");
    this.source = source;
    this.baseVersion = baseVersion;
    this.rows = rows;
    this.newFragments = List.copyOf(newFragments);
    this.refusal = refusal;
  }

  /** @return a refusal: the interval of {@code tableKey} after {@code baseVersion} is not proven, because {@code why} */
  public static InsertProof refused(String tableKey, long baseVersion, String why) {
    return new InsertProof(tableKey, null, baseVersion, 0, List.of(), why);
  }

  /** @return whether the interval is a verified insertion-only chain */
  public boolean proven() {
    return refusal == null;
  }

  /** @return why the interval is not proven (a gap, another operation, a count mismatch), or {@code null} */
  public String refusal() {
    return refusal;
  }

  /** @return the table */
  public String tableKey() {
    return tableKey;
  }

  /** @return the version the interval starts after */
  public long baseVersion() {
    return baseVersion;
  }

  /** @return the rows the interval inserted (0 when refused) */
  public long rows() {
    return rows;
  }

  /** @return the pinned source version the proof read (only when proven) */
  TableSnapshot source() {
    return source;
  }

  /** @return the ids of the fragments the interval added, ascending (only when proven) */
  List<Integer> newFragments() {
    return newFragments;
  }
}
