package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.CheckedMutation.Assign;
import io.omnigraph.engine.gq.CheckedMutation.Pred;
import io.omnigraph.engine.gq.CheckedMutation.Slot;
import io.omnigraph.engine.gq.CheckedMutation.Template;
import io.omnigraph.engine.gq.QueryAst.Assignment;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.gq.QueryAst.MutationBody;
import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryAst.Predicate;
import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import io.omnigraph.engine.gq.QueryAst.Value;
import io.omnigraph.engine.gq.QueryException.Code;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.SourcePos;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Type-checks mutation statements (insert, update, delete) against a catalog and turns
 * them into {@link CheckedMutation} templates.
 */
final class MutationChecker {
  private final Catalog catalog;
  private final QueryDecl decl;
  private final Map<String, ParamDecl> params = new LinkedHashMap<>();

  private MutationChecker(Catalog catalog, QueryDecl decl) {
    this.catalog = catalog;
    this.decl = decl;
    decl.params().forEach(p -> params.put(p.name(), p));
  }

  static CheckedMutation check(Catalog catalog, QueryDecl decl) throws QueryException {
    return new MutationChecker(catalog, decl).run();
  }

  private CheckedMutation run() throws QueryException {
    MutationBody body = (MutationBody) decl.body();
    List<Template> templates = new ArrayList<>();
    for (QueryAst.Mutation m : body.statements()) {
      if (m instanceof QueryAst.Insert i) {
        templates.add(insert(i));
      } else if (m instanceof QueryAst.Update u) {
        templates.add(update(u));
      } else {
        templates.add(delete((QueryAst.Delete) m));
      }
    }
    return new CheckedMutation(decl, body.statements().get(0) instanceof QueryAst.Delete, templates);
  }

  /** A mutation target: node types by exact name, edge types case-insensitively (edge names are
   * unique after case folding). */
  private Object target(QueryAst.Mutation m) throws QueryException {
    Optional<NodeType> node = catalog.node(m.typeName());
    if (node.isPresent()) {
      return node.get();
    }
    Optional<EdgeType> edge = catalog.edgeIgnoreCase(m.typeName());
    if (edge.isPresent()) {
      return edge.get();
    }
    throw new QueryException(Code.T10, m.typePos(), "unknown node or edge type '" + m.typeName() + "'" + known());
  }

  private String known() {
    List<String> names = new ArrayList<>();
    catalog.nodes().forEach(n -> names.add(n.name()));
    catalog.edges().forEach(e -> names.add(e.name()));
    return names.isEmpty() ? " (the schema declares no types)" : " (known: " + String.join(", ", names) + ")";
  }

