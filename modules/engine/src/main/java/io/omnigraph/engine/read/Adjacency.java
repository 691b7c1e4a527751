package io.omnigraph.engine.read;

import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.TableSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.vector.VarCharVector;

/**
 * An in-memory adjacency structure of one edge table at one version: node ids interned to dense
 * ints from their UTF-8 bytes ({@link IdInterner}), CSR (out) and CSC (in) offset arrays. Built from one scan of the {@code src}/{@code dst}
 * columns; immutable, so one instance serves every query of any snapshot that pins the same table
 * version. Cached process-wide by (table location, version, the version's commit time), least
 * recently used first out, at most {@value #MAX_TABLES} tables and {@link #maxEdges()} edges in
 * all (docs/queries.md, "Traversal strategies"); a table larger than that alone is never kept.
 */
final class Adjacency {
  static final int MAX_TABLES = 8;
  /** System property: the most edges the cache holds in all (default {@value #DEFAULT_MAX_EDGES}). */
  static final String MAX_EDGES = "omnigraph.read.csrEdges";
  static final long DEFAULT_MAX_EDGES = 50_000_000L;

  private static final Map<String, Adjacency> CACHE = new LinkedHashMap<>(16, 0.75f, true);
  private static long cachedEdges;

  private final IdInterner ids;
  private final int[] outOff;
  private final int[] outTgt;
  private final int[] inOff;
  private final int[] inTgt;
  final int edges;

  private Adjacency(IdInterner ids, int[] src, int[] dst, int edges) {
    this.ids = ids;
    this.edges = edges;
    int n = ids.size();
    outOff = new int[n + 1];
    inOff = new int[n + 1];
    for (int e = 0; e < edges; e++) {
      outOff[src[e] + 1]++;
      inOff[dst[e] + 1]++;
    }
    for (int i = 0; i < n; i++) {
      outOff[i + 1] += outOff[i];
      inOff[i + 1] += inOff[i];
    }
    outTgt = new int[edges];
    inTgt = new int[edges];
    int[] o = Arrays.copyOf(outOff, n);
    int[] in = Arrays.copyOf(inOff, n);
    for (int e = 0; e < edges; e++) {
      outTgt[o[src[e]]++] = dst[e];
      inTgt[in[dst[e]]++] = src[e];
    }
  }

  /** @return whether the adjacency of that table version is cached */
  static synchronized boolean isCached(TableSnapshot table) {
    return CACHE.containsKey(key(table));
  }

  /** @return the cached adjacency of the snapshot's edge table, building it on first use */
  static Adjacency of(GraphSnapshot snapshot, String tableKey) {
    TableSnapshot table = snapshot.table(tableKey);
    String key = key(table);
    synchronized (Adjacency.class) {
      Adjacency a = CACHE.get(key);
      if (a != null) {
        return a;
      }
    }
    Adjacency built = build(snapshot, tableKey);
    long max = maxEdges();
    synchronized (Adjacency.class) {
      Adjacency raced = CACHE.get(key);
      if (raced != null) {
        return raced;
      }
      if (built.edges > max) {
        return built; // serves this expansion only (the chooser never builds one unless forced)
      }
      CACHE.put(key, built);
      cachedEdges += built.edges;
      for (var it = CACHE.entrySet().iterator(); it.hasNext() && (CACHE.size() > MAX_TABLES || cachedEdges > max); ) {
        var e = it.next();
        if (e.getValue() == built) {
          continue;
        }
        cachedEdges -= e.getValue().edges;
        it.remove();
      }
      return built;
    }
  }

  /** @return the bound on the edges cached in all (system property {@value #MAX_EDGES}, read on every use) */
  static long maxEdges() {
    return Long.getLong(MAX_EDGES, DEFAULT_MAX_EDGES);
  }

  /** @return how many table versions are cached (tests) */
  static synchronized int cachedTables() {
    return CACHE.size();
  }

  /** @return how many edges the cached table versions hold in all (tests) */
  static synchronized long cachedEdges() {
    return cachedEdges;
  }

  /** Empties the process-wide cache and the use counts (tests). */
  static synchronized void clearCache() {
    CACHE.clear();
    USES.clear();
    cachedEdges = 0;
  }

