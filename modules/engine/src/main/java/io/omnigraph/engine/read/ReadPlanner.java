package io.omnigraph.engine.read;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.gq.CheckedRead;
import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst;
import io.omnigraph.engine.gq.QueryAst.Clause;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.gq.QueryAst.Expr;
import io.omnigraph.engine.gq.QueryAst.FilterOp;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Scalars;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Lowers a type-checked read query into a {@link ReadPlan} (docs/queries.md, "Execution"):
 * variables get slots, single-variable filters and property matches go to the binding that
 * introduces the variable (pushed into its Lance scan when they are plain comparisons of a scalar
 * column with a constant), traversals become expands from the bound side, separate components are
 * cross-joined, multi-variable filters and negations run as soon as every variable they read is
 * bound. Parameters and {@code now()} are read from the plan's {@link ReadPlan.Cells} when the plan
 * runs, so one plan serves many executions; a pushed filter whose constant is one of them is
 * registered as a {@link ReadPlan.Rebind} that rebuilds it from the execution's values
 * (docs/queries.md, "Plan caching").
 */
final class ReadPlanner {
  private static final PropertyType STRING = new PropertyType.Scalar(ScalarKind.STRING);
  private static final PropertyType BOOL = new PropertyType.Scalar(ScalarKind.BOOL);

  /** Slots of no binding: what a constant expression (literal, parameter, {@code now()}) is evaluated on. */
  static final Entity[] NO_SLOTS = new Entity[0];

  private final Catalog catalog;
  private final ReadPlan.Cells cells;
  private final Map<String, QueryAst.ParamDecl> paramDecls = new LinkedHashMap<>();
  /** The expressions whose value is a cell (a parameter or {@code now()}), by identity. */
  private final Set<Val> cellVals = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /** Pushed filters rebuilt from the cells on every execution. */
  final List<ReadPlan.Rebind> rebinds = new ArrayList<>();
  final List<Binding> bindings = new ArrayList<>();
  private int anon;
  private int local;

  ReadPlanner(Catalog catalog, CheckedRead query, ReadPlan.Cells cells) {
    this.catalog = catalog;
    this.cells = cells;
    query.params().forEach(p -> paramDecls.put(p.name(), p));
  }

  /** A block's view of the variables: written name → binding. */
  private static final class Scope {
    final Map<String, Binding> vars;
    /** The bindings of enclosing blocks (bound before the block runs). */
    final Set<Binding> outer;
    /** Outer bindings this block (or a nested one) reads. */
    final Set<Binding> used = new LinkedHashSet<>();

    Scope(Map<String, Binding> vars, Set<Binding> outer) {
      this.vars = new LinkedHashMap<>(vars);
      this.outer = outer;
    }

    Binding get(String name) {
      Binding b = vars.get(name);
      if (b != null && outer.contains(b)) {
        used.add(b);
      }
      return b;
    }
  }

  /** The top-level pipeline and the scope of the outer match. */
  record Lowered(List<Op> ops, Map<String, Binding> scope) {}

  Lowered lower(List<Clause> match) {
    Scope top = new Scope(Map.of(), Set.of());
    List<Op> ops = block(match, top);
    return new Lowered(ops, top.vars);
  }

  private Binding newBinding(String written, boolean edge, String type, boolean localName) {
    String name;
    if (written.equals("_")) {
      name = "_#" + (++anon);
    } else if (localName) {
      name = written + "#" + (++local);
    } else {
      name = written;
    }
    Binding b = new Binding(name, written, edge, type, bindings.size());
    bindings.add(b);
    return b;
  }

  private record Trav(Binding from, Binding to, EdgeType edge, boolean undirected, int min, int max, Binding edgeVar) {}

  private record Pending(Set<Binding> needs, Op op) {}

