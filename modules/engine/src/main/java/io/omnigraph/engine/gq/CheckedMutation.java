package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.SourcePos;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A mutation query that type-checked against a catalog: every statement's target, columns and
 * value types are resolved, and every value is either a converted literal or a typed slot for a
 * parameter or {@code now()}. The plan layer fills the slots ({@code plan.MutationBinder}); this
 * front end knows nothing of plans.
 */
public final class CheckedMutation implements CheckedQuery {
  private final QueryDecl decl;
  private final boolean destructive;
  private final List<Template> templates;

  CheckedMutation(QueryDecl decl, boolean destructive, List<Template> templates) {
    this.decl = Objects.requireNonNull(decl, "decl");
    this.destructive = destructive;
    this.templates = List.copyOf(templates);
  }

  @Override
  public QueryDecl decl() {
    return decl;
  }

  /** @return true for a destructive mutation (deletes only), false for a constructive one (inserts and updates) */
  public boolean destructive() {
    return destructive;
  }

  /** @return the checked statements with unbound slots, in source order */
  public List<Template> templates() {
    return templates;
  }

  /** @return the table keys the statements target (without cascades), in first-touch order */
  public Set<String> targetTables() {
    Set<String> out = new LinkedHashSet<>();
    for (Template t : templates) {
      out.add(t.tableKey());
    }
    return out;
  }

  /** Where a value comes from. */
  public sealed interface Slot {
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
  public record Assign(ColumnRef column, String target, Slot slot) {}

  /**
   * A typed where predicate.
   *
   * @param column the compared column
   * @param op the comparison
   * @param slot the compared value
   */
  public record Pred(ColumnRef column, CompOp op, Slot slot) {}

  /** A statement with unbound slots. */
  public sealed interface Template {
    /** @return the table the statement targets */
    String tableKey();
  }

  /**
   * {@code insert} of a node.
   *
   * @param type the node type
   * @param assigned property name → assignment (absent properties are null)
   * @param embedTargets the {@code @embed} vector properties to fill
   * @param pos where the statement starts
   */
  public record InsertNodeT(NodeType type, Map<String, Assign> assigned, List<String> embedTargets, SourcePos pos)
      implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }
  }

  /**
   * {@code insert} of an edge.
   *
   * @param type the edge type
   * @param from the source endpoint's key
   * @param to the destination endpoint's key
   * @param assigned property name → assignment
   * @param pos where the statement starts
   */
  public record InsertEdgeT(EdgeType type, Assign from, Assign to, Map<String, Assign> assigned, SourcePos pos)
      implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }
  }

  /**
   * {@code update} of nodes.
   *
   * @param type the node type
   * @param assigned property name → assignment (only the set properties)
   * @param where which nodes
   * @param pos where the statement starts
   */
  public record UpdateT(NodeType type, Map<String, Assign> assigned, Pred where, SourcePos pos) implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }
  }

  /**
   * {@code delete} of nodes, cascading to incident edges.
   *
   * @param type the node type
   * @param where which nodes
   * @param cascades every edge type incident to {@code type}
   * @param pos where the statement starts
   */
  public record DeleteNodesT(NodeType type, Pred where, List<EdgeType> cascades, SourcePos pos) implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }
  }

  /**
   * {@code delete} of edges.
   *
   * @param type the edge type
   * @param where which edges
   * @param pos where the statement starts
   */
  public record DeleteEdgesT(EdgeType type, Pred where, SourcePos pos) implements Template {
    @Override
    public String tableKey() {
      return type.tableKey();
    }
  }
}
