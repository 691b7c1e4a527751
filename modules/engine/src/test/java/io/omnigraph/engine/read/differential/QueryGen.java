package io.omnigraph.engine.read.differential;

import io.omnigraph.engine.read.differential.GraphModel.EdgeType;
import io.omnigraph.engine.read.differential.GraphModel.Kind;
import io.omnigraph.engine.read.differential.GraphModel.NodeType;
import io.omnigraph.engine.read.differential.GraphModel.Prop;
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
import io.omnigraph.engine.read.differential.QueryModel.ParamDecl;
import io.omnigraph.engine.read.differential.QueryModel.Projection;
import io.omnigraph.engine.read.differential.QueryModel.PropMatch;
import io.omnigraph.engine.read.differential.QueryModel.Traversal;
import io.omnigraph.engine.read.differential.QueryModel.Var;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random well-typed read queries over a {@link GraphModel}'s schema: one to two node bindings with
 * property matches, zero to three traversals (bounded hops, undirected same-type edges, edge
 * variables, fresh or already bound destinations), filters against literals, parameters (null
 * ones too) and other variables' properties, a negation, plain or aggregate projections, and
 * orderings with limits.
 */
final class QueryGen {
  private record V(boolean edge, String type) {}

  private final Random r;
  private final GraphModel g;
  private final Map<String, V> scope = new LinkedHashMap<>();
  private final List<ParamDecl> params = new ArrayList<>();
  private final Map<String, Object> paramValues = new LinkedHashMap<>();
  private int fresh;

  private QueryGen(Random r, GraphModel g) {
    this.r = r;
    this.g = g;
  }

  static QueryModel generate(Random r, GraphModel g) {
    return new QueryGen(r, g).query();
  }

  private QueryModel query() {
    List<Clause> clauses = new ArrayList<>();
    clauses.add(binding("v" + fresh++, pick(g.nodeTypes()).name()));
    if (r.nextInt(6) == 0) {
      clauses.add(binding("v" + fresh++, pick(g.nodeTypes()).name()));
    }
    int traversals = r.nextInt(4);
    for (int i = 0; i < traversals; i++) {
      traversal(clauses);
    }
    int filters = r.nextInt(3);
    for (int i = 0; i < filters; i++) {
      Filter f = filter(nodeAndEdgeVars(), List.copyOf(scope.keySet()));
      if (f != null) {
        clauses.add(f);
      }
    }
    if (r.nextInt(10) < 3) {
      Not n = negation();
      if (n != null) {
        clauses.add(n);
      }
    }
    List<Projection> returns = new ArrayList<>();
    List<Ordering> order = new ArrayList<>();
    Integer limit = null;
    if (r.nextInt(10) < 3) {
      aggregateReturn(returns);
      if (r.nextBoolean()) {
        List<Projection> keys = new ArrayList<>(returns);
        java.util.Collections.shuffle(keys, r);
        int n = 1 + r.nextInt(keys.size());
        for (int i = 0; i < n; i++) {
          order.add(new Ordering(new Alias(keys.get(i).alias()), r.nextBoolean()));
        }
        if (n == keys.size() && r.nextBoolean()) {
          limit = 1 + r.nextInt(5);
        }
      }
    } else {
      plainReturn(returns);
      if (r.nextBoolean()) {
        int n = 1 + r.nextInt(2);
        for (int i = 0; i < n; i++) {
          Ordering o = ordering(returns);
          if (o != null) {
            order.add(o);
          }
        }
        if (!order.isEmpty() && r.nextBoolean()) {
          limit = 1 + r.nextInt(6);
        }
      }
    }
    return new QueryModel(params, clauses, returns, order, limit, paramValues);
  }

  // ---- match ----

  private Binding binding(String var, String type) {
    scope.put(var, new V(false, type));
    List<PropMatch> matches = new ArrayList<>();
    if (r.nextInt(10) < 3) {
      NodeType t = g.nodeType(type);
      Prop p = pick(t.props());
      matches.add(new PropMatch(p.name(), valueOperand(p.kind().element())));
    }
    return new Binding(var, type, matches);
  }