  private Template insert(QueryAst.Insert ins) throws QueryException {
    Object target = target(ins);
    if (ins.assignments().isEmpty()) {
      throw new QueryException(Code.T10, ins.pos(), "insert " + ins.typeName() + " has no assignments");
    }
    rejectDuplicates(ins.assignments());
    if (target instanceof NodeType node) {
      Map<String, Assign> assigned = new LinkedHashMap<>();
      for (Assignment a : ins.assignments()) {
        if (a.property().equals("id")) {
          throw new QueryException(Code.T11, a.pos(),
              "'id' is a system column of " + node.name() + " and cannot be assigned ("
                  + (node.key().isPresent() ? "it derives from the @key" : "inserts get a fresh ULID") + ")");
        }
        Property p = nodeProperty(node, a.property(), a.pos());
        assigned.put(p.name(), assign(a, ColumnRef.of(p), node.name() + "." + p.name(), Code.T3));
      }
      List<String> embedTargets = new ArrayList<>();
      for (Property p : node.properties()) {
        if (p.nullable() || assigned.containsKey(p.name())) {
          continue;
        }
        Optional<String> embedSource = p.type() instanceof PropertyType.VectorOf
            ? p.annotation("embed").flatMap(an -> an.stringValue())
            : Optional.empty();
        if (embedSource.isPresent() && assigned.containsKey(embedSource.get())) {
          embedTargets.add(p.name());
          continue;
        }
        throw new QueryException(Code.T12, ins.pos(),
            "insert " + node.name() + " is missing required property '" + p.name() + "' (" + p.typeSpelling() + ")"
                + embedSource.map(s -> " or its @embed source '" + s + "'").orElse(""));
      }
      return new CheckedMutation.InsertNodeT(node, assigned, embedTargets, ins.pos());
    }
    EdgeType edge = (EdgeType) target;
    Assign from = null;
    Assign to = null;
    Map<String, Assign> assigned = new LinkedHashMap<>();
    for (Assignment a : ins.assignments()) {
      switch (a.property()) {
        case "from" -> from = assign(a, ColumnRef.system("src"), edge.name() + ".from (" + edge.fromType() + " id)", Code.T3);
        case "to" -> to = assign(a, ColumnRef.system("dst"), edge.name() + ".to (" + edge.toType() + " id)", Code.T3);
        case "id", "src", "dst" -> throw new QueryException(Code.T11, a.pos(),
            "'" + a.property() + "' is a system column of edge " + edge.name()
                + (a.property().equals("id") ? " and cannot be assigned (edge inserts get a fresh ULID)" : "; write the endpoints as from: and to:"));
        default -> {
          Property p = edgeProperty(edge, a.property(), a.pos());
          assigned.put(p.name(), assign(a, ColumnRef.of(p), edge.name() + "." + p.name(), Code.T3));
        }
      }
    }
    if (from == null || to == null) {
      throw new QueryException(Code.T12, ins.pos(),
          "insert " + edge.name() + " needs both endpoints: from: <" + edge.fromType() + " id> and to: <" + edge.toType() + " id>"
              + " (missing " + (from == null ? "from" : "to") + ")");
    }
    for (Property p : edge.properties()) {
      if (!p.nullable() && !assigned.containsKey(p.name())) {
        throw new QueryException(Code.T12, ins.pos(),
            "insert " + edge.name() + " is missing required property '" + p.name() + "' (" + p.typeSpelling() + ")");
      }
    }
    return new CheckedMutation.InsertEdgeT(edge, from, to, assigned, ins.pos());
  }

  private Template update(QueryAst.Update up) throws QueryException {
    Object target = target(up);
    if (target instanceof EdgeType edge) {
      throw new QueryException(Code.T16, up.typePos(),
          "update is not supported on edge type " + edge.name() + "; delete the edge and insert it again");
    }
    NodeType node = (NodeType) target;
    if (up.assignments().isEmpty()) {
      throw new QueryException(Code.T10, up.pos(), "update " + node.name() + " has no assignments");
    }
    rejectDuplicates(up.assignments());
    List<String> keyFields = node.key().map(k -> k.fields()).orElse(List.of());
    Map<String, Assign> assigned = new LinkedHashMap<>();
    for (Assignment a : up.assignments()) {
      if (a.property().equals("id")) {
        throw new QueryException(Code.IMMUTABLE_PROPERTY, a.pos(), "cannot update 'id', a system column of " + node.name());
      }
      Property p = nodeProperty(node, a.property(), a.pos());
      if (keyFields.contains(p.name())) {
        throw new QueryException(Code.IMMUTABLE_PROPERTY, a.pos(),
            "cannot update @key property '" + p.name() + "' — delete and re-insert instead");
      }
      assigned.put(p.name(), assign(a, ColumnRef.of(p), node.name() + "." + p.name(), Code.T3));
    }
    return new CheckedMutation.UpdateT(node, assigned, predicate(node.name(), column(target, up.where()), up.where()), up.pos());
  }

  private Template delete(QueryAst.Delete del) throws QueryException {
    Object target = target(del);
    if (target instanceof NodeType node) {
      List<EdgeType> cascades = catalog.edges().stream()
          .filter(e -> e.fromType().equals(node.name()) || e.toType().equals(node.name()))
          .toList();
      return new CheckedMutation.DeleteNodesT(node, predicate(node.name(), column(target, del.where()), del.where()), cascades, del.pos());
    }
    EdgeType edge = (EdgeType) target;
    return new CheckedMutation.DeleteEdgesT(edge, predicate(edge.name(), column(target, del.where()), del.where()), del.pos());
  }

