package io.omnigraph.engine.read;

import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.value.ArrowValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows of one variable for one query (docs/queries.md, "Execution", "Node cache"): a node
 * variable's rows come from the {@link NodeCache} when its table version is cached there (the
 * variable's pushed filter then runs in memory by {@link RowFilter#matches}, which selects exactly
 * what the Lance filter selects; an {@code id} equality or {@code IN} list is a hash probe), else
 * from a Lance scan with the pushed filter, the projection, and Lance's vector search or top-n
 * sort where the plan allows. One instance serves one query.
 */
final class BindingScans {
  private static final int PIECE = ReadExecutor.PIECE;
  private static final int IN_MAX = ReadExecutor.IN_MAX;

  private final GraphSnapshot snap;
  private final ReadPlan plan;
  private final BiConsumer<String, Integer> count;
  /** The root scan served by Lance's vector search, or null. */
  ReadPlan.NearestSpec vectorScan;
  /** Per node variable: its cached table, once the cache served it; a miss is remembered for reads of part of the table. */
  private final Map<Binding, NodeCache.Table> cached = new HashMap<>();
  private final Map<Binding, Boolean> missed = new HashMap<>();

  BindingScans(GraphSnapshot snap, ReadPlan plan, BiConsumer<String, Integer> count) {
    this.snap = snap;
    this.plan = plan;
    this.count = count;
  }

  /** Scans a binding's table with its pushed filter (AND {@code extra}) and residual filters. */
  void scan(Binding b, RowFilter extra, Consumer<List<Entity>> out) {
    RowFilter pushed = b.pushedFilter();
    RowFilter filter = extra == null ? pushed : pushed == null ? extra : new RowFilter.And(List.of(extra, pushed));
    boolean vector = vectorScan != null && vectorScan.binding() == b && extra == null;
    NodeCache.Table t = vector ? null : cache(b, false);
    if (t != null) {
      count.accept("cache " + b.tableKey(), 1);
      int[] rows = idRows(t, filter);
      List<Map.Entry<String, Boolean>> order =
          b == ((Op.Scan) plan.ops.get(0)).binding() && extra == null ? plan.lanceOrder() : null;
      if (order != null) {
        count.accept("top-" + plan.limit + " by the node cache", 1);
        fromCache(t, b, null, topRows(t, b, filter, rows, order, (int) plan.limit), out);
        return;
      }
      fromCache(t, b, filter, rows, out);
      return;
    }
    lance(b, extra, filter, out);
  }

  /** Receives one piece of cached row numbers ({@link #scanRowNumbers}); {@code rows} is reused after the call. */
  interface RowNumbers {
    void accept(NodeCache.Table t, int[] rows, int n);
  }

  /**
   * {@link #scan} of {@code b} (no extra filter) as row numbers: when its rows come from the node
   * cache and it has no residual filter, calls {@code out} with the numbers of the cached rows
   * passing its pushed filter, ascending, in pieces of at most {@value ReadExecutor#PIECE} (one
   * buffer, no entity per row) and returns true; else does nothing and returns false (the caller
   * then scans).
   */
  boolean scanRowNumbers(Binding b, RowNumbers out) {
    if (!b.residual.isEmpty() || (vectorScan != null && vectorScan.binding() == b)
        || (b == ((Op.Scan) plan.ops.get(0)).binding() && plan.lanceOrder() != null)) {
      return false;
    }
    NodeCache.Table t = cache(b, false);
    if (t == null) {
      return false;
    }
    count.accept("cache " + b.tableKey(), 1);
    RowFilter filter = b.pushedFilter();
    int[] rows = idRows(t, filter);
    CachedRow view = new CachedRow(t);
    int n = rows == null ? t.rows() : rows.length;
    int[] piece = new int[Math.min(Math.max(n, 1), PIECE)];
    int held = 0;
    for (int i = 0; i < n; i++) {
      int r = rows == null ? i : rows[i];
      view.row = r;
      if (filter != null && !filter.matches(view)) {
        continue;
      }
      piece[held++] = r;
      if (held == piece.length) {
        out.accept(t, piece, held);
        held = 0;
      }
    }
    if (held > 0) {
      out.accept(t, piece, held);
    }
    return true;
  }