  /** Expansions per edge table version not built yet (most recently used 256 versions). */
  private static final Map<String, Integer> USES = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
      return size() > 256;
    }
  };

  /**
   * The cost rule's exchange rate (docs/queries.md, "Traversal strategies"): one indexed expansion
   * (a BTREE-answered Lance scan, a few milliseconds) costs about as much as building the CSR of
   * this many edges (the interned build: about 0.15-0.2 µs per edge once compiled).
   */
  static final long EDGES_PER_USE = 20_000;

  /**
   * @return the expansion of a table version of {@code edges} rows that builds its CSR: {@code 2 +
   *     edges / }{@value #EDGES_PER_USE}, so the indexed expansions paid for before it cost about
   *     one build (a version expanded once never pays for a build)
   */
  static long usesToBuild(long edges) {
    return 2 + edges / EDGES_PER_USE;
  }

  /**
   * Counts one expansion of that table version by a read query and says whether the version is
   * hot: expanded at least {@link #usesToBuild} times (docs/queries.md, "Traversal strategies").
   */
  static synchronized boolean hot(TableSnapshot table, long edges) {
    int uses = USES.merge(key(table), 1, Integer::sum);
    return uses >= usesToBuild(edges);
  }

  /** Location, version and the version's commit time: a dataset re-created at the same location is a new key. */
  private static String key(TableSnapshot t) {
    io.omnigraph.engine.table.VersionStamp s = t.stamp();
    return t.location().uri() + "@" + s.version() + "@" + s.committedAtNanos();
  }

  /**
   * One scan of {@code src}/{@code dst}; each endpoint interned from its bytes in the Arrow batch
   * ({@link IdInterner}: no String per endpoint), then the offset arrays by counting sort.
   */
  private static Adjacency build(GraphSnapshot snapshot, String tableKey) {
    IdInterner ids = new IdInterner();
    int[][] arrays = {new int[1024], new int[1024]};
    int[] count = {0};
    snapshot.scan(tableKey, List.of("src", "dst"), null, batch -> {
      int rows = batch.getRowCount();
      if (count[0] + rows > arrays[0].length) {
        int cap = Math.max(arrays[0].length * 2, count[0] + rows);
        arrays[0] = Arrays.copyOf(arrays[0], cap);
        arrays[1] = Arrays.copyOf(arrays[1], cap);
      }
      ids.internAll((VarCharVector) batch.getVector("src"), rows, arrays[0], count[0]);
      ids.internAll((VarCharVector) batch.getVector("dst"), rows, arrays[1], count[0]);
      count[0] += rows;
    });
    ids.freeze();
    return new Adjacency(ids, arrays[0], arrays[1], count[0]);
  }

  /** For tests: the adjacency of these edges ({@code src[e] -> dst[e]}), not cached. */
  static Adjacency ofPairs(List<String> src, List<String> dst) {
    IdInterner ids = new IdInterner();
    int[] s = new int[src.size()];
    int[] d = new int[src.size()];
    for (int e = 0; e < s.length; e++) {
      byte[] a = src.get(e).getBytes(StandardCharsets.UTF_8);
      byte[] b = dst.get(e).getBytes(StandardCharsets.UTF_8);
      s[e] = ids.intern(a, 0, a.length);
      d[e] = ids.intern(b, 0, b.length);
    }
    ids.freeze();
    return new Adjacency(ids, s, d, s.length);
  }

  /** Node tables whose rows are mapped to dense indexes ({@link #rowIndex}), at most this many per adjacency. */
  static final int MAX_ROW_INDEXES = 4;

  /** Per cached node table instance ({@link NodeCache.Table#serial}): row → dense index or -1; least recently used out. */
  private final Map<Long, int[]> rowIndexes = new LinkedHashMap<>(8, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, int[]> eldest) {
      return size() > MAX_ROW_INDEXES;
    }
  };

  /**
   * The dense index of every row of a cached node table version (-1: no edge in this table), built
   * once per (node table version, edge table version) with one hash lookup per row and kept with
   * this adjacency (4 bytes per node row, at most {@value #MAX_ROW_INDEXES} node table versions),
   * so a traversal from rows of that table never hashes an id (docs/queries.md, "Traversal
   * strategies").
   *
   * @param build whether to build it when missing (else null is returned)
   * @return the map, or null
   */
  int[] rowIndex(NodeCache.Table t, boolean build) {
    synchronized (rowIndexes) {
      int[] m = rowIndexes.get(t.serial);
      if (m != null || !build) {
        return m;
      }
    }
    int[] m = new int[t.rows()];
    for (int r = 0; r < m.length; r++) {
      m[r] = indexOf(t.id(r));
    }
    synchronized (rowIndexes) {
      rowIndexes.putIfAbsent(t.serial, m);
      return rowIndexes.get(t.serial);
    }
  }

  /** @return the dense index of node {@code id}, or -1 when it has no edge in this table */
  int indexOf(String id) {
    return ids.find(id);
  }

  /** @return the node id of dense index {@code i} */
  String id(int i) {
    return ids.id(i);
  }

  /**
   * Appends the dense indexes of every neighbour of node {@code i} in that direction (once per
   * edge; out-neighbours first for {@code BOTH}) to {@code out} from position {@code n}, growing it.
   *
   * @return the buffer (maybe a new one) and, through {@code count[0]}, the new length
   */
  int[] neighbors(int i, Op.Dir dir, int[] out, int[] count) {
    int n = count[0];
    int need = n + (dir != Op.Dir.IN ? outOff[i + 1] - outOff[i] : 0) + (dir != Op.Dir.OUT ? inOff[i + 1] - inOff[i] : 0);
    if (need > out.length) {
      out = Arrays.copyOf(out, Math.max(need, out.length * 2));
    }
    if (dir != Op.Dir.IN) {
      int len = outOff[i + 1] - outOff[i];
      System.arraycopy(outTgt, outOff[i], out, n, len);
      n += len;
    }
    if (dir != Op.Dir.OUT) {
      int len = inOff[i + 1] - inOff[i];
      System.arraycopy(inTgt, inOff[i], out, n, len);
      n += len;
    }
    count[0] = n;
    return out;
  }

  /**
   * One hop from each source: its distinct neighbours in adjacency order, the source itself first
   * when a same-type self-loop reaches it — exactly what the executor's breadth-first search reports
   * at depth 1 (docs/queries.md, "Traversals") — without per-source sets and maps of strings.
   *
   * @param sameType whether the edge joins a type to itself (the source is then its own
   *     destination only through a self-loop)
   * @return source → destinations (an empty list for a source without edges)
   */
  Map<String, List<String>> oneHop(Collection<String> sources, Op.Dir dir, boolean sameType) {
    Map<String, List<String>> out = new HashMap<>(sources.size() * 2);
    OneHop hop = new OneHop(dir, sameType);
    for (String s : sources) {
      int i = indexOf(s);
      int n = i < 0 ? 0 : hop.of(i);
      List<String> found = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        found.add(ids.id(hop.found[k]));
      }
      out.put(s, found);
    }
    return out;
  }

  /** @return how many nodes have an edge in this table */
  int nodes() {
    return ids.size();
  }

  /**
   * One-hop destinations of one source at a time as dense indexes, in {@link #oneHop}'s order (the
   * source first when a same-type self-loop reaches it, then its distinct neighbours in adjacency
   * order). Reuses its buffers: {@link #found} is valid until the next call.
   */
  final class OneHop {
    /** Up to this many edges a node's distinct neighbours are found by comparing, without the bitmap. */
    static final int SMALL = 32;

    private final Op.Dir dir;
    private final boolean sameType;
    private int[] buf = new int[16];
    private final int[] count = new int[1];
    /**
     * One bit per node, all clear between calls (a BitSet's clear rescans its words: quadratic
     * over a piece); made on the first node with more than {@value #SMALL} edges, so a reader of
     * a few small nodes allocates nothing in proportion to the CSR.
     */
    private long[] seen;
    int[] found = new int[16];

    OneHop(Op.Dir dir, boolean sameType) {
      this.dir = dir;
      this.sameType = sameType;
    }

    /** @return how many destinations node {@code i} has; they are {@code found[0..n)} */
    int of(int i) {
      count[0] = 0;
      buf = neighbors(i, dir, buf, count);
      int n = count[0];
      if (found.length < n + 1) {
        found = new int[Math.max(n + 1, found.length * 2)];
      }
      int m = 0;
      boolean selfLoop = false;
      if (n <= SMALL) {
        for (int k = 0; k < n; k++) {
          int w = buf[k];
          if (sameType && w == i) {
            selfLoop = true;
          } else if (!among(w, m)) {
            found[m++] = w;
          }
        }
      } else {
        if (seen == null) {
          seen = new long[(ids.size() >>> 6) + 1];
        }
        for (int k = 0; k < n; k++) {
          int w = buf[k];
          if (sameType && w == i) {
            selfLoop = true;
          } else if ((seen[w >>> 6] & (1L << w)) == 0) {
            seen[w >>> 6] |= 1L << w;
            found[m++] = w;
          }
        }
        for (int k = 0; k < n; k++) {
          seen[buf[k] >>> 6] = 0;
        }
      }
      if (selfLoop) {
        System.arraycopy(found, 0, found, 1, m);
        found[0] = i;
        m++;
      }
      return m;
    }

    /** @return whether {@code w} is among {@code found[0..m)} */
    private boolean among(int w, int m) {
      for (int k = 0; k < m; k++) {
        if (found[k] == w) {
          return true;
        }
      }
      return false;
    }
  }

  /** Calls {@code each} with every neighbour of {@code id} in that direction (once per edge). */
  void neighbors(String id, Op.Dir dir, Consumer<String> each) {
    int i = ids.find(id);
    if (i < 0) {
      return;
    }
    if (dir != Op.Dir.IN) {
      for (int k = outOff[i]; k < outOff[i + 1]; k++) {
        each.accept(ids.id(outTgt[k]));
      }
    }
    if (dir != Op.Dir.OUT) {
      for (int k = inOff[i]; k < inOff[i + 1]; k++) {
        each.accept(ids.id(inTgt[k]));
      }
    }
  }

  /** @return whether dense node {@code i} (-1: none) has at least one edge in that direction */
  boolean hasAny(int i, Op.Dir dir) {
    return i >= 0 && ((dir != Op.Dir.IN && outOff[i + 1] > outOff[i]) || (dir != Op.Dir.OUT && inOff[i + 1] > inOff[i]));
  }
}
