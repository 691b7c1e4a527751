package io.omnigraph.engine.read;

import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.VarCharVector;

/**
 * One traversal of a read plan ({@link Op.Expand}) as a pipeline stage (docs/queries.md,
 * "Traversals", "Traversal strategies"): per piece of source rows, the destinations by breadth-first
 * search over the CSR or indexed edge scans (chosen by cost), edge bindings by edge scans, and the
 * destinations' rows hydrated from the node cache or Lance.
 */
final class ExpandSink implements ReadExecutor.Sink {
  /** A destination that failed its filters (memo marker). */
  private static final Entity NONE_ROW = new Entity("", null, null, Entity.NONE);

  /** One edge reached from a source: the edge row and the node at its other end. */
  private record Hit(Entity edge, String other) {}

  @FunctionalInterface
  private interface Neighbors {
    Map<String, List<String>> of(Set<String> ids);
  }

  private final ReadExecutor ex;
  private final GraphSnapshot snap;
  private final ReadPlan plan;
  private final BindingScans scans;
  private final Op.Expand x;
  private final ReadExecutor.Sink next;
  private Adjacency csr;
  /** Whether this expansion was counted as a use of its edge table version ({@link Adjacency#hot}). */
  private boolean counted;

  /** The executor's counter names, made once per expansion (a String concatenation per piece costs microseconds while interpreted). */
  private final String rowsExpanded;
  private final String expandCsr;
  private final String csrRowIndex;
  private final String pairsCounted;

  ExpandSink(ReadExecutor ex, Op.Expand x, ReadExecutor.Sink next) {
    this.rowsExpanded = "rows expanded " + x.edge().name();
    this.expandCsr = "expand csr " + x.edge().name();
    this.csrRowIndex = "csr row index " + x.edge().name();
    this.pairsCounted = "pairs counted " + x.edge().name();
    this.ex = ex;
    this.snap = ex.snap;
    this.plan = ex.plan;
    this.scans = ex.scans;
    this.x = x;
    this.next = next;
  }

  @Override
  public void finish() {
    if (pairs != null) {
      flushPairs();
    }
    next.finish();
  }

  @Override
  public void push(List<Row> rows) {
    for (int at = 0; at < rows.size(); at += ReadExecutor.PIECE) {
      piece(rows.subList(at, Math.min(rows.size(), at + ReadExecutor.PIECE)));
    }
  }

  private void piece(List<Row> rows) {
    ex.count(rowsExpanded, rows.size());
    int fs = x.from().slot;
    int ts = x.to().slot;
    boolean plainOneHop = x.edgeVar() == null && !x.closing() && x.minHops() == 1 && x.maxHops() == 1;
    if (plainOneHop && csr != null && csr.nodes() <= ReadExecutor.MEMO_MAX_NODES) {
      oneHop(rows);
      return;
    }
    Set<String> sources = new LinkedHashSet<>();
    for (Row r : rows) {
      sources.add(r.slots[fs].id());
    }
    if (plainOneHop && csr == null && useCsr(sources.size())) {
      csr = Adjacency.of(snap, x.edge().tableKey());
      if (csr.nodes() <= ReadExecutor.MEMO_MAX_NODES) {
        oneHop(rows);
        return;
      }
    }
    List<Row> out = new ArrayList<>();
    if (x.edgeVar() != null) {
      Map<String, List<Hit>> hits = edgeHits(sources);
      Map<String, Entity> dst = Map.of();
      if (!x.closing() && x.to().needsRow()) {
        Set<String> want = new HashSet<>();
        hits.values().forEach(l -> l.forEach(h -> want.add(h.other())));
        dst = scans.hydrate(x.to(), want);
      }
      for (Row r : rows) {
        for (Hit h : hits.getOrDefault(r.slots[fs].id(), List.of())) {
          if (x.closing()) {
            if (h.other().equals(r.slots[ts].id())) {
              emit(out, r.with(x.edgeVar().slot, h.edge()));
            }
          } else {
            Entity d = x.to().needsRow() ? dst.get(h.other()) : Entity.idOnly(h.other());
            if (d != null) {
              emit(out, r.with(ts, d, x.edgeVar().slot, h.edge()));
            }
          }
        }
      }
    } else {
      Map<String, List<String>> reached = reach(sources);
      Map<String, Entity> dst = Map.of();
      if (!x.closing() && x.to().needsRow()) {
        Set<String> want = new HashSet<>();
        reached.values().forEach(want::addAll);
        dst = scans.hydrate(x.to(), want);
      }
      Map<String, Set<String>> reachedSets = x.closing() ? new HashMap<>() : null;
      for (Row r : rows) {
        List<String> ends = reached.getOrDefault(r.slots[fs].id(), List.of());
        if (x.closing()) {
          Set<String> set = reachedSets.computeIfAbsent(r.slots[fs].id(), k -> new HashSet<>(ends));
          if (set.contains(r.slots[ts].id())) {
            emit(out, r);
          }
          continue;
        }
        for (String end : ends) {
          Entity d = x.to().needsRow() ? dst.get(end) : Entity.idOnly(end);
          if (d != null) {
            emit(out, r.with(ts, d));
          }
        }
      }
    }
    if (!out.isEmpty()) {
      next.push(out);
    }
  }

