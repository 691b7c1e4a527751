package io.omnigraph.engine.read;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.VersionStamp;
import io.omnigraph.engine.value.ArrowValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Node tables of hot table versions held in memory, column by column (docs/queries.md, "Node
 * cache"): per (dataset location, version stamp) the ids in table order, an id → row map, and each
 * column a query has needed, as values in the engine's representation. A version never changes, so
 * an entry is always consistent with every snapshot pinning that version; a new version is a new
 * entry (the stamp's commit time also tells a re-created dataset from the one cached before).
 *
 * <p>Admission: an entry is built on the {@code 2 + rows / }{@value #ROWS_PER_USE}-th read of a
 * table version by a read query of this process (so a version read once never pays for the
 * build, and a large table must be read more often to earn it), or at once when the caller would
 * read the whole table anyway. Memory: at most {@link #budget()} bytes (estimated) in all, least
 * recently used versions out; a table whose columns would not fit is never cached (its reads go
 * to Lance). Vector and Blob columns are never cached. Process-wide and thread-safe.
 */
final class NodeCache {
  /** System property: {@code auto} (default), {@code off} (never used), {@code always} (built on first read). */
  static final String MODE = "omnigraph.read.cache";
  /** System property: the byte budget; default the smaller of 256 MiB and a quarter of the maximum heap. */
  static final String BUDGET = "omnigraph.read.cacheBytes";
  static final int ROWS_PER_USE = 100_000;
  /** Remembered read counts of versions not (yet) cached. */
  private static final int MAX_COUNTED = 256;

  private static final Map<String, Table> TABLES = new LinkedHashMap<>(16, 0.75f, true);
  /** Reads per table version not cached yet; -1: refused (it did not fit). */
  private static final Map<String, Integer> USES = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
      return size() > MAX_COUNTED;
    }
  };
  private static long bytes;
  private static final java.util.concurrent.atomic.AtomicLong SERIALS = new java.util.concurrent.atomic.AtomicLong();

  private NodeCache() {}

  /** @return the budget in bytes (system property {@value #BUDGET}, read on every use) */
  static long budget() {
    Long set = Long.getLong(BUDGET);
    return set != null ? set : Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);
  }

  static String mode() {
    return System.getProperty(MODE, "auto");
  }

  /** @return whether a column of this type can be cached (not a vector, not a Blob) */
  static boolean cacheable(PropertyType t) {
    if (t instanceof PropertyType.VectorOf) {
      return false;
    }
    if (t instanceof PropertyType.ListOf l) {
      return l.item() != ScalarKind.BLOB;
    }
    return !(t instanceof PropertyType.Scalar s) || s.kind() != ScalarKind.BLOB;
  }

  /**
   * The cached node table with {@code columns} loaded, loading what is missing.
   *
   * @param wholeTable whether the caller would otherwise read every row of the table (admits at once)
   * @return the entry, or null when the cache does not serve this read (off, not admitted yet,
   *     a column that cannot be cached, or the table does not fit the budget)
   */
  static Table serve(GraphSnapshot snap, String tableKey, Map<String, PropertyType> columns, boolean wholeTable) {
    String mode = mode();
    if (mode.equals("off") || !columns.values().stream().allMatch(NodeCache::cacheable)) {
      return null;
    }
    TableSnapshot t = snap.table(tableKey);
    VersionStamp stamp = t.stamp();
    String key = t.location().uri() + "@" + stamp.version() + "@" + stamp.committedAtNanos();
    long rows = snap.entry(tableKey).rowCount();
    Table table;
    synchronized (NodeCache.class) {
      table = TABLES.get(key);
      if (table == null) {
        int uses = USES.merge(key, 1, (a, b) -> a < 0 ? a : a + b);
        long floor = rows * (Table.ROW_BYTES + Table.VALUE_BYTES * columns.size());
        if (uses < 0 || floor > budget()) {
          return null; // refused before, or cannot fit even by the lower bound of its size
        }
        if (!mode.equals("always") && !wholeTable && uses < 2 + rows / ROWS_PER_USE) {
          return null;
        }
        USES.remove(key);
        table = new Table(key);
        TABLES.put(key, table);
      }
    }
    return table.load(snap, tableKey, columns) ? table : null;
  }

  /** @return the estimated bytes held now */
  static synchronized long bytes() {
    return bytes;
  }

  /** @return how many table versions are cached */
  static synchronized int size() {
    return TABLES.size();
  }

  /** Empties the cache (tests). */
  static synchronized void clear() {
    TABLES.clear();
    USES.clear();
    bytes = 0;
  }

  /** Adds {@code added} bytes to {@code t}, evicting others; false when {@code t} itself no longer fits. */
  private static synchronized boolean account(Table t, long added) {
    if (TABLES.get(t.key) != t) {
      return false; // evicted meanwhile: serve this query, keep nothing
    }
    t.bytes += added;
    bytes += added;
    long budget = budget();
    for (var it = TABLES.values().iterator(); it.hasNext() && bytes > budget; ) {
      Table old = it.next();
      if (old != t) {
        bytes -= old.bytes;
        it.remove();
      }
    }
    if (bytes > budget) {
      refuse(t);
      return false;
    }
    return true;
  }

  private static synchronized long accounted(Table t) {
    return t.bytes;
  }

  private static synchronized void refuse(Table t) {
    if (TABLES.get(t.key) == t) {
      TABLES.remove(t.key);
      bytes -= t.bytes;
    }
    USES.put(t.key, -1);
  }

  /** Thrown inside a load scan when the table outgrows the budget. */
  private static final class TooBig extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooBig() {
      super(null, null, false, false);
    }
  }

  /** One node table version: ids in table order, id → row, the loaded columns. */
  static final class Table {
    /** Per row: the id String and its map entry (estimated lower bound, without the id's characters). */
    static final long ROW_BYTES = 96;
    /** Per value: the array slot and a boxed value (estimated lower bound). */
    static final long VALUE_BYTES = 8;

    final String key;
    /** Unique per instance: a version evicted and loaded again is a new instance (its row order is not assumed equal). */
    final long serial = SERIALS.incrementAndGet();
    private String[] ids;
    private Map<String, Integer> rowOf;
    private final Map<String, Object[]> columns = new ConcurrentHashMap<>();
    /** Accounted bytes (under the class lock). */
    long bytes;

    Table(String key) {
      this.key = key;
    }

    int rows() {
      return ids.length;
    }

    String id(int row) {
      return ids[row];
    }

    /** @return the row of {@code id}, or -1 */
    int row(String id) {
      Integer r = rowOf.get(id);
      return r == null ? -1 : r;
    }

    /** @return the values of a loaded column, by row */
    Object[] column(String name) {
      Object[] c = columns.get(name);
      if (c == null) {
        throw new IllegalStateException("column " + name + " of " + key + " is not loaded");
      }
      return c;
    }

    /** Loads the ids (first time) and every missing column with one scan; false when it does not fit. */
    synchronized boolean load(GraphSnapshot snap, String tableKey, Map<String, PropertyType> wanted) {
      List<String> missing = new ArrayList<>();
      List<PropertyType> types = new ArrayList<>();
      wanted.forEach((c, t) -> {
        if (!columns.containsKey(c)) {
          missing.add(c);
          types.add(t);
        }
      });
      if (ids != null && missing.isEmpty()) {
        return true;
      }
      boolean first = ids == null;
      List<String> projection = new ArrayList<>();
      projection.add("id");
      projection.addAll(missing);
      long budget = budget();
      List<String> newIds = first ? new ArrayList<>() : null;
      Map<String, Integer> newRowOf = first ? new HashMap<>() : null;
      List<List<Object>> values = new ArrayList<>();
      missing.forEach(c -> values.add(new ArrayList<>()));
      Object[][] placed = first ? null : new Object[missing.size()][];
      if (!first) {
        for (int c = 0; c < placed.length; c++) {
          placed[c] = new Object[ids.length];
        }
      }
      long[] size = {0};
      long held = accounted(this);
      try {
        snap.scan(tableKey, projection, null, batch -> {
          VarCharVector id = (VarCharVector) batch.getVector("id");
          List<FieldVector> vecs = new ArrayList<>(missing.size());
          missing.forEach(c -> vecs.add(batch.getVector(c)));
          for (int i = 0; i < batch.getRowCount(); i++) {
            String s = new String(id.get(i), StandardCharsets.UTF_8);
            int row;
            if (first) {
              row = newIds.size();
              newIds.add(s);
              newRowOf.put(s, row);
              size[0] += ROW_BYTES + s.length();
            } else {
              Integer r = rowOf.get(s);
              if (r == null) {
                throw new InternalErrorException("node cache: id " + s + " of " + key + " is not in the cached ids", null);
              }
              row = r;
              s = ids[row];
            }
            for (int c = 0; c < vecs.size(); c++) {
              Object v = ArrowValues.get(vecs.get(c), types.get(c), i);
              size[0] += VALUE_BYTES + sizeOf(v);
              if (first) {
                values.get(c).add(v);
              } else {
                placed[c][row] = v;
              }
            }
          }
          if (held + size[0] > budget) {
            throw new TooBig();
          }
        });
      } catch (TooBig e) {
        refuse(this);
        return false;
      }
      if (first) {
        ids = newIds.toArray(new String[0]);
        rowOf = newRowOf;
        for (int c = 0; c < missing.size(); c++) {
          columns.put(missing.get(c), values.get(c).toArray());
        }
      } else {
        for (int c = 0; c < missing.size(); c++) {
          columns.put(missing.get(c), placed[c]);
        }
      }
      return account(this, size[0]);
    }
  }

  /** @return the estimated heap bytes of one value in the engine's representation (without its reference) */
  static long sizeOf(Object v) {
    if (v == null || v instanceof Boolean) {
      return 0;
    }
    if (v instanceof String s) {
      return 48 + 2L * s.length();
    }
    if (v instanceof List<?> l) {
      long n = 40 + 8L * l.size();
      for (Object o : l) {
        n += sizeOf(o);
      }
      return n;
    }
    if (v instanceof byte[] b) {
      return 16 + b.length;
    }
    if (v instanceof float[] f) {
      return 16 + 4L * f.length;
    }
    return 16; // a boxed number
  }

  /** For tests: the cached keys, least recently used first. */
  static synchronized List<String> keys() {
    return List.copyOf(TABLES.keySet());
  }
}