  private List<Op> block(List<Clause> clauses, Scope scope) {
    boolean nested = !scope.outer.isEmpty();
    List<Binding> introduced = new ArrayList<>();
    List<Pending> pending = new ArrayList<>();
    // 1. node bindings (all of the block's, before traversals: docs/queries.md, "Variables")
    List<QueryAst.Binding> written = new ArrayList<>();
    for (Clause c : clauses) {
      if (c instanceof QueryAst.Binding b) {
        Binding v = scope.get(b.variable());
        if (v == null) {
          v = newBinding(b.variable(), false, b.typeName(), nested);
          scope.vars.put(b.variable(), v);
          introduced.add(v);
        }
        written.add(b);
      }
    }
    // 2. traversals, typing unbound endpoints as the checker does
    List<Trav> travs = new ArrayList<>();
    for (Clause c : clauses) {
      if (c instanceof QueryAst.Traversal t) {
        EdgeType edge = catalog.edgeIgnoreCase(t.edgeName()).orElseThrow();
        Binding src = t.source().equals("_") ? null : scope.get(t.source());
        Binding dst = t.target().equals("_") ? null : scope.get(t.target());
        String st = src == null ? null : src.typeName;
        String dt = dst == null ? null : dst.typeName;
        // Out when the left variable has (or, unbound, can have) the edge's From type; a same-type
        // edge is always followed as written (docs/queries.md, "Traversals").
        boolean out = st != null ? st.equals(edge.fromType()) : dt == null || dt.equals(edge.toType());
        String fromName = out ? t.source() : t.target();
        String toName = out ? t.target() : t.source();
        Binding from = endpoint(fromName, edge.fromType(), scope, introduced, nested);
        Binding to = endpoint(toName, edge.toType(), scope, introduced, nested);
        Binding ev = null;
        if (t.edgeVariable().isPresent()) {
          ev = newBinding(t.edgeVariable().get(), true, edge.name(), nested);
          scope.vars.put(t.edgeVariable().get(), ev);
          introduced.add(ev);
        }
        int min = t.minHops().intValueExact();
        int max = t.maxHops().orElseThrow().min(BigInteger.valueOf(1_000_000)).intValue();
        if (!edge.fromType().equals(edge.toType())) {
          max = Math.min(max, 1); // a cross-type edge cannot be followed twice in a row
        }
        travs.add(new Trav(from, to, edge, t.undirected(), min, max, ev));
      }
    }
    Set<Binding> own = new HashSet<>(introduced);
    // 3. property matches, filters, text searches
    for (QueryAst.Binding b : written) {
      Binding v = scope.get(b.variable());
      for (QueryAst.PropMatch m : b.matches()) {
        propMatch(v, m, own.contains(v), pending);
      }
    }
    for (Clause c : clauses) {
      if (c instanceof QueryAst.Filter f) {
        filter(f, scope, own, pending);
      } else if (c instanceof QueryAst.TextSearch s) {
        textSearch(s, scope, own, pending);
      }
    }
    // 4. negations
    for (Clause c : clauses) {
      if (c instanceof QueryAst.Negation n) {
        Set<Binding> visible = new LinkedHashSet<>(scope.outer);
        visible.addAll(scope.vars.values());
        Scope inner = new Scope(scope.vars, visible);
        List<Op> innerOps = block(n.clauses(), inner);
        for (Binding u : inner.used) {
          if (scope.outer.contains(u)) {
            scope.used.add(u);
          }
        }
        pending.add(new Pending(new LinkedHashSet<>(inner.used), new Op.AntiJoin(innerOps, new LinkedHashSet<>(inner.used))));
      }
    }
    // 5. emission
    List<Op> ops = new ArrayList<>();
    Set<Binding> bound = new HashSet<>(scope.outer);
    flush(pending, bound, ops);
    List<Trav> todo = new ArrayList<>(travs);
    List<Binding> roots = new ArrayList<>(introduced);
    while (true) {
      boolean progressed = false;
      for (int i = 0; i < todo.size(); i++) {
        Trav t = todo.get(i);
        boolean fb = bound.contains(t.from());
        boolean tb = bound.contains(t.to());
        if (!fb && !tb) {
          continue;
        }
        Op.Dir dir = t.undirected() ? Op.Dir.BOTH : fb ? Op.Dir.OUT : Op.Dir.IN;
        Binding a = fb ? t.from() : t.to();
        Binding z = fb ? t.to() : t.from();
        ops.add(new Op.Expand(a, z, t.edge(), dir, t.min(), t.max(), t.edgeVar(), fb && tb));
        bound.add(z);
        if (t.edgeVar() != null) {
          bound.add(t.edgeVar());
        }
        todo.remove(i);
        progressed = true;
        flush(pending, bound, ops);
        break;
      }
      if (progressed) {
        continue;
      }
      Binding root = null;
      for (Binding b : roots) {
        if (!bound.contains(b) && !b.edge) {
          root = b;
          break;
        }
      }
      if (root == null) {
        break;
      }
      ops.add(new Op.Scan(root));
      bound.add(root);
      flush(pending, bound, ops);
    }
    if (!pending.isEmpty()) {
      throw new IllegalStateException("unplaced operators: " + pending);
    }
    return ops;
  }

