package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.Binding;
import io.omnigraph.engine.gq.QueryAst.Clause;
import io.omnigraph.engine.gq.QueryAst.Expr;
import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryAst.PropMatch;
import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import io.omnigraph.engine.gq.QueryAst.ReadBody;
import io.omnigraph.engine.gq.QueryAst.Traversal;
import io.omnigraph.engine.gq.QueryException.Code;
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
 * accesses and variables (T6), filter operand types (T7), aggregates (T8, T9), negations that
 * reference no outer variable (T9), {@code nearest} (T15, T17, T18), search functions (T19, T20),
 * {@code rrf} (T21), edge variables projected bare or searched (T23) and Blob values read (T24).
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
    clauses(body.match(), false);
    Map<String, String> outer = new LinkedHashMap<>();
    nodeVars.forEach((k, v) -> outer.put(k, v.name()));
    Map<String, Typed> aliases = new LinkedHashMap<>();
    boolean anyAggregate = body.projections().stream()
        .anyMatch(p -> p.expr() instanceof QueryAst.Call c && c.function().isAggregate());
    for (QueryAst.Projection p : body.projections()) {
      Typed t = expr(p.expr(), aliases);
      if (t.edgeVar()) {
        throw new QueryException(Code.T23, p.expr().pos(), "an edge variable cannot be projected bare; project its properties ($w.prop)");
      }
      if (t.isBlob()) {
        throw new QueryException(Code.T24, p.expr().pos(), "Blob values cannot be returned");
      }
      boolean isAggregate = p.expr() instanceof QueryAst.Call c && c.function().isAggregate();
      if (anyAggregate && !isAggregate && !(p.expr() instanceof QueryAst.PropAccess) && !(p.expr() instanceof QueryAst.VarRef)) {
        throw new QueryException(Code.T9, p.expr().pos(),
            "with aggregates, every other projection must be a property access or a variable (a group key)");
      }
      if (p.alias().isPresent()) {
        aliases.put(p.alias().get(), t);
      }
    }
    boolean nearest = false;
    boolean aliasOrdering = false;
    boolean rrf = false;
    for (QueryAst.Ordering o : body.orderings()) {
      Typed t = expr(o.expr(), aliases);
      if (t.isBlob()) {
        throw new QueryException(Code.T24, o.pos(), "Blob values cannot be ordered by");
      }
      nearest |= o.expr() instanceof QueryAst.Call c && c.function() == QueryAst.Function.NEAREST;
      rrf |= o.expr() instanceof QueryAst.Call c && c.function() == QueryAst.Function.RRF;
      aliasOrdering |= o.expr() instanceof QueryAst.AliasRef;
    }
    if (nearest && body.limit().isEmpty()) {
      throw new QueryException(Code.T17, body.orderings().get(0).pos(), "ordering by nearest(...) requires a limit");
    }
    if (rrf && body.limit().isEmpty()) {
      throw new QueryException(Code.T21, body.orderings().get(0).pos(), "ordering by rrf(...) requires a limit");
    }
    if (nearest && aliasOrdering) {
      throw new QueryException(Code.T18, body.orderings().get(0).pos(), "alias orderings cannot be combined with nearest(...)");
    }
    return new CheckedRead(decl, outer);
  }

  /**
   * The static type of an expression: a property type (with nullability), a node or edge
   * variable, or unknown (alias of an aggregate, now()).
   */
  private record Typed(PropertyType type, boolean nodeVar, boolean edgeVar) {
    static final Typed UNKNOWN = new Typed(null, false, false);

    static Typed of(PropertyType t) {
      return new Typed(t, false, false);
    }

    static Typed scalar(ScalarKind k) {
      return of(new PropertyType.Scalar(k));
    }

    ScalarKind kind() {
      if (type instanceof PropertyType.Scalar s) {
        return s.kind();
      }
      return type instanceof PropertyType.EnumOf ? ScalarKind.STRING : null;
    }

    boolean isBlob() {
      return kind() == ScalarKind.BLOB;
    }

    boolean isString() {
      return kind() == ScalarKind.STRING;
    }

    String describe() {
      return nodeVar ? "a node variable" : edgeVar ? "an edge variable" : type == null ? "a value" : type.spelling();
    }
  }

  private void clauses(List<Clause> clauses, boolean inNegation) throws QueryException {
    for (Clause c : clauses) {
      if (c instanceof Binding b) {
        binding(b);
      }
    }
    for (Clause c : clauses) {
      if (c instanceof Traversal t) {
        traversal(t);
      } else if (c instanceof QueryAst.Filter f) {
        filter(f);
      } else if (c instanceof QueryAst.TextSearch s) {
        expr(s.call(), Map.of());
      } else if (c instanceof QueryAst.Negation n) {
        Set<String> outerVars = new HashSet<>(nodeVars.keySet());
        if (!mentionsAny(n.clauses(), outerVars)) {
          throw new QueryException(Code.T9, n.pos(), "not { ... } must reference at least one variable bound outside it");
        }
        Map<String, NodeType> saved = new LinkedHashMap<>(nodeVars);
        Map<String, EdgeType> savedEdges = new LinkedHashMap<>(edgeVars);
        clauses(n.clauses(), true);
        nodeVars.clear();
        nodeVars.putAll(saved);
        edgeVars.clear();
        edgeVars.putAll(savedEdges);
      }
    }
  }

  private static boolean mentionsAny(List<Clause> clauses, Set<String> vars) {
    for (Clause c : clauses) {
      if (c instanceof Binding b && vars.contains(b.variable())) {
        return true;
      }
      if (c instanceof Traversal t && (vars.contains(t.source()) || vars.contains(t.target()))) {
        return true;
      }
      if (c instanceof QueryAst.Filter f && (mentions(f.left(), vars) || mentions(f.right(), vars))) {
        return true;
      }
      if (c instanceof QueryAst.TextSearch s && mentions(s.call(), vars)) {
        return true;
      }
      if (c instanceof QueryAst.Negation n && mentionsAny(n.clauses(), vars)) {
        return true;
      }
    }
    return false;
  }

  private static boolean mentions(Expr e, Set<String> vars) {
    if (e instanceof QueryAst.PropAccess pa) {
      return vars.contains(pa.variable());
    }
    if (e instanceof QueryAst.VarRef v) {
      return vars.contains(v.name());
    }
    if (e instanceof QueryAst.Call c) {
      return c.args().stream().anyMatch(a -> mentions(a, vars));
    }
    return false;
  }

  private void filter(QueryAst.Filter f) throws QueryException {
    Typed l = expr(f.left(), Map.of());
    Typed r = expr(f.right(), Map.of());
    switch (f.op()) {
      case CONTAINS -> {
        if (l.type() instanceof PropertyType.ListOf list) {
          if (r.type() != null && (r.kind() == null || !comparable(list.item(), r.kind()))) {
            throw new QueryException(Code.T7, f.pos(), "contains on a " + list.spelling() + " needs a " + list.item().spelling() + " on the right, got " + r.describe());
          }
        } else if (!(l.isString() && (r.type() == null || r.isString()))) {
          throw new QueryException(Code.T7, f.pos(), "contains needs a list or a String on the left and a matching value on the right, got "
              + l.describe() + " and " + r.describe());
        }
      }
      case STARTS_WITH -> {
        if (!l.isString() || !(r.type() == null || r.isString())) {
          throw new QueryException(Code.T7, f.pos(), "starts_with needs String operands, got " + l.describe() + " and " + r.describe());
        }
      }
      default -> {
        if (l.nodeVar() || r.nodeVar() || l.edgeVar() || r.edgeVar()) {
          if (!(l.nodeVar() && r.nodeVar())) {
            throw new QueryException(Code.T7, f.pos(), "cannot compare " + l.describe() + " with " + r.describe());
          }
          return;
        }
        for (Typed t : List.of(l, r)) {
          if (t.type() != null && (t.kind() == null || t.isBlob())) {
            throw new QueryException(Code.T7, f.pos(), "cannot compare " + t.describe() + " values with " + f.op().symbol());
          }
        }
        if (l.kind() != null && r.kind() != null && !comparable(l.kind(), r.kind())) {
          throw new QueryException(Code.T7, f.pos(), "cannot compare " + l.describe() + " with " + r.describe());
        }
      }
    }
  }

  private static boolean comparable(ScalarKind a, ScalarKind b) {
    return a == b || (a.isNumeric() && b.isNumeric());
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
        // A scalar against a list property means membership: the row matches when the list holds it.
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

  private Typed expr(Expr e, Map<String, Typed> aliases) throws QueryException {
    if (e instanceof QueryAst.PropAccess pa) {
      NodeType n = nodeVars.get(pa.variable());
      if (n != null) {
        if (pa.property().equals("id")) {
          return Typed.scalar(ScalarKind.STRING);
        }
        return Typed.of(n.property(pa.property()).orElseThrow(() -> new QueryException(Code.T6, pa.pos(),
            "node type " + n.name() + " ($" + pa.variable() + ") has no property '" + pa.property() + "'")).type());
      }
      EdgeType ed = edgeVars.get(pa.variable());
      if (ed != null) {
        if (List.of("id", "src", "dst").contains(pa.property())) {
          return Typed.scalar(ScalarKind.STRING);
        }
        return Typed.of(ed.property(pa.property()).orElseThrow(() -> new QueryException(Code.T6, pa.pos(),
            "edge type " + ed.name() + " ($" + pa.variable() + ") has no property '" + pa.property() + "'")).type());
      }
      throw new QueryException(Code.T6, pa.pos(), "unbound variable '$" + pa.variable() + "'");
    }
    if (e instanceof QueryAst.VarRef v) {
      if (nodeVars.containsKey(v.name())) {
        return new Typed(null, true, false);
      }
      if (edgeVars.containsKey(v.name())) {
        return new Typed(null, false, true);
      }
      ParamDecl p = params.get(v.name());
      if (p == null) {
        throw new QueryException(Code.T6, v.pos(), "unbound variable '$" + v.name() + "' (not a binding and not a declared parameter)");
      }
      return Typed.of(p.type());
    }
    if (e instanceof QueryAst.AliasRef a) {
      Typed t = aliases.get(a.name());
      if (t == null) {
        throw new QueryException(Code.T6, a.pos(), "unknown alias '" + a.name() + "'");
      }
      return t;
    }
    if (e instanceof QueryAst.LiteralExpr lit) {
      return literalType(lit.literal());
    }
    if (e instanceof QueryAst.NowExpr) {
      return Typed.scalar(ScalarKind.DATE_TIME);
    }
    QueryAst.Call c = (QueryAst.Call) e;
    List<Typed> args = new java.util.ArrayList<>();
    for (Expr arg : c.args()) {
      args.add(expr(arg, aliases));
    }
    return call(c, args);
  }

  private static Typed literalType(QueryAst.Literal l) {
    if (l instanceof QueryAst.StringLit) {
      return Typed.scalar(ScalarKind.STRING);
    }
    if (l instanceof QueryAst.IntLit) {
      return Typed.scalar(ScalarKind.I64);
    }
    if (l instanceof QueryAst.FloatLit) {
      return Typed.scalar(ScalarKind.F64);
    }
    if (l instanceof QueryAst.BoolLit) {
      return Typed.scalar(ScalarKind.BOOL);
    }
    if (l instanceof QueryAst.DateLit) {
      return Typed.scalar(ScalarKind.DATE);
    }
    if (l instanceof QueryAst.DateTimeLit) {
      return Typed.scalar(ScalarKind.DATE_TIME);
    }
    return Typed.UNKNOWN; // list literal: element types are checked where the list is used
  }

  private Typed call(QueryAst.Call c, List<Typed> args) throws QueryException {
    QueryAst.Function f = c.function();
    switch (f) {
      case COUNT -> {
        arity(c, 1, 1, Code.T8);
        return Typed.scalar(ScalarKind.I64);
      }
      case SUM, AVG -> {
        arity(c, 1, 1, Code.T8);
        if (args.get(0).kind() == null || !args.get(0).kind().isNumeric()) {
          throw new QueryException(Code.T8, c.pos(), f.spelling() + "(...) needs a numeric argument, got " + args.get(0).describe());
        }
        return Typed.scalar(ScalarKind.F64);
      }
      case MIN, MAX -> {
        arity(c, 1, 1, Code.T8);
        ScalarKind k = args.get(0).kind();
        if (k == null || !(k.isNumeric() || k == ScalarKind.STRING)) {
          throw new QueryException(Code.T8, c.pos(), f.spelling() + "(...) needs a numeric or String argument, got " + args.get(0).describe());
        }
        return args.get(0);
      }
      case SEARCH, FUZZY, MATCH_TEXT, BM25 -> {
        Code code = f == QueryAst.Function.SEARCH || f == QueryAst.Function.FUZZY ? Code.T19 : Code.T20;
        arity(c, 2, f == QueryAst.Function.FUZZY ? 3 : 2, code);
        if (c.args().get(0) instanceof QueryAst.PropAccess pa && edgeVars.containsKey(pa.variable())) {
          throw new QueryException(Code.T23, c.pos(), f.spelling() + "(...) cannot search an edge property");
        }
        if (!args.get(0).isString() || !(args.get(1).type() == null || args.get(1).isString())) {
          throw new QueryException(code, c.pos(), f.spelling() + "(...) needs a String property and a String query, got "
              + args.get(0).describe() + " and " + args.get(1).describe());
        }
        if (args.size() == 3 && !(c.args().get(2) instanceof QueryAst.LiteralExpr l && l.literal() instanceof QueryAst.IntLit)) {
          throw new QueryException(code, c.pos(), "fuzzy(...)'s third argument (max edits) must be an integer literal");
        }
        return Typed.scalar(f == QueryAst.Function.BM25 ? ScalarKind.F64 : ScalarKind.BOOL);
      }
      case NEAREST -> {
        arity(c, 2, 2, Code.T15);
        if (!(c.args().get(0) instanceof QueryAst.PropAccess) || !(args.get(0).type() instanceof PropertyType.VectorOf v)) {
          throw new QueryException(Code.T15, c.pos(), "nearest(...) needs a Vector property as its first argument, got " + args.get(0).describe());
        }
        Typed q = args.get(1);
        boolean ok = q.isString()
            || (q.type() instanceof PropertyType.VectorOf qv && qv.dimension() == v.dimension())
            || (c.args().get(1) instanceof QueryAst.LiteralExpr l && l.literal() instanceof QueryAst.ListLit list
                && list.items().size() == v.dimension()
                && list.items().stream().allMatch(i -> i instanceof QueryAst.IntLit || i instanceof QueryAst.FloatLit));
        if (!ok) {
          throw new QueryException(Code.T15, c.pos(), "nearest(...) on " + v.spelling() + " needs a " + v.spelling()
              + " parameter, a numeric list literal of " + v.dimension() + " values, or a String, got " + q.describe());
        }
        return Typed.scalar(ScalarKind.F64);
      }
      case RRF -> {
        arity(c, 2, 3, Code.T21);
        for (int i = 0; i < 2; i++) {
          if (!(c.args().get(i) instanceof QueryAst.Call arm
              && (arm.function() == QueryAst.Function.NEAREST || arm.function() == QueryAst.Function.BM25))) {
            throw new QueryException(Code.T21, c.args().get(i).pos(), "rrf(...) arguments must be nearest(...) or bm25(...)");
          }
        }
        if (c.args().size() == 3 && !(c.args().get(2) instanceof QueryAst.LiteralExpr l && l.literal() instanceof QueryAst.IntLit k
            && k.value().signum() > 0)) {
          throw new QueryException(Code.T21, c.args().get(2).pos(), "rrf(...)'s k must be an integer greater than 0");
        }
        return Typed.scalar(ScalarKind.F64);
      }
      default -> throw new IllegalStateException("unhandled function " + f);
    }
  }

  private static void arity(QueryAst.Call c, int min, int max, Code code) throws QueryException {
    int n = c.args().size();
    if (n < min || n > max) {
      throw new QueryException(code, c.pos(), c.function().spelling() + "(...) takes "
          + (min == max ? Integer.toString(min) : min + " to " + max) + " argument" + (max == 1 ? "" : "s") + ", got " + n);
    }
  }
}
