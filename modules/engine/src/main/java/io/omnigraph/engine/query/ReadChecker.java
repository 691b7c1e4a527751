package io.omnigraph.engine.query;

import io.omnigraph.engine.query.QueryAst.Binding;
import io.omnigraph.engine.query.QueryAst.Clause;
import io.omnigraph.engine.query.QueryAst.Expr;
import io.omnigraph.engine.query.QueryAst.ParamDecl;
import io.omnigraph.engine.query.QueryAst.PropMatch;
import io.omnigraph.engine.query.QueryAst.QueryDecl;
import io.omnigraph.engine.query.QueryAst.ReadBody;
import io.omnigraph.engine.query.QueryAst.Traversal;
import io.omnigraph.engine.query.QueryException.Code;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Type-checks the structural rules of read queries: node bindings (T1, T2, T3 for literal prop
 * matches, rebinding), traversals (T4, T5, T15 hop bounds, T22, T23 edge-binding reuse), property
 * accesses and variables in filters, projections and orderings (T6), and ordering by {@code
 * nearest} without {@code limit} (T17). Operand typing of filters and aggregates (T7–T9, T18–T21,
 * T24) is not checked yet.
 */
final class ReadChecker {
  private final Catalog catalog;
  private final QueryDecl decl;
  private final Map<String, ParamDecl> params = new LinkedHashMap<>();
  private final Map<String, NodeType> nodeVars = new LinkedHashMap<>();
  private final Map<String, EdgeType> edgeVars = new LinkedHashMap<>();

  private ReadChecker(Catalog catalog, QueryDecl decl) {
    this.catalog = catalog;
    this.decl = decl;
    decl.params().forEach(p -> params.put(p.name(), p));
  }

  static CheckedRead check(Catalog catalog, QueryDecl decl) throws QueryException {
    return new ReadChecker(catalog, decl).run();
  }

  private CheckedRead run() throws QueryException {
    ReadBody body = (ReadBody) decl.body();
    clauses(body.match());
    Map<String, String> outer = new LinkedHashMap<>();
    nodeVars.forEach((k, v) -> outer.put(k, v.name()));
    Set<String> aliases = new HashSet<>();
    for (QueryAst.Projection p : body.projections()) {
      expr(p.expr(), aliases);
      p.alias().ifPresent(aliases::add);
    }
    boolean nearest = false;
    for (QueryAst.Ordering o : body.orderings()) {
      expr(o.expr(), aliases);
      nearest |= o.expr() instanceof QueryAst.Call c && c.function() == QueryAst.Function.NEAREST;
    }
    if (nearest && body.limit().isEmpty()) {
      throw new QueryException(Code.T17, body.orderings().get(0).pos(), "ordering by nearest(...) requires a limit");
    }
    return new CheckedRead(decl, outer);
  }

  private void clauses(List<Clause> clauses) throws QueryException {
    for (Clause c : clauses) {
      if (c instanceof Binding b) {
        binding(b);
      }
    }
    for (Clause c : clauses) {
      if (c instanceof Traversal t) {
        traversal(t);
      } else if (c instanceof QueryAst.Filter f) {
        expr(f.left(), Set.of());
        expr(f.right(), Set.of());
      } else if (c instanceof QueryAst.TextSearch s) {
        expr(s.call(), Set.of());
      } else if (c instanceof QueryAst.Negation n) {
        Map<String, NodeType> saved = new LinkedHashMap<>(nodeVars);
        Map<String, EdgeType> savedEdges = new LinkedHashMap<>(edgeVars);
        clauses(n.clauses());
        nodeVars.clear();
        nodeVars.putAll(saved);
        edgeVars.clear();
        edgeVars.putAll(savedEdges);
      }
    }
  }

  private void binding(Binding b) throws QueryException {
    NodeType type = catalog.node(b.typeName()).orElseThrow(() -> new QueryException(Code.T1, b.typePos(),
        "unknown node type '" + b.typeName() + "'"));
    NodeType prior = nodeVars.get(b.variable());
    if (prior != null && !prior.name().equals(type.name())) {
      throw new QueryException(Code.BINDING, b.pos(),
          "variable '$" + b.variable() + "' is bound to " + prior.name() + " and cannot be rebound to " + type.name());
    }
    nodeVars.put(b.variable(), type);
    for (PropMatch m : b.matches()) {
      Property p = type.property(m.property()).orElseThrow(() -> new QueryException(Code.T2, m.pos(),
          "node type " + type.name() + " has no property '" + m.property() + "'"));
      if (p.type() instanceof PropertyType.Scalar s && s.kind() == ScalarKind.BLOB) {
        throw new QueryException(Code.T3, m.pos(), "Blob property '" + p.name() + "' cannot be matched");
      }
      if (m.value() instanceof QueryAst.LiteralValue lit) {
        // A scalar against a list property means membership (language.md §2.4).
        ColumnRef col = p.type() instanceof PropertyType.ListOf l && !(lit.literal() instanceof QueryAst.ListLit)
            ? new ColumnRef(p.name(), new PropertyType.Scalar(l.item()), true)
            : ColumnRef.of(p);
        if (p.type() instanceof PropertyType.ListOf && lit.literal() instanceof QueryAst.ListLit) {
          throw new QueryException(Code.T3, m.pos(), "list equality is not supported for '" + p.name() + "'; match one member");
        }
        Coercions.literal(lit.literal(), col, type.name() + "." + p.name());
      }
    }
  }