  private Binding endpoint(String name, String type, Scope scope, List<Binding> introduced, boolean nested) {
    if (!name.equals("_")) {
      Binding b = scope.get(name);
      if (b != null) {
        return b;
      }
    }
    Binding b = newBinding(name, false, type, nested);
    if (!name.equals("_")) {
      scope.vars.put(name, b);
    }
    introduced.add(b);
    return b;
  }

  private static void flush(List<Pending> pending, Set<Binding> bound, List<Op> ops) {
    for (var it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (bound.containsAll(p.needs())) {
        ops.add(p.op());
        it.remove();
      }
    }
  }

  // ------------------------------------------------------------------ filters

  private void propMatch(Binding v, QueryAst.PropMatch m, boolean own, List<Pending> pending) {
    NodeType type = catalog.node(v.typeName).orElseThrow();
    Property p = type.property(m.property()).orElseThrow();
    Val left = column(v, p.name(), p.type(), p.nullable());
    Val right = value(m.value());
    String text = "$" + v.written + "." + p.name() + ": " + right.text();
    FilterOp op = p.type() instanceof PropertyType.ListOf ? FilterOp.CONTAINS : FilterOp.EQ;
    place(left, op, right, text, own ? Set.of(v) : Set.of(), pending, Set.of(v));
  }

  private void filter(QueryAst.Filter f, Scope scope, Set<Binding> own, List<Pending> pending) {
    Val l = expr(f.left(), scope);
    Val r = expr(f.right(), scope);
    Set<Binding> vars = new LinkedHashSet<>(l.vars());
    vars.addAll(r.vars());
    place(l, f.op(), r, l.text() + " " + f.op().symbol() + " " + r.text(), own, pending, vars);
  }

  private void textSearch(QueryAst.TextSearch s, Scope scope, Set<Binding> own, List<Pending> pending) {
    Val call = expr(s.call(), scope);
    Predicate<Entity[]> test = slots -> Boolean.TRUE.equals(call.fn().apply(slots));
    if (call.vars().size() == 1 && own.containsAll(call.vars())) {
      Binding b = call.vars().iterator().next();
      addResidual(b, test, call.text());
    } else {
      pending.add(new Pending(call.vars(), new Op.Filter(test, call.text())));
    }
  }

  /**
   * Places {@code l op r}: on the binding when it reads one variable the block introduces
   * (pushed into the scan when Lance can evaluate it identically), otherwise as a filter operator.
   */
  private void place(Val l, FilterOp op, Val r, String text, Set<Binding> own, List<Pending> pending, Set<Binding> vars) {
    Predicate<Entity[]> test = predicate(l, op, r);
    if (vars.size() == 1 && own.containsAll(vars)) {
      Binding b = vars.iterator().next();
      Pusher pusher = pushable(b, l, op, r);
      RowFilter pushed = pusher == null ? null : pusher.make();
      if (pushed != null) {
        if (!pusher.column().equals("id") && !pusher.column().equals("src") && !pusher.column().equals("dst")) {
          b.release(pusher.column());
        }
        b.pushed.add(pushed);
        if (cellVals.contains(pusher.constant())) {
          rebinds.add(new ReadPlan.Rebind(b, b.pushed.size() - 1, pusher));
        }
      } else {
        addResidual(b, test, text);
      }
      return;
    }
    pending.add(new Pending(vars, new Op.Filter(test, text)));
  }

  private void addResidual(Binding b, Predicate<Entity[]> test, String text) {
    Entity[] scratch = new Entity[bindings.size() + 64];
    int slot = b.slot;
    b.residual.add(e -> {
      Entity[] s = scratch.length > slot ? scratch : new Entity[slot + 1];
      s[slot] = e;
      return test.test(s);
    });
    b.residualText.add(text);
  }