  private static void rejectDuplicates(List<Assignment> assignments) throws QueryException {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Assignment a : assignments) {
      if (!seen.add(a.property())) {
        throw new QueryException(Code.T13, a.pos(), "property '" + a.property() + "' is assigned more than once");
      }
    }
  }

  private static Property nodeProperty(NodeType node, String name, SourcePos pos) throws QueryException {
    return node.property(name).orElseThrow(() -> new QueryException(Code.T11, pos,
        "node type " + node.name() + " has no property '" + name + "'" + props(node.properties())));
  }

  private static Property edgeProperty(EdgeType edge, String name, SourcePos pos) throws QueryException {
    return edge.property(name).orElseThrow(() -> new QueryException(Code.T11, pos,
        "edge type " + edge.name() + " has no property '" + name + "' (endpoints are from: and to:)" + props(edge.properties())));
  }

  private static String props(List<Property> ps) {
    return ps.isEmpty() ? "" : "; properties: " + String.join(", ", ps.stream().map(Property::name).toList());
  }

  /** The column a where predicate names; {@code id} is allowed, {@code from}/{@code to} on edges. */
  private static ColumnRef column(Object target, Predicate where) throws QueryException {
    String name = where.property();
    if (name.equals("id")) {
      return ColumnRef.system("id");
    }
    Property p;
    if (target instanceof NodeType node) {
      p = nodeProperty(node, name, where.pos());
    } else {
      EdgeType edge = (EdgeType) target;
      if (name.equals("from")) {
        return ColumnRef.system("src");
      }
      if (name.equals("to")) {
        return ColumnRef.system("dst");
      }
      if (name.equals("src") || name.equals("dst")) {
        throw new QueryException(Code.T11, where.pos(),
            "write the edge endpoint as '" + (name.equals("src") ? "from" : "to") + "' in a where predicate");
      }
      p = edgeProperty(edge, name, where.pos());
    }
    if (p.type() instanceof PropertyType.Scalar s && s.kind() == ScalarKind.BLOB) {
      throw new QueryException(Code.T11, where.pos(), "Blob property '" + p.name() + "' cannot be used in a where predicate");
    }
    if (p.type() instanceof PropertyType.ListOf || p.type() instanceof PropertyType.VectorOf) {
      throw new QueryException(Code.T7, where.pos(),
          "property '" + p.name() + "' has type " + p.type().spelling() + "; lists and vectors cannot be compared in a where predicate");
    }
    return ColumnRef.of(p);
  }

  private Pred predicate(String typeName, ColumnRef column, Predicate where) throws QueryException {
    boolean isBool = column.scalarKind() == ScalarKind.BOOL;
    if (isBool && where.op() != CompOp.EQ && where.op() != CompOp.NE) {
      throw new QueryException(Code.T7, where.pos(),
          "Bool property '" + where.property() + "' can only be compared with = or !=, not " + where.op().symbol());
    }
    String target = typeName + "." + where.property();
    return new Pred(column, where.op(), slot(where.value(), column, target, Code.T7));
  }

  private Assign assign(Assignment a, ColumnRef column, String target, Code mismatchCode) throws QueryException {
    return new Assign(column, target, slot(a.value(), column, target, mismatchCode));
  }

  private Slot slot(Value v, ColumnRef column, String target, Code paramMismatch) throws QueryException {
    if (v instanceof QueryAst.LiteralValue lit) {
      return new Slot.Const(Coercions.literal(lit.literal(), column, target));
    }
    if (v instanceof QueryAst.Now now) {
      if (column.scalarKind() != ScalarKind.DATE_TIME || !(column.type() instanceof PropertyType.Scalar)) {
        throw new QueryException(Code.T3, now.pos(), target + " has type " + column.type().spelling() + "; now() is a DateTime");
      }
      return new Slot.NowSlot(now.pos());
    }
    QueryAst.ParamRef ref = (QueryAst.ParamRef) v;
    ParamDecl p = params.get(ref.name());
    if (p == null) {
      throw new QueryException(Code.T14, ref.pos(),
          "'$" + ref.name() + "' is not a declared parameter of query '" + decl.name() + "'"
              + (params.isEmpty() ? " (it declares none)" : " (declared: " + String.join(", ", params.keySet().stream().map(n -> "$" + n).toList()) + ")"));
    }
    String why = Coercions.paramIncompatibility(p.type(), column);
    if (why != null) {
      throw new QueryException(paramMismatch, ref.pos(), "$" + p.name() + " (" + p.typeSpelling() + ") does not fit " + target + ": " + why);
    }
    return new Slot.ParamSlot(p, column, target, ref.pos());
  }
}