  private void traversal(List<Clause> clauses) {
    List<String> nodeVars = nodeVars();
    String left = pick(nodeVars);
    String leftType = scope.get(left).type();
    List<EdgeType> candidates = g.edgeTypes().stream()
        .filter(e -> e.from().equals(leftType) || e.to().equals(leftType)).toList();
    if (candidates.isEmpty()) {
      return;
    }
    EdgeType e = pick(candidates);
    String rightType = e.from().equals(leftType) ? e.to() : e.from();
    boolean undirected = e.sameType() && r.nextInt(4) == 0;
    String edgeVar = r.nextInt(4) == 0 ? "w" + fresh++ : null;
    Integer min = null;
    Integer max = null;
    if (edgeVar == null && r.nextBoolean()) {
      if (e.sameType()) {
        min = 1 + r.nextInt(2);
        max = min + r.nextInt(3);
      } else {
        min = r.nextInt(5) == 0 ? 2 : 1;
        max = min + r.nextInt(2);
      }
    }
    String right;
    List<String> sameTyped = nodeVars.stream().filter(v -> scope.get(v).type().equals(rightType)).toList();
    boolean declareAfter = false;
    if (!sameTyped.isEmpty() && r.nextInt(10) < 3) {
      right = pick(sameTyped);
    } else {
      right = "v" + fresh++;
      declareAfter = r.nextBoolean();
    }
    clauses.add(new Traversal(left, edgeVar, e.queryName(), undirected, min, max, right));
    scope.putIfAbsent(right, new V(false, rightType));
    if (edgeVar != null) {
      scope.put(edgeVar, new V(true, e.name()));
    }
    if (declareAfter) {
      clauses.add(binding(right, rightType));
    }
  }

  /** A filter on a property of one of {@code vars}, or null when none has properties. */
  private Filter filter(List<String> vars, List<String> others) {
    List<String> withProps = vars.stream().filter(v -> !props(v).isEmpty()).toList();
    if (withProps.isEmpty()) {
      return null;
    }
    String var = pick(withProps);
    Prop p = pick(props(var));
    QueryModel.Prop left = new QueryModel.Prop(var, p.name());
    Kind k = p.kind();
    if (k.list()) {
      return new Filter(left, "contains", valueOperand(k.element()));
    }
    String op;
    if (k == Kind.BOOL || k == Kind.ENUM) {
      op = r.nextBoolean() ? "=" : "!=";
    } else if (k == Kind.STRING) {
      op = pick(List.of("=", "!=", "<", ">=", "contains", "contains", "starts_with", "starts_with"));
    } else {
      op = pick(List.of("=", "!=", "<", "<=", ">", ">="));
    }
    if (!op.equals("contains") && !op.equals("starts_with") && r.nextInt(6) == 0) {
      // Compare with another variable's property of a compatible kind.
      List<QueryModel.Prop> compatible = new ArrayList<>();
      for (String o : others) {
        if (o.equals(var)) {
          continue;
        }
        for (Prop q : props(o)) {
          boolean fits = k.numeric() ? q.kind().numeric() : q.kind() == k;
          if (fits) {
            compatible.add(new QueryModel.Prop(o, q.name()));
          }
        }
      }
      if (!compatible.isEmpty()) {
        return new Filter(left, op, pick(compatible));
      }
    }
    return new Filter(left, op, valueOperand(k));
  }

  private Not negation() {
    List<String> nodeVars = nodeVars();
    String outer = pick(nodeVars);
    String type = scope.get(outer).type();
    int shape = r.nextInt(4);
    if (shape == 3) {
      Filter f = filter(List.of(outer), List.of());
      return f == null ? null : new Not(List.of(f));
    }
    List<EdgeType> candidates = g.edgeTypes().stream()
        .filter(e -> e.from().equals(type) || e.to().equals(type)).toList();
    if (candidates.isEmpty()) {
      return null;
    }
    EdgeType e = pick(candidates);
    boolean outerIsSource = e.from().equals(type);
    String otherType = outerIsSource ? e.to() : e.from();
    Integer min = null;
    Integer max = null;
    if (e.sameType() && r.nextInt(4) == 0) {
      min = 1;
      max = 1 + r.nextInt(3);
    }
    boolean undirected = e.sameType() && r.nextInt(5) == 0;
    if (shape == 0) {
      // Anonymous other end; an anonymous left end must be the edge's source.
      if (e.to().equals(type) && (r.nextBoolean() || !outerIsSource)) {
        return new Not(List.of(new Traversal("_", null, e.queryName(), undirected, min, max, outer)));
      }
      return new Not(List.of(new Traversal(outer, null, e.queryName(), undirected, min, max, "_")));
    }
    if (shape == 1) {
      List<String> outers = nodeVars.stream().filter(v -> scope.get(v).type().equals(otherType)).toList();
      if (!outers.isEmpty()) {
        return new Not(List.of(new Traversal(outer, null, e.queryName(), undirected, min, max, pick(outers))));
      }
    }
    // A local variable, constrained by a property match or a filter.
    String local = "l" + fresh++;
    List<Clause> inner = new ArrayList<>();
    inner.add(new Traversal(outer, null, e.queryName(), undirected, min, max, local));
    Map<String, V> saved = new LinkedHashMap<>(scope);
    scope.put(local, new V(false, otherType));
    if (r.nextBoolean()) {
      inner.add(binding(local, otherType));
    } else {
      Filter f = filter(List.of(local), List.of());
      if (f != null) {
        inner.add(f);
      }
    }
    scope.clear();
    scope.putAll(saved);
    return new Not(inner);
  }

  // ---- return / order ----