  /**
   * How to push {@code column op constant} into a Lance scan for the constant's value of an
   * execution: {@link #make} evaluates the constant and builds the filter, or returns null when
   * that value cannot be pushed exactly (at planning: the filter runs in memory; when a cached plan
   * is rebound: the plan does not fit the execution, which gets a plan of its own).
   *
   * @param constant the constant side (a literal, a parameter or {@code now()})
   * @param column the column the filter reads (released from the in-memory projection)
   * @param build the filter for a value, or null
   */
  record Pusher(Val constant, String column, Function<Object, RowFilter> build) {
    RowFilter make() {
      return build.apply(constant.fn().apply(NO_SLOTS));
    }
  }

  /**
   * A Lance filter equivalent to {@code l op r}, or null when it cannot be pushed exactly.
   *
   * <p>{@code key = "v"} on a node type whose {@code @key} is that one String (or enum) property is
   * pushed as {@code id = "v"}: such a node's id is its key value (docs/ndjson-format.md, "Node ids")
   * and a key member never changes (docs/mutations.md), so the two select the same rows, and the
   * {@code id} BTREE index ({@code id_idx}, docs/indexes.md) answers the second without a scan.
   */
  private Pusher pushable(Binding b, Val l, FilterOp op, Val r) {
    if (op == FilterOp.CONTAINS || op == FilterOp.STARTS_WITH) {
      return pushableText(b, l, op, r);
    }
    Val col;
    Val cst;
    CompOp cmp = compOp(op);
    if (cmp == null) {
      return null;
    }
    if (!l.vars().isEmpty() && r.vars().isEmpty()) {
      col = l;
      cst = r;
    } else if (l.vars().isEmpty() && !r.vars().isEmpty()) {
      col = r;
      cst = l;
      cmp = flip(cmp);
    } else {
      return null;
    }
    ColumnRef ref = columnRef(b, col.text());
    if (ref == null || ref.scalarKind() == null || ref.scalarKind() == ScalarKind.BLOB || cst.type() == null) {
      return null;
    }
    ScalarKind ck = ReadValues.kind(cst.type());
    if (ck == null) {
      return null;
    }
    ScalarKind rk = ref.scalarKind();
    CompOp c = cmp;
    ColumnRef asId = c == CompOp.EQ && isKey(b, ref) ? ColumnRef.system("id") : ref;
    return new Pusher(cst, ref.name(), value -> {
      if (value == null) {
        return new RowFilter.Compare(ref, c, null);
      }
      Object exact = ReadValues.exactIn(rk, ck, value);
      return exact == null ? null : new RowFilter.Compare(exact instanceof String ? asId : ref, c, exact);
    });
  }

  /** Whether {@code ref} is the one String (or enum) property of {@code b}'s node type's {@code @key}. */
  private boolean isKey(Binding b, ColumnRef ref) {
    if (b.edge || ref.scalarKind() != ScalarKind.STRING || ref.name().equals("id")) {
      return false;
    }
    List<String> key = catalog.node(b.typeName).flatMap(NodeType::key).map(io.omnigraph.engine.schema.Constraint.Key::fields).orElse(List.of());
    return key.equals(List.of(ref.name()));
  }

  /**
   * {@code $v.p contains c}, {@code $v.p starts_with c} on a String column and list membership
   * ({@code contains} or a property match on a list column) with a constant: a Lance filter
   * ({@code strpos}, {@code starts_with}, {@code array_has}) with the same meaning, or null.
   */
  private Pusher pushableText(Binding b, Val l, FilterOp op, Val r) {
    if (l.vars().isEmpty() || !r.vars().isEmpty() || r.type() == null) {
      return null;
    }
    ColumnRef ref = columnRef(b, l.text());
    if (ref == null) {
      return null;
    }
    if (ref.type() instanceof PropertyType.ListOf list) {
      ScalarKind ck = ReadValues.kind(r.type());
      if (op != FilterOp.CONTAINS || ck == null || list.item() == ScalarKind.BLOB) {
        return null;
      }
      return new Pusher(r, ref.name(), value -> {
        if (value == null) {
          return new RowFilter.Constant(false); // null never matches
        }
        Object exact = ReadValues.exactIn(list.item(), ck, value);
        return exact == null ? null : new RowFilter.ListHas(ref, list.item(), exact);
      });
    }
    if (ref.scalarKind() != ScalarKind.STRING || ReadValues.kind(r.type()) != ScalarKind.STRING) {
      return null;
    }
    boolean prefix = op == FilterOp.STARTS_WITH;
    return new Pusher(r, ref.name(), value -> value == null ? new RowFilter.Constant(false)
        : new RowFilter.Text(ref, prefix, (String) value));
  }

