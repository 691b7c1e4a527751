package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import io.omnigraph.engine.plan.MutationPlan.Mode;
import io.omnigraph.engine.plan.MutationPlan.Statement;
import io.omnigraph.engine.plan.MutationPlan;
import io.omnigraph.engine.plan.ParamBinder;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.SourcePos;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A mutation query that type-checked against a catalog: every statement's target, columns and
 * value types are resolved, and every value is either a converted literal or a typed slot for a
 * parameter or {@code now()}. {@link #bind} fills the slots and yields the {@link MutationPlan}.
 */
public final class CheckedMutation implements CheckedQuery {
  private final QueryDecl decl;
  private final Mode mode;
  private final List<Template> templates;

  CheckedMutation(QueryDecl decl, Mode mode, List<Template> templates) {
    this.decl = Objects.requireNonNull(decl, "decl");
    this.mode = Objects.requireNonNull(mode, "mode");
    this.templates = List.copyOf(templates);
  }

  @Override
  public QueryDecl decl() {
    return decl;
  }

  /** @return constructive (insert/update) or destructive (delete) */
  public Mode mode() {
    return mode;
  }

  /** @return the table keys the statements target (without cascades), in first-touch order */
  public Set<String> targetTables() {
    Set<String> out = new LinkedHashSet<>();
    for (Template t : templates) {
      out.add(t.tableKey());
    }
    return out;
  }

  /**
   * Binds parameter values and produces the plan. Pure: no I/O.
   *
   * @param params values by parameter name (without {@code $}); see {@link ParamBinder} for the
   *     accepted value forms
   * @param now the instant {@code now()} stands for (truncated to milliseconds)
   * @return the executable plan
   * @throws QueryException PARAM_VALUE when a value is missing, undeclared, mistyped, out of
   *     range, not in an enum's set, or null where the target column or key requires a value
   */
  public MutationPlan bind(Map<String, ?> params, Instant now) throws QueryException {
    Map<String, Object> values = ParamBinder.bindValues(decl.params(), params);
    Instant ms = now.truncatedTo(ChronoUnit.MILLIS);
    Resolver r = new Resolver(values, ms.toEpochMilli());
    List<Statement> statements = new java.util.ArrayList<>();
    for (Template t : templates) {
      statements.add(t.bind(r));
    }
    return new MutationPlan(decl.name(), mode, ms, statements);
  }

  /** Resolves slots against bound parameter values. */
  record Resolver(Map<String, Object> params, long nowMillis) {
    Object resolve(Slot slot) throws QueryException {
      if (slot instanceof Slot.Const c) {
        return c.value();
      }
      if (slot instanceof Slot.NowSlot) {
        return nowMillis;
      }
      Slot.ParamSlot p = (Slot.ParamSlot) slot;
      Object v = params.get(p.decl().name());
      return v == null
          ? null
          : Coercions.paramToColumn(v, p.decl().type(), p.column(), "param '" + p.decl().name() + "' for " + p.target());
    }

    Object resolveAssigned(Assign a) throws QueryException {
      Object v = resolve(a.slot());
      if (v == null && !a.column().nullable()) {
        throw QueryException.param("param '" + ((Slot.ParamSlot) a.slot()).decl().name() + "' is null, but " + a.target() + " is not nullable");
      }
      return v;
    }
  }

  /** Where a value comes from. */
  sealed interface Slot {
    /** @param value a literal already in the target column's representation */
    record Const(Object value) implements Slot {}

    /**
     * @param decl the parameter
     * @param column the column the value is converted to
     * @param target how to name the column in messages
     * @param pos where the parameter was used
     */
    record ParamSlot(ParamDecl decl, ColumnRef column, String target, SourcePos pos) implements Slot {}

    /** @param pos where {@code now()} was written */
    record NowSlot(SourcePos pos) implements Slot {}
  }

  /**
   * One assignment.
   *
   * @param column the column written
   * @param target how to name it in messages, e.g. {@code Book.year}
   * @param slot the value
   */
  record Assign(ColumnRef column, String target, Slot slot) {}

  /**
   * A typed where predicate.
   *
   * @param column the compared column
   * @param op the comparison
   * @param slot the compared value
   */
  record Pred(ColumnRef column, CompOp op, Slot slot) {
    RowFilter bind(Resolver r) throws QueryException {
      return new RowFilter.Compare(column, op, r.resolve(slot));
    }
  }

  /** A statement with unbound slots. */
  sealed interface Template {
    String tableKey();

    Statement bind(Resolver r) throws QueryException;
  }

  record InsertNodeT(NodeType type, Map<String, Assign> assigned, List<String> embedTargets, SourcePos pos)
      implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }

    @Override
    public Statement bind(Resolver r) throws QueryException {
      List<String> keyFields = type.key().map(k -> k.fields()).orElse(List.of());
      Map<String, Object> values = new LinkedHashMap<>();
      for (Property p : type.properties()) {
        Assign a = assigned.get(p.name());
        Object v = null;
        if (a != null) {
          v = r.resolve(a.slot());
          if (v == null && keyFields.contains(p.name())) {
            throw QueryException.param("insert @key property '" + p.name() + "' cannot contain null (param '"
                + ((Slot.ParamSlot) a.slot()).decl().name() + "' is null)");
          }
          if (v == null && !p.nullable()) {
            throw QueryException.param("param '" + ((Slot.ParamSlot) a.slot()).decl().name() + "' is null, but "
                + a.target() + " is not nullable");
          }
          if (v instanceof Float f && keyFields.contains(p.name()) && (f.isNaN() || f.isInfinite())
              || v instanceof Double d && keyFields.contains(p.name()) && (d.isNaN() || d.isInfinite())) {
            throw QueryException.param("insert @key property '" + p.name() + "' cannot be NaN or infinite");
          }
        }
        values.put(p.name(), v);
      }
      return new Statement.InsertNode(type, values, embedTargets, pos);
    }
  }

  record InsertEdgeT(EdgeType type, Assign from, Assign to, Map<String, Assign> assigned, SourcePos pos)
      implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }

    @Override
    public Statement bind(Resolver r) throws QueryException {
      String src = (String) r.resolveAssigned(from);
      String dst = (String) r.resolveAssigned(to);
      Map<String, Object> values = new LinkedHashMap<>();
      for (Property p : type.properties()) {
        Assign a = assigned.get(p.name());
        values.put(p.name(), a == null ? null : r.resolveAssigned(a));
      }
      return new Statement.InsertEdge(type, src, dst, values, pos);
    }
  }

  record UpdateT(NodeType type, Map<String, Assign> assigned, Pred where, SourcePos pos) implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }

    @Override
    public Statement bind(Resolver r) throws QueryException {
      Map<String, Object> values = new LinkedHashMap<>();
      for (Property p : type.properties()) {
        Assign a = assigned.get(p.name());
        if (a != null) {
          values.put(p.name(), r.resolveAssigned(a));
        }
      }
      return new Statement.UpdateNodes(type, values, where.bind(r), pos);
    }
  }

  record DeleteNodesT(NodeType type, Pred where, List<EdgeType> cascades, SourcePos pos) implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }

    @Override
    public Statement bind(Resolver r) throws QueryException {
      return new Statement.DeleteNodes(type, where.bind(r), cascades, pos);
    }
  }

  record DeleteEdgesT(EdgeType type, Pred where, SourcePos pos) implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }

    @Override
    public Statement bind(Resolver r) throws QueryException {
      return new Statement.DeleteEdges(type, where.bind(r), pos);
    }
  }
}
