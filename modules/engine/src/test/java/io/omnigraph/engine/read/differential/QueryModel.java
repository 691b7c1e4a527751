package io.omnigraph.engine.read.differential;

import io.omnigraph.engine.read.differential.GraphModel.Kind;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A read query as a small syntax tree: what {@link QueryGen} builds, what {@link NaiveEvaluator}
 * interprets, and what {@link #gq()} renders as {@code .gq} text for the engine. The anonymous
 * variable is written {@code _}.
 */
record QueryModel(List<ParamDecl> params, List<Clause> clauses, List<Projection> returns,
    List<Ordering> order, Integer limit, Map<String, Object> paramValues) {

  static final String NAME = "q";

  /** @return this query with other parameter values (a second execution of the same prepared query) */
  QueryModel withParamValues(Map<String, Object> values) {
    return new QueryModel(params, clauses, returns, order, limit, values);
  }

  record ParamDecl(String name, Kind kind, boolean nullable) {}

  // ---- match clauses ----

  sealed interface Clause permits Binding, Traversal, Filter, Not {}

  /** {@code $var: Type { prop: value, ... }}; each value is a {@link Lit} or a {@link Param}. */
  record Binding(String var, String type, List<PropMatch> matches) implements Clause {}

  record PropMatch(String prop, Operand value) {}

  /**
   * {@code $left [$edgeVar:] edge{min,max} $right} or with {@code <edge>} when undirected.
   *
   * @param edgeVar null when the edge is not bound
   * @param min null for the default single hop (then max is null too)
   */
  record Traversal(String left, String edgeVar, String edge, boolean undirected, Integer min, Integer max,
      String right) implements Clause {}

  /** {@code left op right}; op is one of {@code = != < <= > >= contains starts_with}. */
  record Filter(Operand left, String op, Operand right) implements Clause {}

  record Not(List<Clause> clauses) implements Clause {}

  // ---- operands and expressions ----

  sealed interface Operand permits Prop, Lit, Param {}

  sealed interface Expr permits Prop, Var, Agg, Alias {}

  record Prop(String var, String prop) implements Operand, Expr {}

  /** A literal value of a (scalar) kind; numbers are never negative (the language has no minus). */
  record Lit(Kind kind, Object value) implements Operand {}

  record Param(String name) implements Operand {}

  /** A bare variable (its id). */
  record Var(String var) implements Expr {}

  /** {@code fn(arg)}; fn is one of {@code count sum avg min max}. */
  record Agg(String fn, Expr arg) implements Expr {}

  /** An alias reference (orderings only). */
  record Alias(String name) implements Expr {}

  record Projection(Expr expr, String alias) {
    /** @return the result column name */
    String column() {
      if (alias != null) {
        return alias;
      }
      if (expr instanceof Prop p) {
        return p.var() + "." + p.prop();
      }
      if (expr instanceof Var v) {
        return v.var();
      }
      throw new IllegalStateException("aggregates are always aliased here");
    }
  }

  /** @param expr a {@link Prop} or an {@link Alias} */
  record Ordering(Expr expr, boolean desc) {}

  boolean aggregating() {
    return returns.stream().anyMatch(p -> p.expr() instanceof Agg);
  }

  // ---- rendering ----

  String gq() {
    StringBuilder sb = new StringBuilder("query ").append(NAME).append('(');
    List<String> ps = new ArrayList<>();
    for (ParamDecl p : params) {
      ps.add("$" + p.name() + ": " + p.kind().paramType() + (p.nullable() ? "?" : ""));
    }
    sb.append(String.join(", ", ps)).append(") {\n  match {\n");
    for (Clause c : clauses) {
      sb.append("    ").append(render(c)).append('\n');
    }
    sb.append("  }\n  return { ");
    List<String> rs = new ArrayList<>();
    for (Projection p : returns) {
      rs.add(render(p.expr()) + (p.alias() == null ? "" : " as " + p.alias()));
    }
    sb.append(String.join(", ", rs)).append(" }\n");
    if (!order.isEmpty()) {
      List<String> os = new ArrayList<>();
      for (Ordering o : order) {
        os.add(render(o.expr()) + (o.desc() ? " desc" : " asc"));
      }
      sb.append("  order { ").append(String.join(", ", os)).append(" }\n");
    }
    if (limit != null) {
      sb.append("  limit ").append(limit).append('\n');
    }
    return sb.append("}\n").toString();
  }

  static String render(Clause c) {
    if (c instanceof Binding b) {
      String s = "$" + b.var() + ": " + b.type();
      if (!b.matches().isEmpty()) {
        List<String> ms = new ArrayList<>();
        for (PropMatch m : b.matches()) {
          ms.add(m.prop() + ": " + render(m.value()));
        }
        s += " { " + String.join(", ", ms) + " }";
      }
      return s;
    }
    if (c instanceof Traversal t) {
      String edge = t.undirected() ? "<" + t.edge() + ">" : t.edge();
      String hops = t.min() == null ? "" : "{" + t.min() + "," + t.max() + "}";
      return "$" + t.left() + " " + (t.edgeVar() == null ? "" : "$" + t.edgeVar() + ":") + edge + hops + " $"
          + t.right();
    }
    if (c instanceof Filter f) {
      return render(f.left()) + " " + f.op() + " " + render(f.right());
    }
    Not n = (Not) c;
    List<String> inner = new ArrayList<>();
    for (Clause x : n.clauses()) {
      inner.add(render(x));
    }
    return "not { " + String.join("  ", inner) + " }";
  }

  static String render(Operand o) {
    if (o instanceof Prop p) {
      return "$" + p.var() + "." + p.prop();
    }
    if (o instanceof Param p) {
      return "$" + p.name();
    }
    Lit l = (Lit) o;
    return literal(l.kind(), l.value());
  }

  static String render(Expr e) {
    if (e instanceof Prop p) {
      return "$" + p.var() + "." + p.prop();
    }
    if (e instanceof Var v) {
      return "$" + v.var();
    }
    if (e instanceof Agg a) {
      return a.fn() + "(" + render(a.arg()) + ")";
    }
    return ((Alias) e).name();
  }

  static String literal(Kind kind, Object v) {
    return switch (kind) {
      case STRING, ENUM -> GraphModel.json(v);
      case I32, I64 -> v.toString();
      case F32, F64 -> {
        String s = BigDecimal.valueOf((Double) v).toPlainString();
        yield s.contains(".") ? s : s + ".0";
      }
      case BOOL -> v.toString();
      case DATE -> "date(\"" + (LocalDate) v + "\")";
      case DATETIME -> "datetime(\"" + (Instant) v + "\")";
      default -> throw new IllegalArgumentException("no literal for " + kind);
    };
  }
}
