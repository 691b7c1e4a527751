package io.omnigraph.engine.table;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;
import org.lance.fragment.DeletionFile;

/**
 * What the strict-insert id probe knows without reading (docs/maintenance.md, "Flat write cost"):
 * per fragment content of a main-ref table, the 64-bit hashes of the ids of its live rows. A
 * fragment's content is fixed by its data files (UUID-named, written once) and its deletion file
 * (also written once; a delete gives the fragment a new one), so the key {@link #key} names content
 * that never changes and an entry never goes stale. A fragment with a deletion file whose own
 * content is unknown is answered from its data files' entry, if known: a superset of its live ids
 * ({@link #lookup}).
 *
 * <p>An entry answers "none of these ids is here" exactly (a hash miss is a certain miss); a hash
 * hit only says "maybe", and the probe then scans that fragment with the id filter, so a hash
 * collision costs a read, never a wrong answer. Entries come from the handle's own writes (a keyed
 * write that staged one new fragment knows its ids: {@link IdProbe#remember}), from the
 * probe's own reads of a fragment it did not know, and from maintenance, which reads the fragments
 * its compaction made ({@link TableReader#learnIds}). So a handle that writes alone probes a 1-row
 * insert with no read at all, however many fragments earlier writes left.
 *
 * <p>Bounded: only fragments of at most {@value #MAX_FRAGMENT_ROWS} physical rows are known (a
 * bigger one is read through the filter, and its BTREE index when it has one), and at most
 * {@value #MAX_IDS} hashes in all (8 bytes each; the least recently used fragments are forgotten).
 * Only main refs: a branch ref can be deleted and re-created under the same name.
 */
final class FragmentIdSets {
  /** Fragments with more physical rows than this are never cached. */
  static final long MAX_FRAGMENT_ROWS = 65_536;
  /** At most this many hashes are cached per store. */
  static final long MAX_IDS = 1L << 20;

  private final LinkedHashMap<String, long[]> byContent = new LinkedHashMap<>(16, 0.75f, true);
  private long size;

  /** @return whether fragments of the dataset at {@code uri} may be cached (a main ref) */
  static boolean cacheable(String uri) {
    return !uri.contains("/tree/");
  }

  /** @return whether a fragment of {@code physicalRows} rows may be cached */
  static boolean small(long physicalRows) {
    return physicalRows <= MAX_FRAGMENT_ROWS;
  }

  /** @return the key of the content of fragment {@code m} of the dataset at {@code uri}: its data files and deletion file */
  static String key(String uri, FragmentMetadata m) {
    StringBuilder b = new StringBuilder(physicalKey(uri, m));
    DeletionFile d = m.getDeletionFile();
    if (d != null) {
      b.append(d.getId()).append('@').append(d.getReadVersion()).append(':').append(d.getFileType());
    }
    return b.toString();
  }

  /** @return the key fragment {@code m}'s data files had before any row was deleted from them (its {@link #key} without a deletion file) */
  private static String physicalKey(String uri, FragmentMetadata m) {
    StringBuilder b = new StringBuilder(uri).append('|');
    for (DataFile f : m.getFiles()) {
      b.append(f.getBaseId().map(String::valueOf).orElse("")).append(':').append(f.getPath()).append(',');
    }
    return b.append('|').toString();
  }

  /** @return the sorted hashes of the live ids of the content under {@code key}, or {@code null} when unknown */
  synchronized long[] get(String key) {
    return byContent.get(key);
  }

  /**
   * @return the sorted hashes known for fragment {@code m} of the dataset at {@code uri}: of exactly
   *     its content, else — when it has a deletion file — of its data files before any deletion, a
   *     superset of its live ids (data files are written once, and rows are only ever deleted from
   *     them), so a miss is still a certain miss and a hit a filtered scan; {@code null} when unknown.
   *     A delete or an update in a known fragment therefore does not make the next probe read it.
   */
  synchronized long[] lookup(String uri, FragmentMetadata m) {
    long[] exact = byContent.get(key(uri, m));
    return exact != null || m.getDeletionFile() == null ? exact : byContent.get(physicalKey(uri, m));
  }

  /** Records the live ids of the content under {@code key} (as {@link #hashes}). */
  synchronized void put(String key, long[] sortedHashes) {
    if (sortedHashes.length > MAX_IDS) {
      return;
    }
    long[] old = byContent.put(key, sortedHashes);
    size += sortedHashes.length - (old == null ? 0 : old.length);
    Iterator<Map.Entry<String, long[]>> it = byContent.entrySet().iterator();
    while (size > MAX_IDS && it.hasNext()) {
      Map.Entry<String, long[]> eldest = it.next();
      size -= eldest.getValue().length;
      it.remove();
    }
  }

  /** @return the number of fragments known (tests) */
  synchronized int fragments() {
    return byContent.size();
  }

  /** Forgets everything (the store is closing). */
  synchronized void clear() {
    byContent.clear();
    size = 0;
  }

  /** @return the sorted, distinct hashes of {@code ids} */
  static long[] hashes(Collection<String> ids) {
    long[] out = new long[ids.size()];
    int i = 0;
    for (String id : ids) {
      out[i++] = hash(id);
    }
    Arrays.sort(out);
    return Arrays.stream(out).distinct().toArray();
  }

  /** @return whether two sorted hash arrays share an element */
  static boolean intersects(long[] a, long[] b) {
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        return true;
      }
      if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return false;
  }

  /** @return a 64-bit hash of the UTF-8 bytes of {@code id} (FNV-1a, then the splitmix64 finalizer) */
  static long hash(String id) {
    long h = 0xcbf29ce484222325L;
    for (byte x : id.getBytes(StandardCharsets.UTF_8)) {
      h ^= x & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 30;
    h *= 0xbf58476d1ce4e5b9L;
    h ^= h >>> 27;
    h *= 0x94d049bb133111ebL;
    return h ^ (h >>> 31);
  }
}
