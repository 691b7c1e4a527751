package io.omnigraph.engine.read;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.QueryResult;
import io.omnigraph.engine.gq.CheckedRead;
import io.omnigraph.engine.gq.QueryAst;
import io.omnigraph.engine.gq.QueryAst.Expr;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A read query ready to run on a snapshot: the binding pipeline ({@link Op}s), the projections
 * (values or aggregates), the orderings with their deterministic tie-break, and the limit.
 *
 * <p>A plan is built once per prepared query and reused (docs/queries.md, "Plan caching"): the
 * parameter values and {@code now()} of an execution live in the plan's {@link Cells}, which
 * {@link #bind} fills before each run. A plan instance holds per-run state (the cells, the pushed
 * filters rebuilt from them, search results, rrf candidates, the residual filters' scratch slots),
 * so it serves one execution at a time: {@link PlanPool} hands each execution its own instance.
 */
final class ReadPlan {
  private static final PropertyType I64 = new PropertyType.Scalar(ScalarKind.I64);
  private static final PropertyType F64 = new PropertyType.Scalar(ScalarKind.F64);

  /** An aggregate function over a group. */
  enum Agg { COUNT, SUM, AVG, MIN, MAX }

  /**
   * One result column.
   *
   * @param column the public column
   * @param type its value type
   * @param val the value (the aggregate's argument for aggregates)
   * @param agg the aggregate, or null for a plain value (a group key when aggregating)
   * @param expr the expression as written
   */
  record Projection(QueryResult.Column column, PropertyType type, Val val, Agg agg, Expr expr) {}

  /**
   * One sort key.
   *
   * @param val computed from the binding row (null when {@code column} is used)
   * @param column the result column it reads, or -1
   * @param kind the key's scalar kind (null: compare as text)
   * @param descending whether descending
   * @param text as written
   * @param candidatesOnly rows whose key is null are dropped (vector and text search)
   * @param rrf the fusion state of an rrf ordering (then {@code val} is null)
   */
  record Order(Val val, int column, ScalarKind kind, boolean descending, String text, boolean candidatesOnly, Rrf rrf) {
    Order(Val val, int column, ScalarKind kind, boolean descending, String text) {
      this(val, column, kind, descending, text, false, null);
    }

    Order(Val val, int column, ScalarKind kind, boolean descending, String text, boolean candidatesOnly) {
      this(val, column, kind, descending, text, candidatesOnly, null);
    }
  }

  final String queryName;
  final List<Binding> bindings;
  final List<Op> ops;
  final List<Projection> projections;
  final boolean aggregate;
  final List<Order> orderings;
  /** Tie-break: every named bound variable's id, by name (docs/queries.md, "Order"). */
  final List<Binding> tieBreak;
  final long limit;
  /** Every full-text search, computed once per run before rows flow. */
  final List<SearchSpec> searches;
  /** The rrf ordering (the first ordering), or null. */
  final Rrf rrf;
  /** The first ordering's nearest target when it is a nearest ordering, else null. */
  final NearestSpec nearest;
  /** This plan's parameter values and clock reading. */
  private final Cells cells;
  /** Pushed filters rebuilt from {@link #cells} by {@link #bind}. */
  private final List<Rebind> rebinds;

  private ReadPlan(String queryName, List<Binding> bindings, List<Op> ops, List<Projection> projections, boolean aggregate,
      List<Order> orderings, List<Binding> tieBreak, long limit, List<SearchSpec> searches, NearestSpec nearest,
      Cells cells, List<Rebind> rebinds) {
    this.queryName = queryName;
    this.bindings = bindings;
    this.ops = ops;
    this.projections = projections;
    this.aggregate = aggregate;
    this.orderings = orderings;
    this.tieBreak = tieBreak;
    this.limit = limit;
    this.searches = searches;
    this.rrf = orderings.isEmpty() ? null : orderings.get(0).rrf();
    this.nearest = nearest;
    this.cells = cells;
    this.rebinds = rebinds;
  }

  /**
   * The values an execution gives a plan: each declared parameter's bound value (by declaration
   * order) and the clock reading {@code now()} returns (one per execution).
   */
  static final class Cells {
    private final Map<String, Integer> index = new HashMap<>();
    private final String[] names;
    final Object[] values;
    long now;

    Cells(List<QueryAst.ParamDecl> decls) {
      names = new String[decls.size()];
      for (int i = 0; i < names.length; i++) {
        names[i] = decls.get(i).name();
        index.put(names[i], i);
      }
      values = new Object[names.length];
    }

    int index(String name) {
      return index.get(name);
    }

    void set(Map<String, Object> params, long nowMillis) {
      for (int i = 0; i < names.length; i++) {
        values[i] = params.get(names[i]);
      }
      now = nowMillis;
    }
  }

  /**
   * A pushed filter whose constant is a parameter or {@code now()}: {@link #bind} rebuilds it from
   * the execution's value ({@link ReadPlanner.Pusher#make} gives the exact Lance filter for any value
   * it can push, whatever the plan was built with). A value that cannot be pushed exactly (a number
   * the column's type cannot hold, say) does not fit: that execution gets a plan of its own, which
   * evaluates the filter in memory.
   *
   * @param binding the variable whose scan it filters
   * @param index its position in {@link Binding#pushed}
   * @param pusher builds it from the constant's value
   */
  record Rebind(Binding binding, int index, ReadPlanner.Pusher pusher) {
    boolean apply() {
      io.omnigraph.engine.plan.RowFilter f = pusher.make();
      if (f == null) {
        return false;
      }
      binding.pushed.set(index, f);
      return true;
    }
  }

  /**
   * Readies this plan for an execution with these parameter values and clock reading: fills the
   * cells, rebuilds the pushed filters that read them, and forgets the previous run's search
   * results and rrf candidates.
   *
   * @return false when the values do not fit the plan's shape (see {@link Rebind}); then the plan
   *     must not run with them
   */
  boolean bind(Map<String, Object> params, long nowMillis) {
    cells.set(params, nowMillis);
    for (Rebind r : rebinds) {
      if (!r.apply()) {
        return false;
      }
    }
    searches.forEach(SearchSpec::reset);
    if (rrf != null) {
      rrf.ranked = null;
      rrf.candidates = null;
    }
    return true;
  }

  /** @return the result columns of a checked query without planning it (for prepared queries) */
  static List<QueryResult.Column> columns(Catalog catalog, CheckedRead query) {
    ReadPlan p = plan(catalog, query, defaultsFor(query), 0L);
    return p.projections.stream().map(Projection::column).toList();
  }

  private static Map<String, Object> defaultsFor(CheckedRead query) {
    Map<String, Object> m = new HashMap<>();
    query.params().forEach(p -> m.put(p.name(), null));
    return m;
  }

  /**
   * Plans {@code query} for these parameter values and clock reading; the plan can then be
   * {@link #bind rebound} to other executions' values.
   */
  static ReadPlan plan(Catalog catalog, CheckedRead query, Map<String, Object> params, long nowMillis) {
    Cells cells = new Cells(query.params());
    cells.set(params, nowMillis);
    ReadPlanner planner = new ReadPlanner(catalog, query, cells);
    ReadPlanner.Lowered lowered = planner.lower(query.body().match());
    Map<String, Binding> scope = lowered.scope();
    QueryAst.ReadBody body = query.body();
    boolean aggregate = body.projections().stream()
        .anyMatch(p -> p.expr() instanceof QueryAst.Call c && c.function().isAggregate());
    List<Projection> projections = new ArrayList<>();
    Map<String, Integer> aliases = new HashMap<>();
    List<String> names = new ArrayList<>();
    for (QueryAst.Projection p : body.projections()) {
      Projection proj = projection(planner, scope, p, projections, aliases);
      String name = proj.column().name();
      int n = 2;
      while (names.contains(name)) {
        name = proj.column().name() + "_" + n++;
      }
      names.add(name);
      if (!name.equals(proj.column().name())) {
        proj = new Projection(new QueryResult.Column(name, proj.column().type(), proj.column().nullable()),
            proj.type(), proj.val(), proj.agg(), proj.expr());
      }
      p.alias().ifPresent(a -> aliases.put(a, projections.size()));
      projections.add(proj);
    }
    List<Order> orderings = new ArrayList<>();
    NearestSpec firstNearest = null;
    for (QueryAst.Ordering o : body.orderings()) {
      planner.nearest = null;
      orderings.add(order(planner, scope, o, projections, aliases, aggregate));
      if (orderings.size() == 1 && o.expr() instanceof QueryAst.Call c && c.function() == QueryAst.Function.NEAREST) {
        firstNearest = planner.nearest;
      }
    }
    List<Binding> tie = scope.values().stream().filter(b -> !b.anonymous()).distinct()
        .sorted(Comparator.comparing(b -> b.written)).toList();
    planner.bindings.forEach(Binding::finish);
    long limit = body.limit().map(l -> l.value().min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue())
        .orElse(-1L);
    for (int i = 1; i < orderings.size(); i++) {
      if (orderings.get(i).rrf() != null) {
        throw unsupported("rrf(...) must be the first ordering");
      }
    }
    return new ReadPlan(query.name(), planner.bindings, lowered.ops(), projections, aggregate, orderings, tie, limit,
        List.copyOf(planner.searches), firstNearest, cells, List.copyOf(planner.rebinds));
  }

  private static Projection projection(ReadPlanner planner, Map<String, Binding> scope, QueryAst.Projection p,
      List<Projection> earlier, Map<String, Integer> aliases) {
    Expr e = p.expr();
    if (e instanceof QueryAst.Call c && c.function().isAggregate()) {
      Agg agg = Agg.valueOf(c.function().name());
      Val arg = value(planner, scope, c.args().get(0), earlier, aliases);
      PropertyType type = switch (agg) {
        case COUNT -> I64;
        case SUM, AVG -> F64;
        case MIN, MAX -> arg.type();
      };
      String name = p.alias().orElse(c.function().spelling() + "(" + arg.text().replace("$", "") + ")");
      return new Projection(new QueryResult.Column(name, type.spelling(), agg != Agg.COUNT), type, arg, agg, e);
    }
    Val v = value(planner, scope, e, earlier, aliases);
    String name = p.alias().orElse(defaultName(e));
    return new Projection(new QueryResult.Column(name, v.type().spelling(), v.nullable()), v.type(), v, null, e);
  }

  private static String defaultName(Expr e) {
    if (e instanceof QueryAst.PropAccess pa) {
      return pa.variable() + "." + pa.property();
    }
    if (e instanceof QueryAst.VarRef v) {
      return v.name();
    }
    if (e instanceof QueryAst.LiteralExpr) {
      return "literal";
    }
    if (e instanceof QueryAst.AliasRef a) {
      return a.name();
    }
    if (e instanceof QueryAst.Call c) {
      return c.function().spelling();
    }
    return "now";
  }

  private static Val value(ReadPlanner planner, Map<String, Binding> scope, Expr e, List<Projection> earlier,
      Map<String, Integer> aliases) {
    if (e instanceof QueryAst.AliasRef a) {
      Integer i = aliases.get(a.name());
      if (i == null || earlier.get(i).agg() != null) {
        throw unsupported("alias '" + a.name() + "' cannot be used here");
      }
      return earlier.get(i).val();
    }
    return planner.exprIn(e, scope);
  }

  private static Order order(ReadPlanner planner, Map<String, Binding> scope, QueryAst.Ordering o,
      List<Projection> projections, Map<String, Integer> aliases, boolean aggregate) {
    Expr e = o.expr();
    if (e instanceof QueryAst.AliasRef a) {
      int i = aliases.get(a.name());
      return new Order(null, i, ReadValues.kind(projections.get(i).type()), o.descending(), a.name());
    }
    if (e instanceof QueryAst.Call c && c.function() == QueryAst.Function.NEAREST && !aggregate) {
      return nearest(planner, scope, c);
    }
    if (e instanceof QueryAst.Call c && c.function() == QueryAst.Function.BM25 && !aggregate) {
      // best first: descending relevance; rows that do not match are not candidates
      Val v = planner.exprIn(e, scope);
      return new Order(v, -1, ScalarKind.F64, true, v.text(), true);
    }
    if (e instanceof QueryAst.Call c && c.function() == QueryAst.Function.RRF && !aggregate) {
      return rrf(planner, scope, c);
    }
    if (e instanceof QueryAst.Call c && !c.function().isAggregate()) {
      throw unsupported("ordering by " + c.function().spelling() + "(...) is not supported here");
    }
    if (aggregate) {
      for (int i = 0; i < projections.size(); i++) {
        if (sameExpr(projections.get(i).expr(), e)) {
          return new Order(null, i, ReadValues.kind(projections.get(i).type()), o.descending(), render(e));
        }
      }
      throw new InvalidInputException("query error: line " + o.pos().line() + ":" + o.pos().column()
          + ": with aggregates, an ordering must be a returned group key or an alias",
          new ErrorDetail.Validation((long) o.pos().line(), (long) o.pos().column(), null, "T9"));
    }
    Val v = planner.exprIn(e, scope);
    return new Order(v, -1, v.type() == null ? ScalarKind.STRING : ReadValues.kind(v.type()), o.descending(), v.text());
  }

  /**
   * {@code nearest($x.vec, q)}: exact k-nearest neighbours by squared Euclidean distance, ascending,
   * after every match filter (prefilter); rows whose vector is null are not candidates.
   */
  private static Order nearest(ReadPlanner planner, Map<String, Binding> scope, QueryAst.Call c) {
    Val vec = planner.exprIn(c.args().get(0), scope);
    Expr qe = c.args().get(1);
    java.util.function.Supplier<float[]> target;
    if (qe instanceof QueryAst.LiteralExpr l && l.literal() instanceof QueryAst.ListLit list) {
      float[] query = new float[list.items().size()];
      for (int i = 0; i < query.length; i++) {
        query[i] = ((Number) ReadPlanner.literal(list.items().get(i)).fn().apply(ReadPlanner.NO_SLOTS)).floatValue();
      }
      target = () -> query;
    } else {
      Val q = planner.exprIn(qe, scope);
      if (ReadValues.kind(q.type()) == ScalarKind.STRING) {
        throw new InvalidInputException("nearest(" + vec.text() + ", " + q.text() + ") needs an embedding provider to turn"
            + " the String into a vector, and none is configured (this release has no embedding provider);"
            + " pass a Vector(n) parameter or a numeric list literal instead",
            new ErrorDetail.Validation(null, null, null, "embedding_unavailable"));
      }
      target = () -> (float[]) q.fn().apply(ReadPlanner.NO_SLOTS); // a null query vector has no neighbours
    }
    if (c.args().get(0) instanceof QueryAst.PropAccess pa && vec.vars().size() == 1) {
      planner.nearest = new NearestSpec(vec.vars().iterator().next(), pa.property(), target);
    }
    java.util.function.Function<Entity[], Object> fn = s -> {
      float[] x = (float[]) vec.fn().apply(s);
      float[] t = target.get();
      if (x == null || t == null) {
        return null;
      }
      double d = 0;
      for (int i = 0; i < x.length; i++) {
        double diff = (double) x[i] - t[i];
        d += diff * diff;
      }
      return d;
    };
    Val dist = new Val(F64, true, fn, vec.vars(), "nearest(" + vec.text() + ")", false);
    return new Order(dist, -1, ScalarKind.F64, false, dist.text(), true);
  }

  /**
   * Reciprocal rank fusion of two arms ({@code nearest} or {@code bm25}) over one node variable
   * (docs/queries.md, "Search"): each arm ranks that variable's top-{@code limit} rows (after its
   * match filters); an entity scores {@code Σ 1/(k + rank + 1)} over the arms where it appears
   * among the query's rows.
   */
  private static Order rrf(ReadPlanner planner, Map<String, Binding> scope, QueryAst.Call c) {
    Order[] arms = new Order[2];
    for (int i = 0; i < 2; i++) {
      QueryAst.Call arm = (QueryAst.Call) c.args().get(i);
      arms[i] = arm.function() == QueryAst.Function.NEAREST ? nearest(planner, scope, arm)
          : new Order(planner.exprIn(arm, scope), -1, ScalarKind.F64, true, "", true);
    }
    if (arms[0].val().vars().size() != 1 || !arms[0].val().vars().equals(arms[1].val().vars())) {
      throw unsupported("rrf(...) needs both arms on the same node variable");
    }
    Binding b = arms[0].val().vars().iterator().next();
    long k = 60;
    if (c.args().size() == 3) {
      k = ((QueryAst.IntLit) ((QueryAst.LiteralExpr) c.args().get(2)).literal()).value()
          .min(java.math.BigInteger.valueOf(1L << 40)).longValue();
    }
    Rrf spec = new Rrf(b, arms[0], arms[1], k);
    // only the arms' candidates can score: the variable's rows are restricted to them once known
    b.residual.add(spec::admits);
    b.residualText.add("rrf candidates");
    String text = "rrf(" + arms[0].val().text() + ", " + arms[1].val().text() + ", k=" + k + ")";
    return new Order(null, -1, ScalarKind.F64, true, text, false, spec);
  }

  /**
   * A {@code nearest} ordering's target: the variable, its vector property and the query vector
   * (a literal, or the execution's parameter value).
   */
  record NearestSpec(Binding binding, String column, java.util.function.Supplier<float[]> target) {
    /** @return this execution's query vector, or null (no neighbours) */
    float[] query() {
      return target.get();
    }
  }

  /**
   * An rrf ordering's state: the arms, and per run each arm's ranked candidate ids.
   */
  static final class Rrf {
    final Binding binding;
    final Order[] arms;
    final long k;
    /** Per arm, the top-limit candidate ids in rank order (set by the executor before rows flow). */
    List<List<String>> ranked;
    java.util.Set<String> candidates;

    Rrf(Binding binding, Order a, Order b, long k) {
      this.binding = binding;
      this.arms = new Order[] {a, b};
      this.k = k;
    }

    boolean admits(Entity e) {
      return candidates == null || candidates.contains(e.id());
    }
  }

  private static boolean sameExpr(Expr a, Expr b) {
    return render(a).equals(render(b));
  }

  private static String render(Expr e) {
    if (e instanceof QueryAst.PropAccess pa) {
      return "$" + pa.variable() + "." + pa.property();
    }
    if (e instanceof QueryAst.VarRef v) {
      return "$" + v.name();
    }
    if (e instanceof QueryAst.Call c) {
      return c.function().spelling() + "(" + String.join(",", c.args().stream().map(ReadPlan::render).toList()) + ")";
    }
    return e.toString().replaceAll("pos=[^,\\]]*", "");
  }

  static InvalidInputException unsupported(String what) {
    return new InvalidInputException(what, new ErrorDetail.Validation(null, null, null, "unsupported_query"));
  }

  /** @return the plan as indented text, one operator per line */
  String explain(java.util.function.Function<SearchSpec, String> searchStrategy) {
    StringBuilder b = new StringBuilder();
    b.append("query ").append(queryName).append('\n');
    for (SearchSpec s : searches) {
      b.append("  Search ").append(s.text).append(" on ").append(s.binding.tableKey()).append(" [")
          .append(searchStrategy.apply(s)).append("; once per query, prefilter: ")
          .append(s.binding.pushed.isEmpty() ? "none"
              : io.omnigraph.engine.table.LanceFilter.of(s.binding.pushedFilter()).sql())
          .append("]\n");
    }
    if (rrf != null) {
      b.append("  RankArms $").append(rrf.binding.written).append(" top-").append(limit).append(" per arm: ")
          .append(rrf.arms[0].val().text()).append(", ").append(rrf.arms[1].val().text()).append('\n');
    }
    explainOps(ops, b, "  ");
    if (aggregate) {
      List<String> keys = projections.stream().filter(p -> p.agg() == null).map(p -> p.column().name()).toList();
      List<String> aggs = projections.stream().filter(p -> p.agg() != null).map(p -> p.column().name()).toList();
      b.append("  Aggregate keys=").append(keys).append(" aggregates=").append(aggs)
          .append(" (memory: one entry per group)\n");
    }
    b.append("  Project ").append(projections.stream().map(p -> p.column().name()).toList()).append('\n');
    if (!orderings.isEmpty()) {
      b.append("  Order ").append(orderings.stream().map(o -> o.text() + (o.descending() ? " desc" : " asc")).toList())
          .append(" tie-break ").append(aggregate ? "group keys in column order"
              : tieBreak.stream().map(t -> t.written + ".id").toList().toString())
          .append(limit >= 0 && !aggregate ? " (top-" + limit + " heap)" : "")
          .append(lanceOrder() != null ? " (the scan sorted and limited by Lance)" : "").append('\n');
    }
    if (limit >= 0) {
      b.append("  Limit ").append(limit).append(orderings.isEmpty() && !aggregate ? " (stops the scan early)" : "").append('\n');
    }
    return b.toString();
  }

  static void explainOps(List<Op> ops, StringBuilder b, String indent) {
    for (Op op : ops) {
      if (op instanceof Op.Scan s) {
        b.append(indent).append(op == ops.get(0) ? "NodeScan " : "CrossJoin NodeScan ").append(s.binding().describe());
        scanDetail(s.binding(), b);
        b.append('\n');
      } else if (op instanceof Op.Expand x) {
        b.append(indent).append("Expand $").append(x.from().written).append(" -[").append(x.edge().name())
            .append(' ').append(x.dir()).append(" {").append(x.minHops()).append(',').append(x.maxHops()).append("}]-> ")
            .append(x.to().describe());
        if (x.edgeVar() != null) {
          b.append(" edge ").append(x.edgeVar().describe()).append(" (edge-bound: one row per edge");
          scanDetail(x.edgeVar(), b);
          b.append(')');
        } else {
          b.append(" (BFS, each destination once per source; strategy: ")
              .append(x.minHops() == 1 && x.maxHops() == 1 ? "indexed or CSR by cost" : "indexed or CSR by cost").append(')');
        }
        if (x.closing()) {
          b.append(" closing: keeps rows whose bound $").append(x.to().written).append(" is reached");
        } else if (x.to().needsRow()) {
          b.append(" hydrate");
          scanDetail(x.to(), b);
        }
        b.append('\n');
      } else if (op instanceof Op.Filter f) {
        b.append(indent).append("Filter ").append(f.text()).append(" (in memory)\n");
      } else if (op instanceof Op.AntiJoin a) {
        b.append(indent).append("AntiJoin on ").append(a.outer().stream().map(x -> "$" + x.written).toList())
            .append(" (per outer row, stops at the first inner match)\n");
        explainOps(a.inner(), b, indent + "    ");
      }
    }
  }

  private static void scanDetail(Binding v, StringBuilder b) {
    b.append(" [columns ").append(columnList(v));
    if (!v.pushed.isEmpty()) {
      b.append("; pushed to Lance: ").append(io.omnigraph.engine.table.LanceFilter.of(v.pushedFilter()).sql());
    }
    if (!v.residual.isEmpty()) {
      b.append("; in memory: ").append(String.join(" AND ", v.residualText));
    }
    b.append(']');
  }

  static List<String> columnList(Binding v) {
    List<String> cols = new ArrayList<>();
    cols.add("id");
    if (v.edge) {
      cols.add("src");
      cols.add("dst");
    }
    cols.addAll(v.columns.keySet());
    return cols;
  }

  /**
   * The ordering and limit as Lance sort keys when Lance can produce exactly the query's top
   * {@code limit} rows (docs/queries.md, "Order and limit"): the query is one scan of a node table
   * with every filter pushed, no aggregate or search, a limit, and every ordering a bare variable
   * or a property of it of an integer, String, Bool, Date or DateTime type (Lance sorts those as the
   * executor does: by value, Strings by UTF-8 bytes = code points, nulls first ascending and last
   * descending); the id tie-break is the last key, so the order is total. The executor still sorts
   * the rows Lance returns.
   *
   * @return column → ascending, in key order; null when not pushable
   */
  List<Map.Entry<String, Boolean>> lanceOrder() {
    if (ops.size() != 1 || !(ops.get(0) instanceof Op.Scan s) || s.binding().edge || !s.binding().residual.isEmpty()
        || aggregate || rrf != null || nearest != null || !searches.isEmpty() || limit < 1 || limit > Integer.MAX_VALUE
        || orderings.isEmpty()) {
      return null;
    }
    Binding b = s.binding();
    List<Map.Entry<String, Boolean>> keys = new ArrayList<>();
    for (Order o : orderings) {
      Val v = o.val() != null ? o.val() : projections.get(o.column()).val();
      if (o.candidatesOnly() || o.rrf() != null || v == null || !v.vars().equals(Set.of(b))) {
        return null;
      }
      String column = v.nodeVar() ? "id" : v.text().startsWith("$" + b.written + ".")
          ? v.text().substring(b.written.length() + 2) : null;
      boolean sortable = "id".equals(column) || (column != null && b.columns.get(column) instanceof PropertyType.Scalar sc
          && switch (sc.kind()) {
            case I32, I64, U32, U64, STRING, BOOL, DATE, DATE_TIME -> true;
            default -> false;
          });
      if (!sortable) {
        return null;
      }
      keys.add(Map.entry(column, !o.descending()));
    }
    keys.add(Map.entry("id", true));
    return keys;
  }

  Set<Binding> tieBreakSet() {
    return Set.copyOf(tieBreak);
  }
}