  /** The column a single-variable access {@code $v.p} reads, or null for other expressions. */
  private ColumnRef columnRef(Binding b, String text) {
    String prefix = "$" + b.written + ".";
    if (!text.startsWith(prefix)) {
      return null;
    }
    String prop = text.substring(prefix.length());
    if (prop.equals("id") || (b.edge && (prop.equals("src") || prop.equals("dst")))) {
      return ColumnRef.system(prop);
    }
    Property p = b.edge ? catalog.edge(b.typeName).orElseThrow().property(prop).orElse(null)
        : catalog.node(b.typeName).orElseThrow().property(prop).orElse(null);
    return p == null ? null : ColumnRef.of(p);
  }

  private static CompOp compOp(FilterOp op) {
    return switch (op) {
      case EQ -> CompOp.EQ;
      case NE -> CompOp.NE;
      case LT -> CompOp.LT;
      case LE -> CompOp.LE;
      case GT -> CompOp.GT;
      case GE -> CompOp.GE;
      default -> null;
    };
  }

  private static CompOp flip(CompOp op) {
    return switch (op) {
      case LT -> CompOp.GT;
      case LE -> CompOp.GE;
      case GT -> CompOp.LT;
      case GE -> CompOp.LE;
      default -> op;
    };
  }

  /** In-memory semantics of {@code l op r}: nulls never match (docs/queries.md, "Filters"). */
  static Predicate<Entity[]> predicate(Val l, FilterOp op, Val r) {
    Function<Entity[], Object> lf = l.fn();
    Function<Entity[], Object> rf = r.fn();
    if (l.nodeVar() || r.nodeVar()) {
      return s -> {
        Object a = lf.apply(s);
        Object b = rf.apply(s);
        return a != null && b != null && test(op, ((String) a).compareTo((String) b));
      };
    }
    switch (op) {
      case CONTAINS -> {
        if (l.type() instanceof PropertyType.ListOf list) {
          ScalarKind item = list.item();
          ScalarKind rk = ReadValues.kind(r.type());
          return s -> {
            Object a = lf.apply(s);
            Object b = rf.apply(s);
            if (a == null || b == null) {
              return false;
            }
            for (Object o : (List<?>) a) {
              if (o != null && ReadValues.compare(item, o, rk, b) == 0) {
                return true;
              }
            }
            return false;
          };
        }
        return s -> {
          Object a = lf.apply(s);
          Object b = rf.apply(s);
          return a != null && b != null && ((String) a).contains((String) b);
        };
      }
      case STARTS_WITH -> {
        return s -> {
          Object a = lf.apply(s);
          Object b = rf.apply(s);
          return a != null && b != null && ((String) a).startsWith((String) b);
        };
      }
      default -> {
        ScalarKind lk = ReadValues.kind(l.type());
        ScalarKind rk = ReadValues.kind(r.type());
        if (lk == null || rk == null) {
          throw new InvalidInputException("cannot compare " + l.text() + " with " + r.text(),
              new ErrorDetail.Validation(null, null, null, "T7"));
        }
        return s -> {
          Object a = lf.apply(s);
          Object b = rf.apply(s);
          return a != null && b != null && test(op, ReadValues.compare(lk, a, rk, b));
        };
      }
    }
  }

  private static boolean test(FilterOp op, int c) {
    return switch (op) {
      case EQ -> c == 0;
      case NE -> c != 0;
      case LT -> c < 0;
      case LE -> c <= 0;
      case GT -> c > 0;
      case GE -> c >= 0;
      default -> throw new IllegalStateException(op.toString());
    };
  }

  // ------------------------------------------------------------------ expressions

  private Val column(Binding b, String prop, PropertyType type, boolean nullable) {
    String text = "$" + b.written + "." + prop;
    int slot = b.slot;
    if (prop.equals("id")) {
      return new Val(STRING, false, s -> s[slot] == null ? null : s[slot].id(), Set.of(b), text, false);
    }
    if (b.edge && prop.equals("src")) {
      return new Val(STRING, false, s -> s[slot] == null ? null : s[slot].src(), Set.of(b), text, false);
    }
    if (b.edge && prop.equals("dst")) {
      return new Val(STRING, false, s -> s[slot] == null ? null : s[slot].dst(), Set.of(b), text, false);
    }
    Binding.Col col = b.column(prop, type);
    return new Val(type, nullable, s -> s[slot] == null ? null : s[slot].vals()[col.index], Set.of(b), text, false);
  }

