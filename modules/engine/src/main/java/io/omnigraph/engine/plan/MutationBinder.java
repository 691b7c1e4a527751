package io.omnigraph.engine.plan;

import io.omnigraph.engine.gq.CheckedMutation;
import io.omnigraph.engine.gq.CheckedMutation.Assign;
import io.omnigraph.engine.gq.CheckedMutation.DeleteEdgesT;
import io.omnigraph.engine.gq.CheckedMutation.DeleteNodesT;
import io.omnigraph.engine.gq.CheckedMutation.InsertEdgeT;
import io.omnigraph.engine.gq.CheckedMutation.InsertNodeT;
import io.omnigraph.engine.gq.CheckedMutation.Pred;
import io.omnigraph.engine.gq.CheckedMutation.Slot;
import io.omnigraph.engine.gq.CheckedMutation.Template;
import io.omnigraph.engine.gq.CheckedMutation.UpdateT;
import io.omnigraph.engine.gq.Coercions;
import io.omnigraph.engine.gq.QueryException;
import io.omnigraph.engine.plan.MutationPlan.Mode;
import io.omnigraph.engine.plan.MutationPlan.Statement;
import io.omnigraph.engine.schema.Property;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link CheckedMutation} (the front end's output, with typed slots for parameters and
 * {@code now()}) into an executable {@link MutationPlan}. Pure: no I/O.
 */
public final class MutationBinder {
  private MutationBinder() {}

  /**
   * Binds parameter values and produces the plan.
   *
   * @param checked the checked mutation
   * @param params values by parameter name (without {@code $}); see {@link ParamBinder} for the
   *     accepted value forms
   * @param now the instant {@code now()} stands for (truncated to milliseconds)
   * @return the executable plan
   * @throws QueryException PARAM_VALUE when a value is missing, undeclared, mistyped, out of
   *     range, not in an enum's set, or null where the target column or key requires a value
   */
  public static MutationPlan bind(CheckedMutation checked, Map<String, ?> params, Instant now) throws QueryException {
    Map<String, Object> values = ParamBinder.bindValues(checked.decl().params(), params);
    Instant ms = now.truncatedTo(ChronoUnit.MILLIS);
    Resolver r = new Resolver(values, ms.toEpochMilli());
    List<Statement> statements = new ArrayList<>();
    for (Template t : checked.templates()) {
      statements.add(bind(t, r));
    }
    return new MutationPlan(checked.decl().name(), checked.destructive() ? Mode.DESTRUCTIVE : Mode.CONSTRUCTIVE,
        ms, statements);
  }

  private static Statement bind(Template t, Resolver r) throws QueryException {
    if (t instanceof InsertNodeT n) {
      return insertNode(n, r);
    }
    if (t instanceof InsertEdgeT e) {
      String src = (String) r.resolveAssigned(e.from());
      String dst = (String) r.resolveAssigned(e.to());
      List<String> keyFields = e.type().key().map(k -> k.fields()).orElse(List.of());
      Map<String, Object> values = new LinkedHashMap<>();
      for (Property p : e.type().properties()) {
        Assign a = e.assigned().get(p.name());
        Object v = a == null ? null : r.resolveAssigned(a);
        if (v instanceof Float f && keyFields.contains(p.name()) && (f.isNaN() || f.isInfinite())
            || v instanceof Double d && keyFields.contains(p.name()) && (d.isNaN() || d.isInfinite())) {
          throw QueryException.param("insert @key property '" + p.name() + "' cannot be NaN or infinite");
        }
        values.put(p.name(), v);
      }
      return new Statement.InsertEdge(e.type(), src, dst, values, e.pos());
    }
    if (t instanceof UpdateT u) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (Property p : u.type().properties()) {
        Assign a = u.assigned().get(p.name());
        if (a != null) {
          values.put(p.name(), r.resolveAssigned(a));
        }
      }
      return new Statement.UpdateNodes(u.type(), values, keyAsId(u.type(), filter(u.where(), r)), u.pos());
    }
    if (t instanceof DeleteNodesT d) {
      return new Statement.DeleteNodes(d.type(), keyAsId(d.type(), filter(d.where(), r)), d.cascades(), d.pos());
    }
    DeleteEdgesT d = (DeleteEdgesT) t;
    return new Statement.DeleteEdges(d.type(), filter(d.where(), r), d.pos());
  }

  private static Statement insertNode(InsertNodeT n, Resolver r) throws QueryException {
    List<String> keyFields = n.type().key().map(k -> k.fields()).orElse(List.of());
    Map<String, Object> values = new LinkedHashMap<>();
    for (Property p : n.type().properties()) {
      Assign a = n.assigned().get(p.name());
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
    return new Statement.InsertNode(n.type(), values, n.embedTargets(), n.pos());
  }

  /**
   * {@code key = "v"} on a node type whose {@code @key} is that one String (or enum) property is
   * {@code id = "v"} (docs/mutations.md, "How an update is staged"): such a node's id is its key
   * value (docs/ndjson-format.md, "Node ids") and a key member never changes, so both select the
   * same committed and pending rows, and the {@code id} BTREE index ({@code id_idx}) answers the
   * second without scanning the table.
   */
  private static RowFilter keyAsId(io.omnigraph.engine.schema.NodeType type, RowFilter f) {
    if (!(f instanceof RowFilter.Compare c) || c.op() != io.omnigraph.engine.gq.QueryAst.CompOp.EQ
        || !(c.value() instanceof String) || c.column().scalarKind() != io.omnigraph.engine.schema.ScalarKind.STRING
        || c.column().name().equals("id")) {
      return f;
    }
    List<String> key = type.key().map(k -> k.fields()).orElse(List.of());
    return key.equals(List.of(c.column().name()))
        ? new RowFilter.Compare(io.omnigraph.engine.gq.ColumnRef.system("id"), c.op(), c.value())
        : f;
  }

  private static RowFilter filter(Pred p, Resolver r) throws QueryException {
    return new RowFilter.Compare(p.column(), p.op(), r.resolve(p.slot()));
  }

  /** Resolves slots against bound parameter values. */
  private record Resolver(Map<String, Object> params, long nowMillis) {
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
        throw QueryException.param("param '" + ((Slot.ParamSlot) a.slot()).decl().name() + "' is null, but "
            + a.target() + " is not nullable");
      }
      return v;
    }
  }
}