  /** @return the entities {@link #scan} makes of these cached rows of {@code b} (they passed its filters) */
  List<Entity> cachedEntities(NodeCache.Table t, Binding b, int[] rows, int n) {
    List<Entity> out = new ArrayList<>(n);
    fromCache(t, b, null, Arrays.copyOf(rows, n), out::addAll);
    return out;
  }

  /**
   * The top {@code limit} cached rows passing {@code filter} in the order Lance would sort them
   * ({@link ReadPlan#lanceOrder}: the executor's order of those keys, nulls first ascending and
   * last descending, the id tie-break last), ascending by row; the executor's heap orders them.
   */
  private static int[] topRows(NodeCache.Table t, Binding b, RowFilter filter, int[] rows,
      List<Map.Entry<String, Boolean>> order, int limit) {
    int keys = order.size();
    Object[][] cols = new Object[keys][];
    io.omnigraph.engine.schema.ScalarKind[] kinds = new io.omnigraph.engine.schema.ScalarKind[keys];
    boolean[] asc = new boolean[keys];
    for (int k = 0; k < keys; k++) {
      String c = order.get(k).getKey();
      asc[k] = order.get(k).getValue();
      cols[k] = c.equals("id") ? null : t.column(c);
      kinds[k] = c.equals("id") ? io.omnigraph.engine.schema.ScalarKind.STRING
          : ((PropertyType.Scalar) b.columns.get(c)).kind();
    }
    java.util.Comparator<Integer> cmp = (x, y) -> {
      for (int k = 0; k < keys; k++) {
        Object a = cols[k] == null ? t.id(x) : cols[k][x];
        Object z = cols[k] == null ? t.id(y) : cols[k][y];
        int c = a == null ? (z == null ? 0 : -1) : z == null ? 1 : io.omnigraph.engine.value.ValueOrder.compare(kinds[k], a, z);
        if (c != 0) {
          return asc[k] ? c : -c;
        }
      }
      return 0;
    };
    java.util.PriorityQueue<Integer> worst = new java.util.PriorityQueue<>(cmp.reversed());
    CachedRow view = new CachedRow(t);
    int n = rows == null ? t.rows() : rows.length;
    for (int i = 0; i < n && limit > 0; i++) {
      int r = rows == null ? i : rows[i];
      view.row = r;
      if (filter != null && !filter.matches(view)) {
        continue;
      }
      if (worst.size() < limit) {
        worst.add(r);
      } else if (cmp.compare(r, worst.peek()) < 0) {
        worst.poll();
        worst.add(r);
      }
    }
    return worst.stream().mapToInt(Integer::intValue).sorted().toArray();
  }

  /** The Lance scan of {@link #scan}. */
  private void lance(Binding b, RowFilter extra, RowFilter filter, Consumer<List<Entity>> out) {
    List<String> cols = ReadPlan.columnList(b);
    List<PropertyType> types = new ArrayList<>(b.columns.values());
    if (vectorScan != null && vectorScan.binding() == b && extra == null) {
      count.accept("nearest index " + vectorScan.column(), 1);
      snap.nearestScan(b.tableKey(), cols, filter, vectorScan.column(), vectorScan.query(), (int) plan.limit,
          io.omnigraph.engine.index.IndexPlanner.MAX_PARTITIONS, batch -> out.accept(entities(b, batch, types)));
      return;
    }
    count.accept("scan " + b.tableKey(), 1);
    List<Map.Entry<String, Boolean>> order =
        b == ((Op.Scan) plan.ops.get(0)).binding() && extra == null ? plan.lanceOrder() : null;
    if (order != null) {
      count.accept("top-" + plan.limit + " by Lance", 1);
      snap.scanTopN(b.tableKey(), cols, filter, order, plan.limit, batch -> out.accept(entities(b, batch, types)));
      return;
    }
    snap.scan(b.tableKey(), cols, filter, batch -> out.accept(entities(b, batch, types)));
  }