  /** Compiles a projection or ordering expression over the outer match's variables. */
  Val exprIn(Expr e, Map<String, Binding> vars) {
    return expr(e, new Scope(vars, Set.of()));
  }

  /** Compiles an expression of a filter (not an aggregate, not an alias). */
  private Val expr(Expr e, Scope scope) {
    if (e instanceof QueryAst.PropAccess pa) {
      Binding b = scope.get(pa.variable());
      if (b == null) {
        throw new IllegalStateException("unbound $" + pa.variable());
      }
      return access(b, pa.property());
    }
    if (e instanceof QueryAst.VarRef v) {
      Binding b = scope.get(v.name());
      if (b != null) {
        int slot = b.slot;
        return new Val(STRING, false, s -> s[slot] == null ? null : s[slot].id(), Set.of(b), "$" + v.name(), true);
      }
      return param(v.name());
    }
    if (e instanceof QueryAst.LiteralExpr lit) {
      return literal(lit.literal());
    }
    if (e instanceof QueryAst.NowExpr) {
      return now();
    }
    if (e instanceof QueryAst.Call c) {
      return call(c, scope);
    }
    throw new InvalidInputException("an alias cannot be used in a match filter: " + ((QueryAst.AliasRef) e).name(),
        new ErrorDetail.Validation(null, null, null, "T6"));
  }

  Val access(Binding b, String prop) {
    if (prop.equals("id") || (b.edge && (prop.equals("src") || prop.equals("dst")))) {
      return column(b, prop, STRING, false);
    }
    Property p = (b.edge ? catalog.edge(b.typeName).orElseThrow().property(prop)
        : catalog.node(b.typeName).orElseThrow().property(prop)).orElseThrow();
    return column(b, prop, p.type(), p.nullable());
  }

  private Val value(QueryAst.Value v) {
    if (v instanceof QueryAst.LiteralValue l) {
      return literal(l.literal());
    }
    if (v instanceof QueryAst.ParamRef p) {
      return param(p.name());
    }
    return now();
  }

  /** {@code now()}: the execution's clock reading, the same for the whole query. */
  private Val now() {
    ReadPlan.Cells c = cells;
    Val v = new Val(new PropertyType.Scalar(ScalarKind.DATE_TIME), false, s -> c.now, Set.of(), "now()", false);
    cellVals.add(v);
    return v;
  }

  /** {@code $name}: the execution's bound value (nullable exactly when the declaration is). */
  private Val param(String name) {
    QueryAst.ParamDecl d = paramDecls.get(name);
    if (d == null) {
      throw new IllegalStateException("undeclared $" + name);
    }
    Object[] values = cells.values;
    int i = cells.index(name);
    Val v = new Val(d.type(), d.nullable(), s -> values[i], Set.of(), "$" + name, false);
    cellVals.add(v);
    return v;
  }

  static Val literal(QueryAst.Literal lit) {
    Object v;
    PropertyType t;
    String text;
    if (lit instanceof QueryAst.StringLit s) {
      v = s.value();
      t = STRING;
      text = '"' + s.value() + '"';
    } else if (lit instanceof QueryAst.IntLit i) {
      BigInteger b = i.value();
      text = b.toString();
      if (b.bitLength() < 64) {
        v = b.longValue();
        t = new PropertyType.Scalar(ScalarKind.I64);
      } else if (b.bitLength() <= 64) {
        v = b.longValue();
        t = new PropertyType.Scalar(ScalarKind.U64);
      } else {
        v = new BigDecimal(b).doubleValue();
        t = new PropertyType.Scalar(ScalarKind.F64);
      }
    } else if (lit instanceof QueryAst.FloatLit f) {
      v = f.value().doubleValue();
      t = new PropertyType.Scalar(ScalarKind.F64);
      text = f.value().toPlainString();
    } else if (lit instanceof QueryAst.BoolLit b) {
      v = b.value();
      t = BOOL;
      text = Boolean.toString(b.value());
    } else if (lit instanceof QueryAst.DateLit d) {
      v = Scalars.parseDate(d.text());
      t = new PropertyType.Scalar(ScalarKind.DATE);
      text = "date(\"" + d.text() + "\")";
    } else if (lit instanceof QueryAst.DateTimeLit d) {
      v = Scalars.parseDateTime(d.text());
      t = new PropertyType.Scalar(ScalarKind.DATE_TIME);
      text = "datetime(\"" + d.text() + "\")";
    } else {
      QueryAst.ListLit l = (QueryAst.ListLit) lit;
      List<Object> items = new ArrayList<>();
      ScalarKind k = null;
      for (QueryAst.Literal item : l.items()) {
        Val iv = literal(item);
        items.add(iv.fn().apply(NO_SLOTS));
        k = ReadValues.kind(iv.type());
      }
      v = List.copyOf(items);
      t = new PropertyType.ListOf(k == null ? ScalarKind.STRING : k);
      text = "[" + String.join(", ", l.items().stream().map(x -> literal(x).text()).toList()) + "]";
    }
    Object value = v;
    return new Val(t, false, s -> value, Set.of(), text, false);
  }