  private void traversal(Traversal t) throws QueryException {
    EdgeType edge = catalog.edgeIgnoreCase(t.edgeName()).orElseThrow(() -> new QueryException(Code.T4, t.edgePos(),
        "unknown edge '" + t.edgeName() + "'"));
    if (t.maxHops().isEmpty()) {
      throw new QueryException(Code.T15, t.edgePos(), "unbounded traversal is disabled; give a maximum hop count {min,max}");
    }
    BigInteger min = t.minHops();
    BigInteger max = t.maxHops().get();
    if (min.signum() == 0) {
      throw new QueryException(Code.T15, t.edgePos(), "minimum hop count must be at least 1");
    }
    if (max.compareTo(min) < 0) {
      throw new QueryException(Code.T15, t.edgePos(), "maximum hop count " + max + " is below the minimum " + min);
    }
    if (t.undirected() && !edge.fromType().equals(edge.toType())) {
      throw new QueryException(Code.T22, t.edgePos(),
          "undirected traversal <" + t.edgeName() + "> needs an edge whose endpoints have one type; " + edge.name() + " is " + edge.fromType() + " -> " + edge.toType());
    }
    if (t.edgeVariable().isPresent()) {
      String ev = t.edgeVariable().get();
      if (!max.equals(BigInteger.ONE) || !min.equals(BigInteger.ONE)) {
        throw new QueryException(Code.T23, t.edgePos(), "edge variable '$" + ev + "' is only allowed on a single-hop traversal");
      }
      if (ev.equals(t.source()) || ev.equals(t.target()) || nodeVars.containsKey(ev) || edgeVars.containsKey(ev)) {
        throw new QueryException(Code.T23, t.pos(), "edge variable '$" + ev + "' must be a fresh name");
      }
      edgeVars.put(ev, edge);
    }
    if (edgeVars.containsKey(t.source()) || edgeVars.containsKey(t.target())) {
      throw new QueryException(Code.T23, t.pos(), "an edge variable cannot be a traversal endpoint");
    }
    NodeType src = nodeVars.get(t.source());
    NodeType dst = nodeVars.get(t.target());
    boolean forward = (src == null || src.name().equals(edge.fromType())) && (dst == null || dst.name().equals(edge.toType()));
    boolean backward = (src == null || src.name().equals(edge.toType())) && (dst == null || dst.name().equals(edge.fromType()));
    if (!forward && !backward) {
      throw new QueryException(Code.T5, t.pos(),
          "edge " + edge.name() + " connects " + edge.fromType() + " -> " + edge.toType() + ", but $" + t.source() + " is "
              + (src == null ? "unbound" : src.name()) + " and $" + t.target() + " is " + (dst == null ? "unbound" : dst.name()));
    }
    if (t.source().equals("_") || t.target().equals("_")) {
      return;
    }
    boolean out = forward && (src != null || !backward || dst == null);
    nodeVars.putIfAbsent(t.source(), catalog.node(out ? edge.fromType() : edge.toType()).orElseThrow());
    nodeVars.putIfAbsent(t.target(), catalog.node(out ? edge.toType() : edge.fromType()).orElseThrow());
  }

  private void expr(Expr e, Set<String> aliases) throws QueryException {
    if (e instanceof QueryAst.PropAccess pa) {
      NodeType n = nodeVars.get(pa.variable());
      if (n != null) {
        if (n.property(pa.property()).isEmpty() && !pa.property().equals("id")) {
          throw new QueryException(Code.T6, pa.pos(), "node type " + n.name() + " ($" + pa.variable() + ") has no property '" + pa.property() + "'");
        }
        return;
      }
      EdgeType ed = edgeVars.get(pa.variable());
      if (ed != null) {
        if (ed.property(pa.property()).isEmpty() && !List.of("id", "src", "dst").contains(pa.property())) {
          throw new QueryException(Code.T6, pa.pos(), "edge type " + ed.name() + " ($" + pa.variable() + ") has no property '" + pa.property() + "'");
        }
        return;
      }
      throw new QueryException(Code.T6, pa.pos(), "unbound variable '$" + pa.variable() + "'");
    }
    if (e instanceof QueryAst.VarRef v) {
      if (!nodeVars.containsKey(v.name()) && !edgeVars.containsKey(v.name()) && !params.containsKey(v.name())) {
        throw new QueryException(Code.T6, v.pos(), "unbound variable '$" + v.name() + "' (not a binding and not a declared parameter)");
      }
      return;
    }
    if (e instanceof QueryAst.AliasRef a) {
      if (!aliases.contains(a.name())) {
        throw new QueryException(Code.T6, a.pos(), "unknown alias '" + a.name() + "'");
      }
      return;
    }
    if (e instanceof QueryAst.Call c) {
      for (Expr arg : c.args()) {
        expr(arg, aliases);
      }
    }
  }
}
