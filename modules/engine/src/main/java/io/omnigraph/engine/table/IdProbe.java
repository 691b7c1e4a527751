package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.lance.FragmentMetadata;
import org.lance.ipc.ScanOptions;

/**
 * The strict-insert id probe ({@link TableReader#existingIds}) with the store's memory of fragment
 * ids ({@link FragmentIdSets}; docs/maintenance.md, "Flat write cost"). Per fragment of the pinned
 * version: known and holding none of the probed ids → not read; known with a hash hit, bigger than
 * {@link FragmentIdSets#MAX_FRAGMENT_ROWS}, or on a branch ref → scanned through the {@code id IN
 * (...)} filter (and its BTREE index, when there is one); small and unknown → its whole id column
 * is read once (the same request a filtered scan of it makes) and remembered.
 */
final class IdProbe {
  private static final String ID = TableReader.ID;

  private final TableReader reader;
  private final FragmentIdSets known = new FragmentIdSets();

  IdProbe(TableReader reader) {
    this.reader = reader;
  }

  /** @return the subset of {@code ids} present at the pinned version (in {@code ids} order) */
  List<String> existingIds(TableSnapshot s, Collection<String> ids) {
    Set<String> found = new HashSet<>();
    rowAddresses(s, ids, found);
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      if (found.contains(id)) {
        out.add(id);
      }
    }
    return out;
  }

  /**
   * The live rows of the pinned version whose id is one of {@code ids} (the upsert's row lookup, and
   * the probe).
   *
   * @param found receives every id found
   * @return fragment id to row offsets (ascending) of those rows
   */
  Map<Integer, List<Integer>> rowAddresses(TableSnapshot s, Collection<String> ids, Set<String> found) {
    Map<Integer, List<Integer>> out = new TreeMap<>();
    if (ids.isEmpty()) {
      return out;
    }
    TableReader.countIdProbe();
    String uri = s.location().uri();
    long[] probe = FragmentIdSets.hashes(ids);
    List<Integer> unknown = new ArrayList<>();
    List<Integer> filtered = new ArrayList<>();
    Map<Integer, String> keys = new HashMap<>();
    List<FragmentMetadata> fragments = fragments(s);
    for (FragmentMetadata m : fragments) {
      String key = FragmentIdSets.cacheable(uri) ? FragmentIdSets.key(uri, m) : null;
      long[] hashes = key == null ? null : known.lookup(uri, m);
      if (hashes != null) {
        if (FragmentIdSets.intersects(hashes, probe)) {
          filtered.add(m.getId());
        }
      } else if (key != null && FragmentIdSets.small(m.getPhysicalRows())) {
        unknown.add(m.getId());
        keys.put(m.getId(), key);
      } else {
        filtered.add(m.getId());
      }
    }
    Set<String> wanted = new HashSet<>(ids);
    BiConsumer<String, Long> match = (id, address) -> {
      if (wanted.contains(id)) {
        found.add(id);
        out.computeIfAbsent((int) (address >>> 32), k -> new ArrayList<>()).add((int) (address & 0xffffffffL));
      }
    };
    if (!unknown.isEmpty()) {
      learn(s, unknown, keys, match);
    }
    if (!filtered.isEmpty()) {
      for (List<String> chunk : TableReader.chunks(ids)) {
        ScanOptions.Builder b = new ScanOptions.Builder().columns(List.of(ID)).filter(LanceFilter.in(ID, chunk).sql())
            .withRowAddress(true);
        if (filtered.size() < fragments.size()) {
          b.fragmentIds(filtered);
        }
        reader.scanWith(s, b.build(), root -> {
          VarCharVector v = (VarCharVector) root.getVector(ID);
          UInt8Vector a = (UInt8Vector) root.getVector("_rowaddr");
          for (int i = 0; i < root.getRowCount(); i++) {
            match.accept(new String(v.get(i), StandardCharsets.UTF_8), a.get(i));
          }
        });
      }
    }
    out.values().forEach(java.util.Collections::sort);
    return out;
  }

  static final java.util.concurrent.atomic.AtomicLong SKIPPED_BY_IDS = new java.util.concurrent.atomic.AtomicLong();

  /** @see TableReader#scanIdsWithRowAddress */
  void scanIds(TableSnapshot s, Collection<String> ids, LanceFilter filter,
      java.util.function.Consumer<org.apache.arrow.vector.VectorSchemaRoot> batches) {
    List<FragmentMetadata> fragments = fragments(s);
    List<Integer> candidates = candidates(s, fragments, ids);
    ScanOptions.Builder b = new ScanOptions.Builder().withRowAddress(true).filter(filter.sql());
    if (candidates != null) {
      SKIPPED_BY_IDS.addAndGet(fragments.size() - candidates.size());
      if (candidates.isEmpty()) {
        return;
      }
      b.fragmentIds(candidates);
    }
    reader.scanWith(s, b.build(), batches);
  }

  /**
   * The fragments of the pinned version that may hold a live row whose id is one of {@code ids}:
   * every fragment except those this memory knows and whose hashes hold none of them (exact: a known
   * fragment's hashes cover every live row of that content).
   *
   * @return their ids, or {@code null} when that is every fragment
   */
  private List<Integer> candidates(TableSnapshot s, List<FragmentMetadata> fragments, Collection<String> ids) {
    String uri = s.location().uri();
    if (!FragmentIdSets.cacheable(uri)) {
      return null;
    }
    long[] probe = FragmentIdSets.hashes(ids);
    List<Integer> out = new ArrayList<>();
    for (FragmentMetadata m : fragments) {
      long[] hashes = known.lookup(uri, m);
      if (hashes == null || FragmentIdSets.intersects(hashes, probe)) {
        out.add(m.getId());
      }
    }
    return out.size() == fragments.size() ? null : out;
  }

  /**
   * Remembers that the fragments a keyed write staged on {@code location} hold exactly {@code ids}
   * (only when it staged one fragment, so that every id is in it).
   */
  void remember(LanceLocation location, List<FragmentMetadata> staged, Collection<String> ids) {
    if (staged.size() == 1 && FragmentIdSets.cacheable(location.uri())
        && FragmentIdSets.small(staged.get(0).getPhysicalRows())) {
      known.put(FragmentIdSets.key(location.uri(), staged.get(0)), FragmentIdSets.hashes(ids));
    }
  }

  /** @see TableReader#learnIds */
  int learnIds(TableSnapshot s) {
    String uri = s.location().uri();
    if (!FragmentIdSets.cacheable(uri) || reader.schema(s).getFields().stream().noneMatch(f -> f.getName().equals(ID))) {
      return 0;
    }
    List<Integer> unknown = new ArrayList<>();
    Map<Integer, String> keys = new HashMap<>();
    for (FragmentMetadata m : fragments(s)) {
      String key = FragmentIdSets.key(uri, m);
      if (known.lookup(uri, m) == null && FragmentIdSets.small(m.getPhysicalRows())) {
        unknown.add(m.getId());
        keys.put(m.getId(), key);
      }
    }
    if (!unknown.isEmpty()) {
      learn(s, unknown, keys, (id, address) -> { });
    }
    return unknown.size();
  }

  /** @return the number of fragments whose ids are known (tests) */
  int knownFragments() {
    return known.fragments();
  }

  void clear() {
    known.clear();
  }

  private static List<FragmentMetadata> fragments(TableSnapshot s) {
    return LanceCalls.lance(s.location().uri(), "read", () -> s.dataset().getFragments().stream()
        .map(org.lance.Fragment::metadata).toList());
  }

  /** Reads the whole id column of {@code fragments}, hands every id to {@code each} and remembers each fragment's ids. */
  private void learn(TableSnapshot s, List<Integer> fragments, Map<Integer, String> keys,
      BiConsumer<String, Long> each) {
    Map<Integer, List<String>> byFragment = new HashMap<>();
    fragments.forEach(f -> byFragment.put(f, new ArrayList<>()));
    reader.scanWith(s, new ScanOptions.Builder().columns(List.of(ID)).withRowAddress(true).fragmentIds(fragments).build(),
        root -> {
          VarCharVector v = (VarCharVector) root.getVector(ID);
          UInt8Vector a = (UInt8Vector) root.getVector("_rowaddr");
          for (int i = 0; i < root.getRowCount(); i++) {
            String id = new String(v.get(i), StandardCharsets.UTF_8);
            byFragment.get((int) (a.get(i) >>> 32)).add(id);
            each.accept(id, a.get(i));
          }
        });
    byFragment.forEach((f, list) -> known.put(keys.get(f), FragmentIdSets.hashes(list)));
  }
}
