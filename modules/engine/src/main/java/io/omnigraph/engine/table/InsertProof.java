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
  private final List<List<org.lance.FragmentMetadata>> links;
  private final String refusal;

  InsertProof(String tableKey, TableSnapshot source, long baseVersion, long rows, List<Integer> newFragments,
      List<List<org.lance.FragmentMetadata>> links, String refusal) {
    this.tableKey = Objects.requireNonNull(tableKey, "tableKey");
    this.source = source;
    this.baseVersion = baseVersion;
    this.rows = rows;
    this.newFragments = List.copyOf(newFragments);
    this.links = links.stream().map(List::copyOf).toList();
    this.refusal = refusal;
  }

  /** @return a refusal: the interval of {@code tableKey} after {@code baseVersion} is not proven, because {@code why} */
  public static InsertProof refused(String tableKey, long baseVersion, String why) {
    return new InsertProof(tableKey, null, baseVersion, 0, List.of(), List.of(), why);
  }

  /**
   * A proven interval. Its fragments are grouped by the link that added them (matched by data file
   * path) when every added fragment belongs to exactly one link, holds only files of the source's own
   * ref and no deletion file, and every link's group holds that link's rows; otherwise no grouping is
   * kept ({@link #links()} = 0), and the interval can only be re-staged, not adopted.
   *
   * @param sourceFragments every fragment of the source version
   */
  static InsertProof proven(String tableKey, TableSnapshot source, long baseVersion, long rows, List<Integer> added,
      List<InsertAbsence.Link> links, List<org.lance.FragmentMetadata> sourceFragments) {
    java.util.Set<Integer> addedIds = new java.util.HashSet<>(added);
    List<List<org.lance.FragmentMetadata>> groups = new java.util.ArrayList<>();
    links.forEach(l -> groups.add(new java.util.ArrayList<>()));
    boolean grouped = true;
    for (org.lance.FragmentMetadata f : sourceFragments) {
      if (!addedIds.contains(f.getId())) {
        continue;
      }
      int owner = -1;
      for (int i = 0; i < links.size(); i++) {
        java.util.Set<String> files = links.get(i).files();
        if (!f.getFiles().isEmpty() && f.getFiles().stream().allMatch(d -> files.contains(d.getPath()))) {
          owner = owner == -1 ? i : -2;
        }
      }
      boolean own = f.getFiles().stream().allMatch(d -> d.getBaseId().isEmpty()) && f.getDeletionFile() == null;
      if (owner < 0 || !own) {
        grouped = false;
        break;
      }
      groups.get(owner).add(f);
    }
    for (int i = 0; grouped && i < links.size(); i++) {
      long r = groups.get(i).stream().mapToLong(org.lance.FragmentMetadata::getPhysicalRows).sum();
      grouped = !groups.get(i).isEmpty() && r == links.get(i).rows();
    }
    return new InsertProof(tableKey, source, baseVersion, rows, added, grouped ? groups : List.of(), null);
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

  /**
   * @return the links of the interval, in commit order (only when proven); 0 when the grouping of
   *     its fragments by link could not be established (then it can be re-staged, not adopted)
   */
  public int links() {
    return links.size();
  }

  /** @return the source's fragments link {@code i} added, as the source version's manifest lists them */
  List<org.lance.FragmentMetadata> linkFragments(int i) {
    return links.get(i);
  }
}