  private Val call(QueryAst.Call c, Scope scope) {
    switch (c.function()) {
      case SEARCH, MATCH_TEXT, FUZZY -> {
        SearchSpec s = search(c, scope);
        int slot = s.binding.slot;
        return new Val(BOOL, false, x -> x[slot] == null ? null : s.matches(x[slot].id()), Set.of(s.binding), s.text, false);
      }
      case BM25 -> {
        SearchSpec s = search(c, scope);
        int slot = s.binding.slot;
        return new Val(new PropertyType.Scalar(ScalarKind.F64), true, x -> x[slot] == null ? null : s.score(x[slot].id()),
            Set.of(s.binding), s.text, false);
      }
      default -> throw new InvalidInputException(c.function().spelling() + "(...) is not supported in this position",
          new ErrorDetail.Validation(null, null, null, "unsupported_query"));
    }
  }

  /** Set by the last compiled nearest ordering (read by {@link ReadPlan}). */
  ReadPlan.NearestSpec nearest;

  /** Every full-text search of the query, computed once per run (docs/queries.md, "Search"). */
  final List<SearchSpec> searches = new ArrayList<>();

  /**
   * {@code search}/{@code match_text}/{@code fuzzy}/{@code bm25}{@code ($x.p, q [, edits])}: the
   * property of one node variable, a constant query (literal or parameter).
   */
  private SearchSpec search(QueryAst.Call c, Scope scope) {
    if (!(c.args().get(0) instanceof QueryAst.PropAccess pa)) {
      throw new InvalidInputException(c.function().spelling() + "(...) needs a property of a node variable",
          new ErrorDetail.Validation(null, null, null, "unsupported_query"));
    }
    Binding b = scope.get(pa.variable());
    if (b == null || b.edge) {
      throw new InvalidInputException(c.function().spelling() + "(...) needs a property of a node variable",
          new ErrorDetail.Validation(null, null, null, "T23"));
    }
    Val q = expr(c.args().get(1), scope);
    if (!q.vars().isEmpty()) {
      throw new InvalidInputException(c.function().spelling() + "(...)'s query must be a String literal or parameter, not "
          + q.text(), new ErrorDetail.Validation(null, null, null, "unsupported_query"));
    }
    int edits = 0;
    if (c.function() == QueryAst.Function.FUZZY) {
      edits = 2;
      if (c.args().size() == 3) {
        BigInteger e = ((QueryAst.IntLit) ((QueryAst.LiteralExpr) c.args().get(2)).literal()).value();
        if (e.compareTo(BigInteger.TWO) > 0) {
          throw new InvalidInputException("fuzzy(...) allows at most 2 edits per token, got " + e,
              new ErrorDetail.Validation((long) c.pos().line(), (long) c.pos().column(), null, "T19"));
        }
        edits = e.intValue();
      }
    }
    String text = c.function().spelling() + "($" + b.written + "." + pa.property() + ", " + q.text()
        + (c.function() == QueryAst.Function.FUZZY ? ", " + edits : "") + ")";
    for (SearchSpec s : searches) {
      if (s.sameAs(b, pa.property(), q.text(), edits)) {
        return s;
      }
    }
    SearchSpec s = new SearchSpec(b, pa.property(), q, edits, text);
    searches.add(s);
    return s;
  }
}