  /**
   * The rows of {@code b} (passing its filters) among {@code ids}: from the node cache when the
   * table version is cached (or would be read whole: then it is loaded into the cache when it fits
   * the budget), else by {@code id IN (...)} scans of at most {@value ReadExecutor#IN_MAX} ids, so
   * memory holds the rows asked for, never the table.
   */
  Map<String, Entity> hydrate(Binding b, Collection<String> ids) {
    long rows = snap.entry(b.tableKey()).rowCount();
    boolean whole = ids.size() > 4 * IN_MAX || ids.size() * 8L >= rows;
    NodeCache.Table t = cache(b, whole);
    Map<String, Entity> out = new HashMap<>();
    if (t != null) {
      count.accept("cache " + b.tableKey(), 1);
      int[] at = new int[ids.size()];
      int n = 0;
      for (String id : ids) {
        int r = t.row(id);
        if (r >= 0) {
          at[n++] = r;
        }
      }
      fromCache(t, b, b.pushedFilter(), Arrays.copyOf(at, n), es -> es.forEach(e -> out.put(e.id(), e)));
      return out;
    }
    RowFilter pushed = b.pushedFilter();
    for (List<Object> chunk : chunks(ids)) {
      RowFilter in = new RowFilter.In(ColumnRef.system("id"), chunk);
      lance(b, in, pushed == null ? in : new RowFilter.And(List.of(in, pushed)), es -> es.forEach(e -> out.put(e.id(), e)));
    }
    return out;
  }

  /**
   * @return the node cache entry this query's rows of {@code b} come from when they carry a row
   *     number ({@link Entity#row}), or null (every row of a variable with a row number comes from
   *     this one entry: it is fixed for the query once the cache served the variable)
   */
  NodeCache.Table cachedTable(Binding b) {
    return cached.get(b);
  }

  /**
   * The node cache's entry for {@code b}'s table with every column the variable reads in memory
   * or filters on, or null; asked at most once per variable and query unless {@code whole}.
   */
  private NodeCache.Table cache(Binding b, boolean whole) {
    if (b.edge) {
      return null;
    }
    NodeCache.Table t = cached.get(b);
    if (t != null || (missed.containsKey(b) && (!whole || missed.get(b)))) {
      return t;
    }
    Map<String, PropertyType> need = new LinkedHashMap<>(b.columns);
    RowFilter pushed = b.pushedFilter();
    if (pushed != null) {
      filterColumns(pushed, need);
    }
    t = NodeCache.serve(snap, b.tableKey(), need, whole);
    if (t != null) {
      cached.put(b, t);
    } else {
      missed.merge(b, whole, Boolean::logicalOr);
    }
    return t;
  }

  private static void filterColumns(RowFilter f, Map<String, PropertyType> out) {
    ColumnRef c = f instanceof RowFilter.Compare x ? x.column() : f instanceof RowFilter.In x ? x.column()
        : f instanceof RowFilter.Text x ? x.column() : f instanceof RowFilter.ListHas x ? x.column() : null;
    if (c != null && !c.name().equals("id")) {
      out.putIfAbsent(c.name(), c.type());
    }
    List<RowFilter> parts = f instanceof RowFilter.And a ? a.parts() : f instanceof RowFilter.Or o ? o.parts()
        : f instanceof RowFilter.Not n ? List.of(n.inner()) : List.of();
    parts.forEach(p -> filterColumns(p, out));
  }

