package io.omnigraph.engine.read;

import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.arrow.vector.VarCharVector;

/**
 * Runs a {@link ReadPlan} on one {@link GraphSnapshot} (docs/queries.md, "Execution"). Rows are
 * pushed through the pipeline in pieces of at most {@value #PIECE} as the root scan streams its
 * batches, so memory holds one piece per operator plus the result (the top-k heap when ordering
 * with a limit, one entry per group when aggregating), never the scanned tables. Single-threaded:
 * one executor serves one query.
 */
final class ReadExecutor {
  static final int PIECE = 1024;
  /** At most this many ids per {@code IN} list of one hydration or edge scan. */
  static final int IN_MAX = 1024;
  /** Traversal chooser thresholds (docs/queries.md, "Traversal strategies"). */
  static final int INDEXED_MAX_HOPS = 6;
  static final int INDEXED_MAX_FRONTIER = 1024;

  /** Stops the root scan once a limit without ordering is reached (passes through the table layer unclassified). */
  static final class Stop extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(new IOException("limit reached"));
    }
  }

  /** Receives rows from the operator before it. */
  interface Sink {
    void push(List<Row> rows);

    default void finish() {}
  }

  /** Strategy and work counters of one run (scans, expansions by strategy, edge rows read). */
  final Map<String, Integer> stats = new LinkedHashMap<>();

  /** Test seam: receives {@link #stats} after each run. */
  static volatile Consumer<Map<String, Integer>> onFinish = s -> { };

  /**
   * Overrides the traversal chooser: {@code indexed} or {@code csr} (system property {@code
   * omnigraph.traversal}); anything else chooses by cost.
   */
  static String forcedStrategy() {
    return System.getProperty("omnigraph.traversal", "");
  }

  private final GraphSnapshot snap;
  private final ReadPlan plan;
  private final int slots;
  private final BindingScans scans;
  private final Map<Binding, List<Entity>> crossSides = new HashMap<>();

  ReadExecutor(GraphSnapshot snap, ReadPlan plan) {
    this.snap = snap;
    this.plan = plan;
    this.slots = plan.bindings.size();
    this.scans = new BindingScans(snap, plan, this::count);
  }

  /** @return the result rows, values in the engine representation, in result order */
  List<Object[]> run() {
    for (SearchSpec s : plan.searches) {
      search(s);
    }
    if (plan.rrf != null) {
      rankArms(plan.rrf);
    }
    ResultSink result = new ResultSink(plan);
    Sink head = pipeline(plan.ops, 1, result);
    Op.Scan root = (Op.Scan) plan.ops.get(0);
    vectorScan = vectorIndexFor(root.binding());
    scans.vectorScan = vectorScan;
    try {
      scan(root.binding(), null, entities -> {
        count("root rows", entities.size());
        List<Row> rows = new ArrayList<>(entities.size());
        for (Entity e : entities) {
          Entity[] s = new Entity[slots];
          s[root.binding().slot] = e;
          rows.add(new Row(s, -1));
        }
        head.push(rows);
      });
      head.finish();
    } catch (Stop stop) {
      // limit reached without ordering: the rows collected are the result
    }
    stats.put("result rows held (max)", result.maxHeld());
    onFinish.accept(Map.copyOf(stats));
    return result.rows();
  }

  private void count(String what) {
    stats.merge(what, 1, Integer::sum);
  }

  private void count(String what, int n) {
    stats.merge(what, n, Integer::sum);
  }

  // ------------------------------------------------------------------ pipeline

  private Sink pipeline(List<Op> ops, int from, Sink terminal) {
    Sink next = terminal;
    for (int i = ops.size() - 1; i >= from; i--) {
      next = sink(ops.get(i), next);
    }
    return next;
  }

  private Sink sink(Op op, Sink next) {
    if (op instanceof Op.Filter f) {
      return new Sink() {
        @Override
        public void push(List<Row> rows) {
          List<Row> out = new ArrayList<>(rows.size());
          for (Row r : rows) {
            if (f.test().test(r.slots)) {
              out.add(r);
            }
          }
          if (!out.isEmpty()) {
            next.push(out);
          }
        }

        @Override
        public void finish() {
          next.finish();
        }
      };
    }
    if (op instanceof Op.Scan s) {
      return new Sink() {
        @Override
        public void push(List<Row> rows) {
          List<Entity> side = crossSide(s.binding());
          List<Row> out = new ArrayList<>();
          for (Row r : rows) {
            for (Entity e : side) {
              out.add(r.with(s.binding().slot, e));
              if (out.size() >= PIECE) {
                next.push(out);
                out = new ArrayList<>();
              }
            }
          }
          if (!out.isEmpty()) {
            next.push(out);
          }
        }

        @Override
        public void finish() {
          next.finish();
        }
      };
    }
    if (op instanceof Op.Expand x) {
      return new ExpandSink(x, next);
    }
    Op.AntiJoin a = (Op.AntiJoin) op;
    ExpandSink anyEdge = null;
    if (a.inner().size() == 1 && a.inner().get(0) instanceof Op.Expand x && !x.closing() && x.edgeVar() == null
        && !x.to().needsRow() && x.minHops() == 1 && x.maxHops() >= 1 && a.outer().contains(x.from())) {
      anyEdge = new ExpandSink(x, null);
    }
    ExpandSink anyEdgeProbe = anyEdge;
    return new Sink() {
      @Override
      public void push(List<Row> rows) {
        BitSet fast = anyEdgeProbe == null ? null : anyEdgeProbe.anyReached(rows);
        if (fast != null) {
          List<Row> out = new ArrayList<>(rows.size());
          for (int i = 0; i < rows.size(); i++) {
            if (!fast.get(i)) {
              out.add(rows.get(i));
            }
          }
          if (!out.isEmpty()) {
            next.push(out);
          }
          return;
        }
        BitSet matched = new BitSet(rows.size());
        List<Row> seeds = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
          seeds.add(new Row(rows.get(i).slots, i));
        }
        Sink inner = pipeline(a.inner(), 0, new Sink() {
          @Override
          public void push(List<Row> found) {
            for (Row f : found) {
              matched.set(f.seed);
            }
          }
        });
        inner.push(seeds);
        inner.finish();
        List<Row> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
          if (!matched.get(i)) {
            out.add(rows.get(i));
          }
        }
        if (!out.isEmpty()) {
          next.push(out);
        }
      }

      @Override
      public void finish() {
        next.finish();
      }
    };
  }

  /** The rows of a cross-joined component's root, read once per query. */
  private List<Entity> crossSide(Binding b) {
    List<Entity> side = crossSides.get(b);
    if (side == null) {
      List<Entity> all = new ArrayList<>();
      scan(b, null, all::addAll);
      crossSides.put(b, all);
      side = all;
    }
    return side;
  }

  // ------------------------------------------------------------------ search

  /**
   * Forces how full-text searches run: {@code memory} (the in-memory evaluation) or {@code index}
   * (Lance's inverted-index search, when the column has one); system property {@code
   * omnigraph.search}. Default: the index when there is one.
   */
  static String forcedSearch() {
    return System.getProperty("omnigraph.search", "");
  }

  /**
   * Computes one full-text search over the whole table: through Lance's inverted-index search when
   * the column has the engine's inverted index at the pinned version (with the variable's pushed
   * filter as a prefilter), otherwise in memory with the same analysis and scoring ({@link
   * TextSearch}). Memory: one entry per matching row.
   */
  private void search(SearchSpec s) {
    String table = s.binding.tableKey();
    java.util.Set<String> tokens = s.query == null ? java.util.Set.of() : TextSearch.queryTokens(s.query);
    if (tokens.isEmpty()) {
      s.strategy = "no query tokens: matches nothing";
      s.result(Map.of());
      return;
    }
    String index = new io.omnigraph.engine.table.IndexSpec.Inverted(s.column, null).name();
    Map<String, Double> out = new HashMap<>();
    if (!forcedSearch().equals("memory") && snap.hasIndex(table, index)) {
      s.strategy = "inverted index " + index;
      count("search index " + s.column);
      // the analysed tokens, not the raw text: Lance's fuzzy search does not lower-case or fold query tokens
      snap.fullTextScan(table, List.of("id", "_score"), s.binding.pushedFilter(), s.column, String.join(" ", tokens), s.maxEdits,
          TextSearch.MAX_EXPANSIONS, batch -> {
            VarCharVector id = (VarCharVector) batch.getVector("id");
            org.apache.arrow.vector.Float4Vector score = (org.apache.arrow.vector.Float4Vector) batch.getVector("_score");
            for (int i = 0; i < batch.getRowCount(); i++) {
              out.put(text(id, i), (double) score.get(i));
            }
          });
    } else {
      s.strategy = "in memory";
      count("search memory " + s.column);
      TextSearch.Bm25 bm25 = new TextSearch.Bm25(tokens, s.maxEdits);
      snap.scan(table, List.of("id", s.column), null, batch -> {
        VarCharVector id = (VarCharVector) batch.getVector("id");
        VarCharVector col = (VarCharVector) batch.getVector(s.column);
        for (int i = 0; i < batch.getRowCount(); i++) {
          if (!col.isNull(i)) {
            bm25.add(text(id, i), text(col, i));
          }
        }
      });
      out.putAll(bm25.scores());
    }
    s.result(out);
  }

  /**
   * rrf: each arm's top-{@code limit} rows of the variable (after its match filters), best first,
   * ties by id; the union becomes the variable's candidates.
   */
  private void rankArms(ReadPlan.Rrf f) {
    Binding b = f.binding;
    List<List<String>> ranked = new ArrayList<>();
    for (ReadPlan.Order arm : f.arms) {
      java.util.PriorityQueue<Object[]> top = new java.util.PriorityQueue<>((x, y) -> -armCompare(arm, x, y));
      Entity[] slots = new Entity[this.slots];
      scan(b, null, es -> {
        for (Entity e : es) {
          slots[b.slot] = e;
          Object key = arm.val().fn().apply(slots);
          if (key == null) {
            continue;
          }
          top.add(new Object[] {key, e.id()});
          if (top.size() > plan.limit) {
            top.poll();
          }
        }
      });
      List<Object[]> best = new ArrayList<>(top);
      best.sort((x, y) -> armCompare(arm, x, y));
      ranked.add(best.stream().map(x -> (String) x[1]).toList());
    }
    f.ranked = ranked;
    java.util.Set<String> union = new HashSet<>();
    ranked.forEach(union::addAll);
    f.candidates = union;
  }

  private static int armCompare(ReadPlan.Order arm, Object[] x, Object[] y) {
    int c = Double.compare((Double) x[0], (Double) y[0]);
    if (arm.descending()) {
      c = -c;
    }
    return c != 0 ? c : ReadValues.compareCodePoints((String) x[1], (String) y[1]);
  }

  // ------------------------------------------------------------------ scans

  /** The root scan served by Lance's vector search, or null. */
  private ReadPlan.NearestSpec vectorScan;

  /**
   * Forces how {@code nearest} runs: {@code exact} never uses a vector index (system property
   * {@code omnigraph.nearest}). Default: the index when {@link #vectorIndexFor} allows it.
   */
  static String forcedNearest() {
    return System.getProperty("omnigraph.nearest", "");
  }

  /**
   * {@code nearest} is served by the vector index (docs/queries.md, "Search") when the ordered
   * variable is the query's only operator (a single scan, so the top-k of its rows is the result's
   * top-k), all its filters are pushed into Lance (so Lance's prefilter is the whole match filter),
   * the query vector is not null, and the property has the engine's {@code <prop>_vec} index at
   * the pinned version. Otherwise the exact scan with the executor's top-k heap runs.
   */
  ReadPlan.NearestSpec vectorIndexFor(Binding root) {
    ReadPlan.NearestSpec n = plan.nearest;
    if (n == null || n.binding() != root || plan.ops.size() != 1 || !root.residual.isEmpty() || n.query() == null
        || plan.aggregate || plan.limit < 1 || plan.limit > Integer.MAX_VALUE || forcedNearest().equals("exact")) {
      return null;
    }
    String index = new io.omnigraph.engine.table.IndexSpec.Vector(n.column(), null, 1).name();
    return snap.hasIndex(root.tableKey(), index) ? n : null;
  }

  private void scan(Binding b, RowFilter extra, Consumer<List<Entity>> out) {
    scans.scan(b, extra, out);
  }

  private Map<String, Entity> hydrate(Binding b, Collection<String> ids) {
    return scans.hydrate(b, ids);
  }

  private static List<List<Object>> chunks(Collection<String> ids) {
    return BindingScans.chunks(ids);
  }

  private static String text(VarCharVector v, int i) {
    return BindingScans.text(v, i);
  }

  // ------------------------------------------------------------------ traversal

  /** One edge reached from a source: the edge row and the node at its other end. */
  private record Hit(Entity edge, String other) {}

  private final class ExpandSink implements Sink {
    private final Op.Expand x;
    private final Sink next;
    private Adjacency csr;

    ExpandSink(Op.Expand x, Sink next) {
      this.x = x;
      this.next = next;
    }

    @Override
    public void finish() {
      next.finish();
    }

    @Override
    public void push(List<Row> rows) {
      for (int at = 0; at < rows.size(); at += PIECE) {
        piece(rows.subList(at, Math.min(rows.size(), at + PIECE)));
      }
    }

    private void piece(List<Row> rows) {
      count("rows expanded " + x.edge().name(), rows.size());
      int fs = x.from().slot;
      int ts = x.to().slot;
      Set<String> sources = new LinkedHashSet<>();
      for (Row r : rows) {
        sources.add(r.slots[fs].id());
      }
      List<Row> out = new ArrayList<>();
      if (x.edgeVar() != null) {
        Map<String, List<Hit>> hits = edgeHits(sources);
        Map<String, Entity> dst = Map.of();
        if (!x.closing() && x.to().needsRow()) {
          Set<String> want = new HashSet<>();
          hits.values().forEach(l -> l.forEach(h -> want.add(h.other())));
          dst = hydrate(x.to(), want);
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
          dst = hydrate(x.to(), want);
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

    private void emit(List<Row> out, Row r) {
      out.add(r);
      if (out.size() >= PIECE) {
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
      int fs = x.from().slot;
      Set<String> sources = new HashSet<>();
      for (Row r : rows) {
        sources.add(r.slots[fs].id());
      }
      if (csr == null) {
        if (!useCsr(sources.size())) {
          return null;
        }
        csr = Adjacency.of(snap, x.edge().tableKey());
      }
      count("expand csr " + x.edge().name());
      BitSet matched = new BitSet(rows.size());
      for (int i = 0; i < rows.size(); i++) {
        if (csr.hasAny(rows.get(i).slots[fs].id(), x.dir())) {
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
        count("expand csr " + x.edge().name());
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
      count("expand indexed " + x.edge().name());
      return ids -> {
        Map<String, List<String>> m = new HashMap<>();
        for (List<Object> chunk : chunks(ids)) {
          snap.scan(x.edge().tableKey(), List.of("src", "dst"), endpointFilter(chunk), batch -> {
            VarCharVector s = (VarCharVector) batch.getVector("src");
            VarCharVector d = (VarCharVector) batch.getVector("dst");
            count("edge rows read", batch.getRowCount());
            for (int i = 0; i < batch.getRowCount(); i++) {
              String a = text(s, i);
              String b = text(d, i);
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
     * (CSR). An edge table of more than {@link Adjacency#MAX_EDGES} rows always expands indexed.
     */
    private boolean useCsr(int frontier) {
      String forced = forcedStrategy();
      if (forced.equals("csr") || forced.equals("indexed")) {
        return forced.equals("csr");
      }
      String table = x.edge().tableKey();
      if (Adjacency.isCached(snap.table(table))) {
        return true;
      }
      if (snap.entry(table).rowCount() > Adjacency.MAX_EDGES) {
        return false; // never built: the cache's bound holds for every table, one too large included
      }
      if (x.maxHops() > INDEXED_MAX_HOPS || Math.max(frontier, expectedSources()) > INDEXED_MAX_FRONTIER) {
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
      if (x.from() == root.binding() && !root.binding().hasFilters() && vectorScan == null) {
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
      count("expand edge-bound " + x.edge().name());
      Map<String, List<Hit>> m = new HashMap<>();
      Binding ev = x.edgeVar();
      for (List<Object> chunk : chunks(sources)) {
        scan(ev, endpointFilter(chunk), edges -> {
          count("edge rows read", edges.size());
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

  @FunctionalInterface
  private interface Neighbors {
    Map<String, List<String>> of(Set<String> ids);
  }
}
