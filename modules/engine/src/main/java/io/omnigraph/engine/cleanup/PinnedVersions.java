package io.omnigraph.engine.cleanup;

import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.table.NativeBranch;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every table version some commit needs, read from the latest manifest of main and of every live
 * branch (docs/maintenance.md, "cleanup"), and the table refs those manifests publish.
 *
 * <p>A commit pins a version number per table key, not a ref; a branch's versions continue the
 * numbering of the version it forked from, so the same number can name a version of main and one
 * of a branch's ref. The pins are therefore kept per table key and apply to every ref of that
 * table: a version is kept when its number is pinned on any ref. That keeps more than needed,
 * never less. A branch that has not written a table yet publishes its parent's version of it (a
 * lazy fork), and its commits pin that version like any other.
 *
 * <p>A commit names a table by the key it had then; a renamed table has another key now, and a
 * soft-dropped one none. So the pins are also kept per dataset path, from the manifests'
 * {@code table_version} rows (one per version ever published of a table, under its stable identity,
 * whatever its key): a version some commit pins was published, so it is among them. Soft-dropped
 * tables (a tombstone hides them from the latest manifest) are cleaned too, on their main ref, under
 * the same rules.
 *
 * @param pins per table key, every version any commit (and any current table entry) of any branch pins
 * @param published per dataset path, every version a {@code table_version} row of any branch's manifest publishes
 * @param refs the table refs to clean: each table's dataset and ref as some branch publishes it, and
 *     the main ref of each soft-dropped table
 * @param branches the branches read: {@code main} first, then every live branch by name
 */
public record PinnedVersions(Map<String, Set<Long>> pins, Map<String, Set<Long>> published, List<TableRef> refs,
    List<String> branches) {
  public PinnedVersions {
    pins = frozen(pins);
    published = frozen(published);
    refs = List.copyOf(refs);
    branches = List.copyOf(branches);
  }

  private static Map<String, Set<Long>> frozen(Map<String, Set<Long>> in) {
    Map<String, Set<Long>> copy = new TreeMap<>();
    in.forEach((k, v) -> copy.put(k, java.util.Collections.unmodifiableSet(new TreeSet<>(v))));
    return java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * One table's dataset on one native ref.
   *
   * @param tableKey the table key
   * @param path the dataset path relative to the graph root
   * @param branch the native ref ({@code null}: the dataset's main)
   * @param dropped a soft-dropped table (no branch publishes it any more)
   */
  public record TableRef(String tableKey, String path, String branch, boolean dropped) {
    static final Comparator<TableRef> ORDER = Comparator.comparing(TableRef::tableKey)
        .thenComparing(r -> r.branch() == null ? "" : "~" + r.branch()).thenComparing(TableRef::path);
  }

  /** @return the versions of {@code tableKey} some commit pins (empty: none) */
  public Set<Long> of(String tableKey) {
    return pins.getOrDefault(tableKey, Set.of());
  }

  /** @return the versions of {@code ref} that must stay: pinned by its key or published for its dataset */
  public Set<Long> of(TableRef ref) {
    Set<Long> out = new TreeSet<>(of(ref.tableKey()));
    out.addAll(published.getOrDefault(ref.path(), Set.of()));
    return out;
  }

  /**
   * Reads the latest manifest of main and of every live branch.
   *
   * @param snapshots the root's resolver
   */
  static PinnedVersions read(SnapshotResolver snapshots, ManifestStore manifest) {
    Map<String, Set<Long>> pins = new TreeMap<>();
    Map<String, Set<Long>> published = new TreeMap<>();
    Set<TableRef> refs = new TreeSet<>(TableRef.ORDER);
    List<String> branches = new java.util.ArrayList<>();
    ManifestState main = snapshots.latest();
    add(main, pins, refs);
    branches.add(GraphBranch.MAIN);
    for (NativeBranch b : snapshots.liveBranches()) {
      ManifestState state = snapshots.latest(b.name());
      add(state, pins, refs);
      branches.add(b.name());
    }
    Set<String> live = new java.util.HashSet<>();
    refs.forEach(r -> live.add(r.path()));
    for (String branch : branches) {
      for (ManifestStore.RecordedTable t : manifest.recordedTables(branch)) {
        published.computeIfAbsent(t.path(), x -> new TreeSet<>()).addAll(t.versions());
        if (t.dropped() && !live.contains(t.path())) {
          refs.add(new TableRef(t.tableKey(), t.path(), null, true));
        }
      }
    }
    return new PinnedVersions(pins, published, List.copyOf(refs), branches);
  }

  private static void add(ManifestState state, Map<String, Set<Long>> pins, Set<TableRef> refs) {
    for (GraphCommit c : state.commits()) {
      c.tableVersions().forEach((k, v) -> pins.computeIfAbsent(k, x -> new TreeSet<>()).add(v));
    }
    for (TableEntry t : state.tables().values()) {
      pins.computeIfAbsent(t.tableKey(), x -> new TreeSet<>()).add(t.version());
      refs.add(new TableRef(t.tableKey(), t.path(), t.branch(), false));
    }
  }
}