  private Adjacency.OneHop oneHop;

  /** The one-hop reader of {@link #csr} (one per expansion: its buffers are reused piece after piece). */
  private Adjacency.OneHop hop() {
    if (oneHop == null) {
      oneHop = csr.new OneHop(x.dir(), x.sameType());
    }
    return oneHop;
  }

  /**
   * Per reached CSR node: its hydrated destination row ({@link #NONE_ROW}: filtered out), once
   * looked up by this expansion; sized by what it holds (a per-node array of the whole CSR cost a
   * single-source expansion about 1 ms: docs/benchmarks.md).
   */
  private final DestinationMemo memo = new DestinationMemo();

  /**
   * A one-hop expansion over the CSR (docs/queries.md, "Traversals"): each row's destinations as
   * dense indexes, in the order {@link Adjacency#oneHop} reports them, hydrated once per
   * destination and expansion (the memo holds the reached destinations, at most {@value
   * ReadExecutor#MEMO_MAX_ROWS} before a piece, then forgotten).
   */
  private void oneHop(List<Row> rows) {
    ex.count(expandCsr);
    if (weighted != null) {
      countPairs(rows);
      return;
    }
    if (memo.size() > ReadExecutor.MEMO_MAX_ROWS) {
      memo.clear(); // bounded: at most this many destination rows are remembered
    }
    int ts = x.to().slot;
    boolean needs = x.to().needsRow();
    Adjacency a = csr;
    Adjacency.OneHop hop = hop();
    int[] at = sourceIndexes(rows);
    if (needs) {
      List<String> missing = new ArrayList<>();
      for (int k = 0; k < rows.size(); k++) {
        int n = at[k] < 0 ? 0 : hop.of(at[k]);
        for (int j = 0; j < n; j++) {
          int w = hop.found[j];
          if (memo.get(w) == null) {
            memo.put(w, NONE_ROW);
            missing.add(a.id(w));
          }
        }
      }
      if (!missing.isEmpty()) {
        for (Entity e : scans.hydrate(x.to(), missing).values()) {
          memo.put(a.indexOf(e.id()), e);
        }
      }
    }
    List<Row> out = new ArrayList<>();
    for (int k = 0; k < rows.size(); k++) {
      int n = at[k] < 0 ? 0 : hop.of(at[k]);
      for (int j = 0; j < n; j++) {
        int w = hop.found[j];
        Entity d = needs ? memo.get(w) : Entity.idOnly(a.id(w));
        if (d != NONE_ROW) {
          emit(out, rows.get(k).with(ts, d));
        }
      }
    }
    if (!out.isEmpty()) {
      next.push(out);
    }
  }

  /**
   * Set by the executor when this expansion is the last operator and the aggregate after it reads
   * nothing but the destination ({@link ResultSink#takesPairCounts}): then a one-hop CSR expansion
   * counts (row, destination) pairs per destination instead of emitting rows, and feeds each
   * destination once with its count at the end (docs/queries.md, "Traversal strategies").
   */
  ResultSink weighted;
  /** The (row, destination) pairs counted per destination; null until the first counted piece. */
  private PairCounts pairs;
  /** The sources of a piece as dense CSR indexes (reused piece after piece). */
  private int[] at = new int[64];

  private void countPairs(List<Row> rows) {
    count(sourceIndexes(rows), rows.size());
  }

  /** Counts the pairs of the first {@code n} sources of {@code at} (dense indexes, -1: no edge). */
  private void count(int[] at, int n) {
    if (pairs == null) {
      pairs = new PairCounts();
    }
    Adjacency.OneHop hop = hop();
    for (int k = 0; k < n; k++) {
      int m = at[k] < 0 ? 0 : hop.of(at[k]);
      for (int j = 0; j < m; j++) {
        pairs.add(hop.found[j]);
      }
    }
  }