  private void plainReturn(List<Projection> returns) {
    int n = 1 + r.nextInt(3);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Expr e;
      String var = pick(List.copyOf(scope.keySet()));
      if (!scope.get(var).edge() && (props(var).isEmpty() || r.nextInt(4) == 0)) {
        e = new Var(var);
      } else if (props(var).isEmpty()) {
        continue;
      } else {
        e = new QueryModel.Prop(var, pick(props(var)).name());
      }
      String text = QueryModel.render(e);
      if (seen.contains(text)) {
        continue;
      }
      seen.add(text);
      returns.add(new Projection(e, r.nextInt(10) < 3 ? "c" + i : null));
    }
    if (returns.isEmpty()) {
      returns.add(new Projection(new Var(nodeVars().get(0)), null));
    }
  }

  private Ordering ordering(List<Projection> returns) {
    if (r.nextBoolean()) {
      List<Projection> aliased = returns.stream()
          .filter(p -> p.alias() != null && orderable(p.expr())).toList();
      if (!aliased.isEmpty()) {
        return new Ordering(new Alias(pick(aliased).alias()), r.nextBoolean());
      }
    }
    List<QueryModel.Prop> keys = new ArrayList<>();
    for (String v : scope.keySet()) {
      for (Prop p : props(v)) {
        if (!p.kind().list()) {
          keys.add(new QueryModel.Prop(v, p.name()));
        }
      }
    }
    return keys.isEmpty() ? null : new Ordering(pick(keys), r.nextBoolean());
  }

  private boolean orderable(Expr e) {
    return e instanceof QueryModel.Prop p && !propOf(p).kind().list();
  }

  private void aggregateReturn(List<Projection> returns) {
    int keys = r.nextInt(3);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      String var = pick(List.copyOf(scope.keySet()));
      List<Prop> scalar = props(var).stream().filter(p -> !p.kind().list()).toList();
      Expr e;
      if (!scope.get(var).edge() && (scalar.isEmpty() || r.nextInt(3) == 0)) {
        e = new Var(var);
      } else if (scalar.isEmpty()) {
        continue;
      } else {
        e = new QueryModel.Prop(var, pick(scalar).name());
      }
      String text = QueryModel.render(e);
      if (!seen.contains(text)) {
        seen.add(text);
        returns.add(new Projection(e, "g" + i));
      }
    }
    int aggs = 1 + r.nextInt(2);
    for (int i = 0; i < aggs; i++) {
      returns.add(new Projection(aggregate(), "a" + i));
    }
  }

  private Agg aggregate() {
    List<QueryModel.Prop> numeric = new ArrayList<>();
    List<QueryModel.Prop> minMax = new ArrayList<>();
    List<QueryModel.Prop> any = new ArrayList<>();
    for (String v : scope.keySet()) {
      for (Prop p : props(v)) {
        QueryModel.Prop e = new QueryModel.Prop(v, p.name());
        any.add(e);
        if (p.kind().numeric()) {
          numeric.add(e);
          minMax.add(e);
        } else if (p.kind() == Kind.STRING) {
          minMax.add(e);
        }
      }
    }
    int choice = r.nextInt(5);
    if (choice == 1 && !numeric.isEmpty()) {
      return new Agg(r.nextBoolean() ? "sum" : "avg", pick(numeric));
    }
    if (choice == 2 && !minMax.isEmpty()) {
      return new Agg(r.nextBoolean() ? "min" : "max", pick(minMax));
    }
    if (choice == 3 && !any.isEmpty()) {
      return new Agg("count", pick(any));
    }
    return new Agg("count", new Var(pick(nodeVars())));
  }

  // ---- helpers ----

  private Operand valueOperand(Kind k) {
    if (r.nextInt(4) == 0) {
      String name = "p" + params.size();
      boolean nullable = r.nextBoolean();
      params.add(new ParamDecl(name, k, nullable));
      paramValues.put(name, nullable && r.nextInt(3) == 0 ? null : GraphGen.value(r, k, false));
      return new Param(name);
    }
    return new Lit(k, GraphGen.value(r, k, true));
  }

  private List<Prop> props(String var) {
    V v = scope.get(var);
    return v.edge() ? g.edgeType(v.type()).props() : g.nodeType(v.type()).props();
  }

  private Prop propOf(QueryModel.Prop p) {
    V v = scope.get(p.var());
    return v.edge() ? g.edgeType(v.type()).prop(p.prop()) : g.nodeType(v.type()).prop(p.prop());
  }

  private List<String> nodeVars() {
    return scope.entrySet().stream().filter(e -> !e.getValue().edge()).map(Map.Entry::getKey).toList();
  }

  private List<String> nodeAndEdgeVars() {
    return List.copyOf(scope.keySet());
  }

  private <T> T pick(List<T> items) {
    return items.get(r.nextInt(items.size()));
  }
}