  /**
   * The rows an {@code id} equality or {@code IN} list of the filter (or of one of its top-level
   * conjuncts) allows, ascending; null when the filter has none (every row is a candidate).
   */
  private static int[] idRows(NodeCache.Table t, RowFilter f) {
    List<Object> ids = null;
    if (f instanceof RowFilter.Compare c && c.op() == CompOp.EQ && c.column().name().equals("id")) {
      ids = c.value() == null ? List.of() : List.of(c.value());
    } else if (f instanceof RowFilter.In in && in.column().name().equals("id")) {
      ids = in.values();
    } else if (f instanceof RowFilter.And a) {
      for (RowFilter p : a.parts()) {
        int[] rows = idRows(t, p);
        if (rows != null) {
          return rows;
        }
      }
      return null;
    } else {
      return null;
    }
    int[] rows = new int[ids.size()];
    int n = 0;
    for (Object id : ids) {
      int r = t.row((String) id);
      if (r >= 0) {
        rows[n++] = r;
      }
    }
    if (n <= 1) {
      return Arrays.copyOf(rows, n); // one key (a point lookup): nothing to sort
    }
    return Arrays.stream(rows, 0, n).sorted().distinct().toArray();
  }

  /**
   * Emits the cached rows {@code rows} (null: every row, in table order) that pass {@code filter}
   * and the variable's residual filters, in pieces of at most {@value ReadExecutor#PIECE}.
   */
  private static void fromCache(NodeCache.Table t, Binding b, RowFilter filter, int[] rows, Consumer<List<Entity>> out) {
    Object[][] cols = new Object[b.columns.size()][];
    int k = 0;
    for (String c : b.columns.keySet()) {
      cols[k++] = t.column(c);
    }
    CachedRow view = new CachedRow(t);
    int n = rows == null ? t.rows() : rows.length;
    List<Entity> piece = new ArrayList<>(Math.min(n, PIECE));
    for (int i = 0; i < n; i++) {
      int r = rows == null ? i : rows[i];
      view.row = r;
      if (filter != null && !filter.matches(view)) {
        continue;
      }
      Object[] vals = cols.length == 0 ? Entity.NONE : new Object[cols.length];
      for (int c = 0; c < cols.length; c++) {
        vals[c] = cols[c][r];
      }
      Entity e = new Entity(t.id(r), null, null, vals, r);
      if (b.acceptsResidual(e)) {
        piece.add(e);
        if (piece.size() == PIECE) {
          out.accept(piece);
          piece = new ArrayList<>(PIECE);
        }
      }
    }
    if (!piece.isEmpty()) {
      out.accept(piece);
    }
  }

  /** One cached row as {@link RowFilter} reads it. */
  private static final class CachedRow implements RowFilter.RowValues {
    private final NodeCache.Table t;
    int row;
    private String lastName;
    private Object[] last;

    CachedRow(NodeCache.Table t) {
      this.t = t;
    }

    @Override
    public Object get(String column) {
      if (column.equals("id")) {
        return t.id(row);
      }
      if (column != lastName) {
        last = t.column(column);
        lastName = column;
      }
      return last[row];
    }
  }

  static List<Entity> entities(Binding b, VectorSchemaRoot batch, List<PropertyType> types) {
    int n = batch.getRowCount();
    VarCharVector id = (VarCharVector) batch.getVector("id");
    VarCharVector src = b.edge ? (VarCharVector) batch.getVector("src") : null;
    VarCharVector dst = b.edge ? (VarCharVector) batch.getVector("dst") : null;
    List<FieldVector> vecs = new ArrayList<>(types.size());
    for (String c : b.columns.keySet()) {
      vecs.add(batch.getVector(c));
    }
    List<Entity> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Object[] vals = vecs.isEmpty() ? Entity.NONE : new Object[vecs.size()];
      for (int c = 0; c < vals.length; c++) {
        vals[c] = ArrowValues.get(vecs.get(c), types.get(c), i);
      }
      Entity e = new Entity(text(id, i), src == null ? null : text(src, i), dst == null ? null : text(dst, i), vals);
      if (b.acceptsResidual(e)) {
        out.add(e);
      }
    }
    return out;
  }

  static String text(VarCharVector v, int i) {
    return new String(v.get(i), StandardCharsets.UTF_8);
  }

  static List<List<Object>> chunks(Collection<String> ids) {
    List<List<Object>> out = new ArrayList<>();
    List<Object> cur = new ArrayList<>();
    for (String id : ids) {
      cur.add(id);
      if (cur.size() == IN_MAX) {
        out.add(cur);
        cur = new ArrayList<>();
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }
}