  /**
   * Whether the executor may hand this expansion its source's cached row numbers instead of rows
   * ({@link #pushRowNumbers}): it counts pairs for the aggregate after it and expands from
   * {@code root}, the pipeline's root variable.
   */
  boolean countsRowNumbers(Binding root) {
    return weighted != null && x.from() == root;
  }

  /**
   * One piece of source rows given as row numbers of the source's cached node table {@code t}
   * (every one passing the source's filters, ascending): counted over the CSR without making a
   * row or entity per source (docs/queries.md, "Traversal strategies"); when the chooser does
   * not take the CSR, the rows are made as the scan would have made them and expanded as usual.
   */
  void pushRowNumbers(NodeCache.Table t, int[] rows, int n) {
    if (csr == null && useCsr(n)) {
      csr = Adjacency.of(snap, x.edge().tableKey());
    }
    if (csr == null || csr.nodes() > ReadExecutor.MEMO_MAX_NODES) {
      List<Entity> entities = scans.cachedEntities(t, x.from(), rows, n);
      List<Row> piece = new ArrayList<>(entities.size());
      for (Entity e : entities) {
        Entity[] slots = new Entity[plan.bindings.size()];
        slots[x.from().slot] = e;
        piece.add(new Row(slots, -1));
      }
      push(piece);
      return;
    }
    ex.count(rowsExpanded, n);
    ex.count(expandCsr);
    int[] map = csr.rowIndex(t, expectedSources() >= t.rows());
    if (map != null) {
      ex.count(csrRowIndex);
    }
    if (at.length < n) {
      at = new int[Math.max(n, 2 * at.length)];
    }
    for (int k = 0; k < n; k++) {
      at[k] = map != null ? map[rows[k]] : csr.indexOf(t.id(rows[k]));
    }
    count(at, n);
  }

