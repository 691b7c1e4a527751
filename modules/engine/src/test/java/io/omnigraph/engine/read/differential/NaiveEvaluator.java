package io.omnigraph.engine.read.differential;

import io.omnigraph.engine.read.differential.GraphModel.Edge;
import io.omnigraph.engine.read.differential.GraphModel.EdgeType;
import io.omnigraph.engine.read.differential.GraphModel.Node;
import io.omnigraph.engine.read.differential.QueryModel.Agg;
import io.omnigraph.engine.read.differential.QueryModel.Alias;
import io.omnigraph.engine.read.differential.QueryModel.Binding;
import io.omnigraph.engine.read.differential.QueryModel.Clause;
import io.omnigraph.engine.read.differential.QueryModel.Expr;
import io.omnigraph.engine.read.differential.QueryModel.Filter;
import io.omnigraph.engine.read.differential.QueryModel.Lit;
import io.omnigraph.engine.read.differential.QueryModel.Not;
import io.omnigraph.engine.read.differential.QueryModel.Operand;
import io.omnigraph.engine.read.differential.QueryModel.Ordering;
import io.omnigraph.engine.read.differential.QueryModel.Param;
import io.omnigraph.engine.read.differential.QueryModel.Projection;
import io.omnigraph.engine.read.differential.QueryModel.PropMatch;
import io.omnigraph.engine.read.differential.QueryModel.Traversal;
import io.omnigraph.engine.read.differential.QueryModel.Var;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A deliberately naive evaluator of read queries, written from the language's semantics
 * (the read language's meaning) and nothing else: a query's rows are all assignments of its variables to
 * nodes (and edges, for edge variables) that satisfy every match clause, found by plain
 * backtracking over every node of each variable's type. No plans, no indexes, no pushdown.
 *
 * <p>The meaning encoded here, clause by clause:
 *
 * <ul>
 *   <li>a binding {@code $x: T {p: v}} holds when the node has type T and each match is equal (a
 *       scalar against a list property means the list contains it); null never matches;
 *   <li>a traversal without an edge variable holds for the pair (a, b) when b is reached from a:
 *       for an edge between two different node types, b is a neighbour of a (the hop bounds cannot
 *       exceed one hop); for a same-type edge, b ≠ a is reached when its shortest-path distance from
 *       a lies within {@code {min,max}}, and a itself is reached (at one hop) only through a
 *       self-loop on a, never by a longer cycle. A self-loop is never an extra hop: a node's hop
 *       count is its distance. Direction: out when the left variable has the edge's source type,
 *       in otherwise; {@code <edge>} follows edges both ways (a neighbour once);
 *   <li>a traversal with an edge variable holds for (a, w, b) when w joins a to b in the
 *       traversal's direction (either way when undirected): one row per edge;
 *   <li>a filter holds when neither side is null and the comparison is true; numbers compare by
 *       value whatever their width; {@code contains} is list membership on a list and substring on
 *       a string; {@code starts_with} is a string prefix;
 *   <li>{@code not { ... }} holds when no assignment of the block's own variables (each {@code $_}
 *       is its own anonymous variable) satisfies its clauses, given the row's outer variables.
 * </ul>
 *
 * Projections, aggregates (implicit grouping by every non-aggregate projection; {@code count}
 * counts non-null values, {@code sum}/{@code avg} are doubles, null on no values; no group keys
 * and no rows give one row), ordering (nulls first ascending, last descending, then every bound
 * variable's id ascending by variable name) and limit follow.
 */
final class NaiveEvaluator {

  /** How far the order of {@link Result#rows()} is defined. */
  enum OrderMode {
    /** no order clause: compare as multisets */
    NONE,
    /** the order is total: compare as lists */
    TOTAL,
    /** only the listed key columns are ordered: compare as multisets and check the key order */
    KEYS
  }

  /** @param keyColumns for {@link OrderMode#KEYS}: column index and descending flag per key */
  record Result(List<String> columns, List<List<Object>> rows, OrderMode mode, List<Key> keyColumns) {}

  record Key(int column, boolean desc) {}

  private record VarInfo(boolean edge, String type) {}

  private final GraphModel g;
  private final Map<String, Set<String>> reachMemo = new HashMap<>();

  NaiveEvaluator(GraphModel g) {
    this.g = g;
  }

  Result evaluate(QueryModel q) {
    Map<String, VarInfo> scope = new LinkedHashMap<>();
    List<Clause> clauses = anonymise(q.clauses(), new int[] {0});
    infer(clauses, scope);
    List<Map<String, Object>> solutions = new ArrayList<>();
    solve(clauses, scope, Map.of(), q.paramValues(), solutions, false);

    List<String> columns = q.returns().stream().map(Projection::column).toList();
    if (q.aggregating()) {
      return aggregate(q, columns, solutions);
    }
    List<String> visible = scope.keySet().stream().filter(v -> !v.startsWith("_#"))
        .sorted(Comparator.comparing(v -> v + ".id")).toList();
    List<Map<String, Object>> sorted = new ArrayList<>(solutions);
    if (!q.order().isEmpty()) {
      sorted.sort((x, y) -> {
        for (Ordering o : q.order()) {
          int c = compareNullable(orderValue(q, o.expr(), x), orderValue(q, o.expr(), y), o.desc());
          if (c != 0) {
            return c;
          }
        }
        for (String v : visible) {
          int c = id(x.get(v)).compareTo(id(y.get(v)));
          if (c != 0) {
            return c;
          }
        }
        return 0;
      });
    }
    List<List<Object>> rows = new ArrayList<>();
    for (Map<String, Object> s : sorted) {
      List<Object> row = new ArrayList<>();
      for (Projection p : q.returns()) {
        row.add(value(p.expr(), s));
      }
      rows.add(row);
    }
    return new Result(columns, limit(rows, q.limit()), q.order().isEmpty() ? OrderMode.NONE : OrderMode.TOTAL,
        List.of());
  }

  // ---- aggregation ----

  private Result aggregate(QueryModel q, List<String> columns, List<Map<String, Object>> solutions) {
    List<Integer> keyIdx = new ArrayList<>();
    for (int i = 0; i < q.returns().size(); i++) {
      if (!(q.returns().get(i).expr() instanceof Agg)) {
        keyIdx.add(i);
      }
    }
    Map<List<Object>, List<Map<String, Object>>> groups = new LinkedHashMap<>();
    for (Map<String, Object> s : solutions) {
      List<Object> key = new ArrayList<>();
      for (int i : keyIdx) {
        key.add(canonical(value(q.returns().get(i).expr(), s)));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
    }
    if (groups.isEmpty() && keyIdx.isEmpty()) {
      groups.put(List.of(), List.of());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (List<Map<String, Object>> members : groups.values()) {
      List<Object> row = new ArrayList<>();
      for (Projection p : q.returns()) {
        if (p.expr() instanceof Agg a) {
          row.add(aggregate(a, members));
        } else {
          row.add(value(p.expr(), members.get(0)));
        }
      }
      rows.add(row);
    }
    if (q.order().isEmpty()) {
      return new Result(columns, limit(rows, q.limit()), OrderMode.NONE, List.of());
    }
    List<Key> keys = new ArrayList<>();
    for (Ordering o : q.order()) {
      keys.add(new Key(columns.indexOf(((Alias) o.expr()).name()), o.desc()));
    }
    rows.sort((x, y) -> {
      for (Key k : keys) {
        int c = compareNullable(x.get(k.column()), y.get(k.column()), k.desc());
        if (c != 0) {
          return c;
        }
      }
      return 0;
    });
    boolean total = keys.stream().map(Key::column).distinct().count() == columns.size();
    return new Result(columns, limit(rows, q.limit()), total ? OrderMode.TOTAL : OrderMode.KEYS, keys);
  }

  private Object aggregate(Agg a, List<Map<String, Object>> members) {
    List<Object> values = new ArrayList<>();
    for (Map<String, Object> s : members) {
      Object v = value(a.arg(), s);
      if (v != null) {
        values.add(v);
      }
    }
    switch (a.fn()) {
      case "count":
        return (long) values.size();
      case "sum":
        return values.isEmpty() ? null : values.stream().mapToDouble(v -> ((Number) v).doubleValue()).sum();
      case "avg":
        return values.isEmpty() ? null
            : values.stream().mapToDouble(v -> ((Number) v).doubleValue()).sum() / values.size();
      case "min":
        return values.stream().min(NaiveEvaluator::compare).orElse(null);
      case "max":
        return values.stream().max(NaiveEvaluator::compare).orElse(null);
      default:
        throw new IllegalArgumentException(a.fn());
    }
  }

  private static List<List<Object>> limit(List<List<Object>> rows, Integer limit) {
    return limit == null || rows.size() <= limit ? rows : new ArrayList<>(rows.subList(0, limit));
  }

  // ---- scope ----

  /** Gives each {@code $_} its own name {@code _#n}, so anonymous endpoints never join. */
  private static List<Clause> anonymise(List<Clause> clauses, int[] counter) {
    List<Clause> out = new ArrayList<>();
    for (Clause c : clauses) {
      if (c instanceof Traversal t) {
        String l = t.left().equals("_") ? "_#" + counter[0]++ : t.left();
        String r = t.right().equals("_") ? "_#" + counter[0]++ : t.right();
        out.add(new Traversal(l, t.edgeVar(), t.edge(), t.undirected(), t.min(), t.max(), r));
      } else if (c instanceof Not n) {
        out.add(new Not(anonymise(n.clauses(), counter)));
      } else {
        out.add(c);
      }
    }
    return out;
  }

  /** Adds the variables the clauses introduce (not those inside negations) to scope, in order. */
  private void infer(List<Clause> clauses, Map<String, VarInfo> scope) {
    for (Clause c : clauses) {
      if (c instanceof Binding b) {
        VarInfo prev = scope.putIfAbsent(b.var(), new VarInfo(false, b.type()));
        if (prev != null && (prev.edge() || !prev.type().equals(b.type()))) {
          throw new IllegalArgumentException("$" + b.var() + " rebound to another type");
        }
      } else if (c instanceof Traversal t) {
        EdgeType e = edgeByQueryName(t.edge());
        VarInfo left = scope.get(t.left());
        if (left == null) {
          // Only an anonymous left endpoint can be unbound here; it takes the source type.
          left = new VarInfo(false, e.from());
          scope.put(t.left(), left);
        }
        String rightType = direction(t, e, left.type()) == Dir.IN ? e.from() : e.to();
        VarInfo prev = scope.putIfAbsent(t.right(), new VarInfo(false, rightType));
        if (prev != null && !prev.type().equals(rightType)) {
          throw new IllegalArgumentException("$" + t.right() + " is not a " + rightType);
        }
        if (t.edgeVar() != null) {
          scope.put(t.edgeVar(), new VarInfo(true, e.name()));
        }
      }
    }
  }

  private enum Dir { OUT, IN, BOTH }

  private static Dir direction(Traversal t, EdgeType e, String leftType) {
    if (t.undirected()) {
      return Dir.BOTH;
    }
    return leftType.equals(e.from()) ? Dir.OUT : Dir.IN;
  }

  private EdgeType edgeByQueryName(String name) {
    return g.edgeTypes().stream().filter(e -> e.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no edge " + name));
  }

  // ---- the search ----

  /**
   * Enumerates every assignment of the clauses' unassigned variables (those of {@code scope} not
   * in {@code fixed}) satisfying all clauses. With {@code firstOnly} it stops at the first.
   */
  private boolean solve(List<Clause> clauses, Map<String, VarInfo> scope, Map<String, Object> fixed,
      Map<String, Object> params, List<Map<String, Object>> out, boolean firstOnly) {
    List<String> vars = new ArrayList<>();
    for (String v : scope.keySet()) {
      if (!fixed.containsKey(v) && referenced(clauses, v, scope)) {
        vars.add(v);
      }
    }
    // Each clause is checked as soon as its last variable is assigned.
    Map<Integer, List<Clause>> byLevel = new HashMap<>();
    for (Clause c : clauses) {
      int level = -1;
      for (String v : varsOf(c, scope)) {
        level = Math.max(level, vars.indexOf(v));
      }
      byLevel.computeIfAbsent(level, k -> new ArrayList<>()).add(c);
    }
    Map<String, Object> assignment = new LinkedHashMap<>(fixed);
    for (Clause c : byLevel.getOrDefault(-1, List.of())) {
      if (!holds(c, assignment, scope, params)) {
        return false;
      }
    }
    return search(0, vars, byLevel, scope, assignment, params, out, firstOnly);
  }

  private boolean search(int i, List<String> vars, Map<Integer, List<Clause>> byLevel, Map<String, VarInfo> scope,
      Map<String, Object> assignment, Map<String, Object> params, List<Map<String, Object>> out, boolean firstOnly) {
    if (i == vars.size()) {
      out.add(new LinkedHashMap<>(assignment));
      return true;
    }
    String v = vars.get(i);
    VarInfo info = scope.get(v);
    List<?> domain = info.edge() ? g.edgesOf(info.type()) : g.nodesOf(info.type());
    boolean found = false;
    for (Object candidate : domain) {
      assignment.put(v, candidate);
      boolean ok = true;
      for (Clause c : byLevel.getOrDefault(i, List.of())) {
        if (!holds(c, assignment, scope, params)) {
          ok = false;
          break;
        }
      }
      if (ok && search(i + 1, vars, byLevel, scope, assignment, params, out, firstOnly)) {
        found = true;
        if (firstOnly) {
          assignment.remove(v);
          return true;
        }
      }
    }
    assignment.remove(v);
    return found;
  }

  private boolean referenced(List<Clause> clauses, String v, Map<String, VarInfo> scope) {
    for (Clause c : clauses) {
      if (varsOf(c, scope).contains(v)) {
        return true;
      }
    }
    return false;
  }

  /** The variables of {@code scope} a clause reads (for a negation: the outer ones it uses). */
  private Set<String> varsOf(Clause c, Map<String, VarInfo> scope) {
    Set<String> vs = new LinkedHashSet<>();
    if (c instanceof Binding b) {
      vs.add(b.var());
    } else if (c instanceof Traversal t) {
      vs.add(t.left());
      if (t.edgeVar() != null) {
        vs.add(t.edgeVar());
      }
      vs.add(t.right());
    } else if (c instanceof Filter f) {
      addVar(f.left(), vs);
      addVar(f.right(), vs);
    } else {
      for (Clause x : ((Not) c).clauses()) {
        vs.addAll(varsOf(x, Map.of()));
      }
    }
    if (!scope.isEmpty()) {
      vs.retainAll(scope.keySet());
    }
    return vs;
  }

  private static void addVar(Operand o, Set<String> vs) {
    if (o instanceof QueryModel.Prop p) {
      vs.add(p.var());
    }
  }

  private boolean holds(Clause c, Map<String, Object> a, Map<String, VarInfo> scope, Map<String, Object> params) {
    if (c instanceof Binding b) {
      Node n = (Node) a.get(b.var());
      for (PropMatch m : b.matches()) {
        Object want = operand(m.value(), a, params);
        Object have = n.props().get(m.prop());
        boolean ok = have instanceof List<?> list ? member(list, want) : want != null && have != null
            && valueEquals(have, want);
        if (!ok) {
          return false;
        }
      }
      return true;
    }
    if (c instanceof Traversal t) {
      EdgeType e = edgeByQueryName(t.edge());
      Node left = (Node) a.get(t.left());
      Node right = (Node) a.get(t.right());
      Dir dir = direction(t, e, scope.get(t.left()).type());
      if (t.edgeVar() != null) {
        Edge w = (Edge) a.get(t.edgeVar());
        boolean out = w.src().equals(left.id()) && w.dst().equals(right.id());
        boolean in = w.dst().equals(left.id()) && w.src().equals(right.id());
        return dir == Dir.OUT ? out : dir == Dir.IN ? in : out || in;
      }
      int min = t.min() == null ? 1 : t.min();
      int max = t.max() == null ? 1 : t.max();
      return reached(e, dir, min, max, left.id()).contains(right.id());
    }
    if (c instanceof Filter f) {
      return compareOp(f.op(), operand(f.left(), a, params), operand(f.right(), a, params));
    }
    Not n = (Not) c;
    Map<String, VarInfo> inner = new LinkedHashMap<>(scope);
    infer(n.clauses(), inner);
    Map<String, Object> fixed = new LinkedHashMap<>();
    for (String v : scope.keySet()) {
      if (a.containsKey(v)) {
        fixed.put(v, a.get(v));
      }
    }
    return !solve(n.clauses(), inner, fixed, params, new ArrayList<>(), true);
  }

  /**
   * The ids reached from {@code src} over edge type {@code e} in direction {@code dir} within
   * {@code min..max} hops, by the rule in the class comment.
   */
  Set<String> reached(EdgeType e, Dir dir, int min, int max, String src) {
    String memoKey = e.name() + "|" + dir + "|" + min + "|" + max + "|" + src;
    Set<String> memo = reachMemo.get(memoKey);
    if (memo != null) {
      return memo;
    }
    Set<String> result = new HashSet<>();
    if (!e.sameType()) {
      if (min <= 1) {
        result.addAll(neighbours(e, dir, src));
      }
    } else {
      Map<String, Integer> dist = new HashMap<>();
      dist.put(src, 0);
      ArrayDeque<String> queue = new ArrayDeque<>(List.of(src));
      while (!queue.isEmpty()) {
        String u = queue.poll();
        for (String v : neighbours(e, dir, u)) {
          if (!dist.containsKey(v)) {
            dist.put(v, dist.get(u) + 1);
            queue.add(v);
          }
        }
      }
      for (Map.Entry<String, Integer> d : dist.entrySet()) {
        if (!d.getKey().equals(src) && d.getValue() >= min && d.getValue() <= max) {
          result.add(d.getKey());
        }
      }
      if (min <= 1 && neighbours(e, dir, src).contains(src)) {
        result.add(src);
      }
    }
    reachMemo.put(memoKey, result);
    return result;
  }

  private Set<String> neighbours(EdgeType e, Dir dir, String id) {
    Set<String> out = new LinkedHashSet<>();
    for (Edge x : g.edgesOf(e.name())) {
      if ((dir == Dir.OUT || dir == Dir.BOTH) && x.src().equals(id)) {
        out.add(x.dst());
      }
      if ((dir == Dir.IN || dir == Dir.BOTH) && x.dst().equals(id)) {
        out.add(x.src());
      }
    }
    return out;
  }

  // ---- values ----

  private static Object operand(Operand o, Map<String, Object> a, Map<String, Object> params) {
    if (o instanceof QueryModel.Prop p) {
      return property(a.get(p.var()), p.prop());
    }
    if (o instanceof Lit l) {
      return l.value();
    }
    return params.get(((Param) o).name());
  }

  private static Object property(Object entity, String prop) {
    return entity instanceof Node n ? n.props().get(prop) : ((Edge) entity).props().get(prop);
  }

  private static String id(Object entity) {
    return entity instanceof Node n ? n.id() : ((Edge) entity).id();
  }

  private static Object value(Expr e, Map<String, Object> s) {
    if (e instanceof QueryModel.Prop p) {
      return property(s.get(p.var()), p.prop());
    }
    if (e instanceof Var v) {
      return id(s.get(v.var()));
    }
    throw new IllegalArgumentException("not a row value: " + e);
  }

  private static Object orderValue(QueryModel q, Expr e, Map<String, Object> s) {
    if (e instanceof Alias a) {
      for (Projection p : q.returns()) {
        if (a.name().equals(p.alias())) {
          return value(p.expr(), s);
        }
      }
      throw new IllegalArgumentException("no alias " + a.name());
    }
    return value(e, s);
  }

  static boolean compareOp(String op, Object l, Object r) {
    if (l == null || r == null) {
      return false;
    }
    return switch (op) {
      case "=" -> valueEquals(l, r);
      case "!=" -> !valueEquals(l, r);
      case "<" -> compare(l, r) < 0;
      case "<=" -> compare(l, r) <= 0;
      case ">" -> compare(l, r) > 0;
      case ">=" -> compare(l, r) >= 0;
      case "contains" -> l instanceof List<?> list ? member(list, r) : ((String) l).contains((String) r);
      case "starts_with" -> ((String) l).startsWith((String) r);
      default -> throw new IllegalArgumentException(op);
    };
  }

  private static boolean member(List<?> list, Object v) {
    if (v == null) {
      return false;
    }
    for (Object x : list) {
      if (x != null && valueEquals(x, v)) {
        return true;
      }
    }
    return false;
  }

  static boolean valueEquals(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    return a.equals(b);
  }

  /** Compares two non-null values of one comparable kind (numbers by value). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a instanceof String || a instanceof Boolean || a instanceof LocalDate || a instanceof Instant) {
      return ((Comparable) a).compareTo(b);
    }
    throw new IllegalArgumentException("not comparable: " + a);
  }

  /** Nulls first ascending, last descending. */
  static int compareNullable(Object a, Object b, boolean desc) {
    if (a == null && b == null) {
      return 0;
    }
    if (a == null) {
      return desc ? 1 : -1;
    }
    if (b == null) {
      return desc ? -1 : 1;
    }
    return desc ? -compare(a, b) : compare(a, b);
  }

  /** A group-key form where numbers of equal value are equal. */
  private static Object canonical(Object v) {
    return v instanceof Number n ? (Object) n.doubleValue() : v;
  }
}
