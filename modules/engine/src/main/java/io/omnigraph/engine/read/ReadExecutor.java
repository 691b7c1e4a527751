package io.omnigraph.engine.read;

import io.omnigraph.engine.snapshot.GraphSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  /** A one-hop CSR expansion memoises hydrated destinations per CSR node up to this many nodes (8 MB of references). */
  static final int MEMO_MAX_NODES = 1 << 20;
  /** ... and forgets them once more than this many are held. */
  static final int MEMO_MAX_ROWS = 1 << 16;

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
  static final Consumer<Map<String, Integer>> NO_SEAM = s -> { };
  static volatile Consumer<Map<String, Integer>> onFinish = NO_SEAM;

  /**
   * Overrides the traversal chooser: {@code indexed} or {@code csr} (system property {@code
   * omnigraph.traversal}); anything else chooses by cost.
   */
  static String forcedStrategy() {
    return System.getProperty("omnigraph.traversal", "");
  }

  final GraphSnapshot snap;
  final ReadPlan plan;
  private final int slots;
  final BindingScans scans;
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
      // a counting expansion right after the root takes the root's cached row numbers, not rows
      ExpandSink counting = head instanceof ExpandSink e && e.countsRowNumbers(root.binding()) ? e : null;
      boolean numbered = counting != null && vectorScan == null
          && scans.scanRowNumbers(root.binding(), (t, rows, n) -> {
            count("root rows", n);
            count("root rows by number", n);
            counting.pushRowNumbers(t, rows, n);
          });
      if (!numbered) {
        scans.scan(root.binding(), null, entities -> {
          count("root rows", entities.size());
          List<Row> rows = new ArrayList<>(entities.size());
          for (Entity e : entities) {
            Entity[] s = new Entity[slots];
            s[root.binding().slot] = e;
            rows.add(new Row(s, -1));
          }
          head.push(rows);
        });
      }
      head.finish();
    } catch (Stop stop) {
      // limit reached without ordering: the rows collected are the result
    }
    stats.put("result rows held (max)", result.maxHeld());
    Consumer<Map<String, Integer>> seam = onFinish;
    if (seam != NO_SEAM) {
      seam.accept(Map.copyOf(stats));
    }
    return result.rows();
  }

  void count(String what) {
    stats.merge(what, 1, Integer::sum);
  }

  void count(String what, int n) {
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
      ExpandSink e = new ExpandSink(this, x, next);
      if (next instanceof ResultSink r && x.edgeVar() == null && !x.closing() && x.minHops() == 1 && x.maxHops() == 1
          && r.takesPairCounts(x.to())) {
        e.weighted = r; // the last operator feeds the aggregate pair counts (docs/queries.md, "Traversal strategies")
      }
      return e;
    }
    Op.AntiJoin a = (Op.AntiJoin) op;
    ExpandSink anyEdge = null;
    if (a.inner().size() == 1 && a.inner().get(0) instanceof Op.Expand x && !x.closing() && x.edgeVar() == null
        && !x.to().needsRow() && x.minHops() == 1 && x.maxHops() >= 1 && a.outer().contains(x.from())) {
      anyEdge = new ExpandSink(this, x, null);
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
      scans.scan(b, null, all::addAll);
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
    String query = s.query();
    java.util.Set<String> tokens = query == null ? java.util.Set.of() : TextSearch.queryTokens(query);
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
              out.put(BindingScans.text(id, i), (double) score.get(i));
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
            bm25.add(BindingScans.text(id, i), BindingScans.text(col, i));
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
      scans.scan(b, null, es -> {
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
  ReadPlan.NearestSpec vectorScan;

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
}