  /**
   * Feeds every counted destination (hydrated {@value ReadExecutor#PIECE} at a time, in the order
   * of its first pair, so groups are made in the order the rows would have made them) to the
   * aggregate with its pair count; a destination its filters drop counts nothing.
   */
  private void flushPairs() {
    int seen = pairs.size();
    ex.count(pairsCounted, seen);
    ex.count("pair count slots", pairs.capacity());
    Adjacency a = csr;
    boolean needs = x.to().needsRow();
    Entity[] slots = new Entity[plan.bindings.size()];
    java.util.Arrays.fill(slots, Entity.idOnly("")); // only counted as bound variables (never null)
    for (int from = 0; from < seen; from += ReadExecutor.PIECE) {
      int to = Math.min(seen, from + ReadExecutor.PIECE);
      Map<String, Entity> rows = Map.of();
      if (needs) {
        List<String> ids = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
          ids.add(a.id(pairs.node(i)));
        }
        rows = scans.hydrate(x.to(), ids);
      }
      for (int i = from; i < to; i++) {
        String id = a.id(pairs.node(i));
        Entity d = needs ? rows.get(id) : Entity.idOnly(id);
        if (d != null) {
          slots[x.to().slot] = d;
          weighted.addPairs(slots, pairs.count(i));
        }
      }
      weighted.measure();
    }
    pairs = null;
  }

  /**
   * Each row's source as a dense CSR index (-1: no edge in the table): through the CSR's row map
   * of the source's cached node table when the rows carry node cache row numbers (built by a
   * whole-table expansion, then kept with the CSR), else by hashing the id.
   */
  private int[] sourceIndexes(List<Row> rows) {
    int fs = x.from().slot;
    NodeCache.Table t = scans.cachedTable(x.from());
    int[] map = t == null ? null : csr.rowIndex(t, expectedSources() >= t.rows());
    if (map != null) {
      ex.count(csrRowIndex);
    }
    int[] at = new int[rows.size()];
    for (int k = 0; k < at.length; k++) {
      Entity e = rows.get(k).slots[fs];
      at[k] = map != null && e.row() >= 0 ? map[e.row()] : csr.indexOf(e.id());
    }
    return at;
  }

  private void emit(List<Row> out, Row r) {
    out.add(r);
    if (out.size() >= ReadExecutor.PIECE) {
      next.push(new ArrayList<>(out));
      out.clear();
    }
  }

  /**
   * Breadth-first search per source: a node is expanded at most once per source, a destination
   * reported once per source at its shortest distance when that is within {min,max}. For
   * same-type edges the source counts as visited: it is its own destination (at one hop) only
   * through a self-loop, never through a longer cycle, and a self-loop adds no hop.
   */
  private Map<String, List<String>> reach(Set<String> sources) {
    Neighbors nb = neighbors(sources.size());
    if (csr != null && x.minHops() == 1 && x.maxHops() == 1) {
      return csr.oneHop(sources, x.dir(), x.sameType()); // docs/queries.md, "Traversals"
    }
    Map<String, Set<String>> visited = new HashMap<>();
    Map<String, List<String>> frontier = new HashMap<>();
    Map<String, List<String>> out = new HashMap<>();
    for (String s : sources) {
      Set<String> v = new HashSet<>();
      if (x.sameType()) {
        v.add(s);
      }
      visited.put(s, v);
      frontier.put(s, List.of(s));
      out.put(s, new ArrayList<>());
    }
    for (int depth = 1; depth <= x.maxHops() && !frontier.isEmpty(); depth++) {
      Set<String> all = new HashSet<>();
      frontier.values().forEach(all::addAll);
      Map<String, List<String>> adj = nb.of(all);
      Map<String, List<String>> nextFrontier = new HashMap<>();
      for (var e : frontier.entrySet()) {
        Set<String> v = visited.get(e.getKey());
        List<String> found = new ArrayList<>();
        boolean selfLoop = false;
        for (String u : e.getValue()) {
          for (String w : adj.getOrDefault(u, List.of())) {
            if (v.add(w)) {
              found.add(w);
            } else if (depth == 1 && x.sameType() && w.equals(e.getKey())) {
              selfLoop = true;
            }
          }
        }
        if (depth >= x.minHops()) {
          if (selfLoop) {
            out.get(e.getKey()).add(e.getKey());
          }
          out.get(e.getKey()).addAll(found);
        }
        if (!found.isEmpty() && depth < x.maxHops()) {
          nextFrontier.put(e.getKey(), found);
        }
      }
      frontier = nextFrontier;
    }
    return out;
  }

  /**
   * For a negation whose block is only this expansion to a variable nothing else reads (no
   * edge variable, no filter, at least one hop allowed from the first): which seed rows reach at
   * least one node, answered from the CSR's degrees (a one-hop destination exists exactly when
   * the source has an edge in that direction, a self-loop included).
   *
   * @return the matched seed rows, or null when the CSR is not the chosen strategy
   */
  BitSet anyReached(List<Row> rows) {
    if (csr == null) {
      int fs = x.from().slot;
      Set<String> sources = new HashSet<>();
      for (Row r : rows) {
        sources.add(r.slots[fs].id());
      }
      if (!useCsr(sources.size())) {
        return null;
      }
      csr = Adjacency.of(snap, x.edge().tableKey());
    }
    ex.count(expandCsr);
    int[] at = sourceIndexes(rows);
    BitSet matched = new BitSet(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      if (csr.hasAny(at[i], x.dir())) {
        matched.set(i);
      }
    }
    return matched;
  }

  /** Neighbour lookup for one BFS level: CSR or an indexed scan of the edge table, by cost. */
  private Neighbors neighbors(int frontier) {
    if (csr == null && useCsr(frontier)) {
      csr = Adjacency.of(snap, x.edge().tableKey());
    }
    if (csr != null) {
      ex.count(expandCsr);
      Adjacency a = csr;
      return ids -> {
        Map<String, List<String>> m = new HashMap<>();
        for (String id : ids) {
          List<String> l = new ArrayList<>();
          a.neighbors(id, x.dir(), l::add);
          if (!l.isEmpty()) {
            m.put(id, l);
          }
        }
        return m;
      };
    }
    ex.count("expand indexed " + x.edge().name());
    return ids -> {
      Map<String, List<String>> m = new HashMap<>();
      for (List<Object> chunk : BindingScans.chunks(ids)) {
        snap.scan(x.edge().tableKey(), List.of("src", "dst"), endpointFilter(chunk), batch -> {
          VarCharVector s = (VarCharVector) batch.getVector("src");
          VarCharVector d = (VarCharVector) batch.getVector("dst");
          ex.count("edge rows read", batch.getRowCount());
          for (int i = 0; i < batch.getRowCount(); i++) {
            String a = BindingScans.text(s, i);
            String b = BindingScans.text(d, i);
            if (x.dir() != Op.Dir.IN && ids.contains(a)) {
              m.computeIfAbsent(a, k -> new ArrayList<>()).add(b);
            }
            if (x.dir() != Op.Dir.OUT && ids.contains(b)) {
              m.computeIfAbsent(b, k -> new ArrayList<>()).add(a);
            }
          }
        });
      }
      return m;
    };
  }

  /**
   * The chooser (docs/queries.md, "Traversal strategies"): CSR when already built for this table
   * version, when hops exceed {@value #INDEXED_MAX_HOPS}, when the frontier or the rows this
   * expansion is expected to see over the whole query exceed {@value #INDEXED_MAX_FRONTIER} (more
   * than one piece of index probes), or when the edge table has no BTREE index on the column the
   * expansion probes (an indexed expansion would then be a full scan of the edge table per level
   * and piece, while the CSR costs one scan and serves every later query of that table version);
   * otherwise the cheaper of {@code hops × frontier × |E|/|V_from|} (indexed) and {@code 1.5 × |E|}
   * (CSR). An edge table of more than {@link Adjacency#maxEdges} rows always expands indexed; a
   * version expanded often enough ({@link Adjacency#hot}) gets its CSR.
   */
  private boolean useCsr(int frontier) {
    String forced = ReadExecutor.forcedStrategy();
    if (forced.equals("csr") || forced.equals("indexed")) {
      return forced.equals("csr");
    }
    String table = x.edge().tableKey();
    if (Adjacency.isCached(snap.table(table))) {
      return true;
    }
    long edgeRows = snap.entry(table).rowCount();
    if (edgeRows > Adjacency.maxEdges()) {
      return false; // never built: the cache's bound holds for every table, one too large included
    }
    if (!counted) {
      counted = true;
      if (Adjacency.hot(snap.table(table), edgeRows)) {
        return true;
      }
    }
    if (x.maxHops() > ReadExecutor.INDEXED_MAX_HOPS || Math.max(frontier, expectedSources()) > ReadExecutor.INDEXED_MAX_FRONTIER) {
      return true;
    }
    boolean srcIndexed = snap.hasIndex(table, "src_idx");
    boolean dstIndexed = snap.hasIndex(table, "dst_idx");
    boolean indexed = switch (x.dir()) {
      case OUT -> srcIndexed;
      case IN -> dstIndexed;
      case BOTH -> srcIndexed && dstIndexed;
    };
    if (!indexed) {
      return true;
    }
    double edges = snap.entry(table).rowCount();
    String fromType = x.dir() == Op.Dir.IN ? x.edge().toType() : x.edge().fromType();
    double vertices = Math.max(1, snap.entry("node:" + fromType).rowCount());
    double indexedCost = (double) x.maxHops() * frontier * (edges / vertices);
    return 1.5 * edges < indexedCost;
  }

  /**
   * The source rows this expansion sees over the whole query, estimated: every row of the
   * source table when the source is the pipeline's root scan without filters, else unknown (0).
   */
  private long expectedSources() {
    Op.Scan root = (Op.Scan) plan.ops.get(0);
    if (x.from() == root.binding() && !root.binding().hasFilters() && ex.vectorScan == null) {
      return snap.entry(root.binding().tableKey()).rowCount();
    }
    return 0;
  }

  private RowFilter endpointFilter(List<Object> ids) {
    RowFilter src = new RowFilter.In(ColumnRef.system("src"), ids);
    RowFilter dst = new RowFilter.In(ColumnRef.system("dst"), ids);
    return switch (x.dir()) {
      case OUT -> src;
      case IN -> dst;
      case BOTH -> new RowFilter.Or(List.of(src, dst));
    };
  }

  /** Edge-bound strategy: the edge rows touching the sources, one hit per edge and source. */
  private Map<String, List<Hit>> edgeHits(Set<String> sources) {
    ex.count("expand edge-bound " + x.edge().name());
    Map<String, List<Hit>> m = new HashMap<>();
    Binding ev = x.edgeVar();
    for (List<Object> chunk : BindingScans.chunks(sources)) {
      scans.scan(ev, endpointFilter(chunk), edges -> {
        ex.count("edge rows read", edges.size());
        for (Entity e : edges) {
          if (x.dir() != Op.Dir.IN && sources.contains(e.src())) {
            m.computeIfAbsent(e.src(), k -> new ArrayList<>()).add(new Hit(e, e.dst()));
          }
          if (x.dir() != Op.Dir.OUT && sources.contains(e.dst()) && !(x.dir() == Op.Dir.BOTH && e.src().equals(e.dst()))) {
            m.computeIfAbsent(e.dst(), k -> new ArrayList<>()).add(new Hit(e, e.src()));
          }
        }
      });
    }
    return m;
  }
}
