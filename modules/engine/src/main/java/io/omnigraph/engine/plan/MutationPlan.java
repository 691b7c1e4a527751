package io.omnigraph.engine.plan;

import io.omnigraph.engine.gq.Coercions;
import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.SourcePos;
import io.omnigraph.engine.value.NodeIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A type-checked mutation query with every parameter bound: what the executor runs. Immutable and
 * free of I/O; building one never touches storage.
 *
 * <p>Statements run in order and commit once. By the D₂ rule a plan is either {@link
 * Mode#CONSTRUCTIVE} (only {@link Statement.InsertNode}, {@link Statement.InsertEdge}, {@link
 * Statement.UpdateNodes}) or {@link Mode#DESTRUCTIVE} (only {@link Statement.DeleteNodes}, {@link
 * Statement.DeleteEdges}). Values are in the in-memory representation of {@link Coercions}; value
 * maps iterate in table column order and may hold {@code null} for a nullable column.
 *
 * @param queryName the query's name
 * @param mode constructive or destructive
 * @param now the instant {@code now()} stands for in this execution (millisecond precision)
 * @param statements the statements in source order (at least one)
 */
public record MutationPlan(String queryName, Mode mode, Instant now, List<Statement> statements) {
  public MutationPlan {
    Objects.requireNonNull(queryName, "queryName");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(now, "now");
    statements = List.copyOf(statements);
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("a mutation plan has at least one statement");
    }
    for (Statement s : statements) {
      if (s.isDestructive() != (mode == Mode.DESTRUCTIVE)) {
        throw new IllegalArgumentException("a " + mode + " plan cannot hold " + s.getClass().getSimpleName());
      }
    }
  }

  /** Whether a mutation adds/changes rows or removes them (never both: the D₂ rule). */
  public enum Mode {
    /** inserts and updates only */
    CONSTRUCTIVE,
    /** deletes only (node deletes cascade to incident edges) */
    DESTRUCTIVE
  }

  /**
   * @return every table key the plan may write, in first-touch order: statement targets, and for
   *     node deletes every incident edge table (the cascade)
   */
  public Set<String> touchedTables() {
    Set<String> out = new LinkedHashSet<>();
    for (Statement s : statements) {
      out.add(s.tableKey());
      if (s instanceof Statement.DeleteNodes d) {
        d.cascadeEdges().forEach(e -> out.add(e.tableKey()));
      }
    }
    return Collections.unmodifiableSet(out);
  }

  /** One statement of a mutation, bound and typed. */
  public sealed interface Statement
      permits Statement.InsertNode, Statement.InsertEdge, Statement.UpdateNodes, Statement.DeleteNodes,
          Statement.DeleteEdges {

    /** @return the target table key, {@code node:<Type>} or {@code edge:<Type>} */
    String tableKey();

    /** @return where the statement was written */
    SourcePos pos();

    /** @return true for deletes */
    default boolean isDestructive() {
      return this instanceof DeleteNodes || this instanceof DeleteEdges;
    }

    /**
     * {@code insert Node {...}}: one row. For a keyed type the id derives from the key members
     * and the write is an upsert (docs/mutations.md: replaces an existing row with that id, every
     * unassigned nullable property becoming null); an unkeyed type gets a fresh ULID and is a
     * strict insert.
     *
     * @param type the node type
     * @param values every property of the type, in table order (unassigned nullable → null;
     *     an {@link #embedTargets() embed target} is null here)
     * @param embedTargets non-nullable Vector properties left out of the statement whose {@code
     *     @embed} source was assigned: the executor must compute them from the source text or fail
     * @param pos where {@code insert} was written
     */
    record InsertNode(NodeType type, Map<String, Object> values, List<String> embedTargets, SourcePos pos)
        implements Statement {
      public InsertNode {
        Objects.requireNonNull(type, "type");
        values = frozen(values);
        embedTargets = List.copyOf(embedTargets);
        Objects.requireNonNull(pos, "pos");
      }

      @Override
      public String tableKey() {
        return type.tableKey();
      }

      /** @return true when the type is keyed: the write replaces any row with the same id */
      public boolean upsert() {
        return type.key().isPresent();
      }

      /**
       * The canonical id of a keyed node (docs/ndjson-format.md, "Node ids"), members ordered by
       * stable property id
       * as the loader orders them.
       *
       * @param schema the compiled schema the plan was checked against
       * @return the id, or empty for an unkeyed type (the executor mints a ULID)
       */
      public Optional<String> keyId(CompiledSchema schema) {
        List<String> order = schema.keyOrder(type);
        if (order.isEmpty()) {
          return Optional.empty();
        }
        List<String> members = new ArrayList<>(order.size());
        for (String k : order) {
          Property p = type.property(k).orElseThrow();
          members.add(NodeIds.renderMember(p.type(), values.get(k)).orElseThrow(
              () -> new IllegalStateException("key member '" + k + "' has no canonical rendering")));
        }
        return Optional.of(NodeIds.fromMembers(members));
      }
    }

    /**
     * {@code insert Edge { from: .., to: .., ... }}: one edge row. For a keyed edge type ({@code
     * @key(src, dst[, ...])}) the id derives from the key and the write is an upsert, like a keyed
     * node insert (docs/edge-keys.md); an unkeyed edge gets a fresh ULID and is a strict insert.
     *
     * @param type the edge type
     * @param from the source node id ({@code src})
     * @param to the target node id ({@code dst})
     * @param values every property of the edge type, in table order (unassigned nullable → null)
     * @param pos where {@code insert} was written
     */
    record InsertEdge(EdgeType type, String from, String to, Map<String, Object> values, SourcePos pos)
        implements Statement {
      public InsertEdge {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        values = frozen(values);
        Objects.requireNonNull(pos, "pos");
      }

      @Override
      public String tableKey() {
        return type.tableKey();
      }

      /** @return true when the edge type is keyed: the write replaces any row with the same id */
      public boolean upsert() {
        return type.key().isPresent();
      }

      /**
       * The canonical id of a keyed edge (docs/edge-keys.md), as the loader derives it.
       *
       * @param schema the compiled schema the plan was checked against
       * @return the id, or empty for an unkeyed edge type (the executor mints a ULID)
       */
      public Optional<String> keyId(CompiledSchema schema) {
        if (type.key().isEmpty()) {
          return Optional.empty();
        }
        List<String> members = new ArrayList<>();
        for (String k : schema.edgeKeyProperties(type)) {
          Property p = type.property(k).orElseThrow();
          members.add(NodeIds.renderMember(p.type(), values.get(k)).orElseThrow(
              () -> new IllegalStateException("key member '" + k + "' has no canonical rendering")));
        }
        return Optional.of(NodeIds.edgeId(from, to, members));
      }
    }

    /**
     * {@code update Node set {...} where ...}: sets the assigned properties on every row the
     * filter selects (committed rows shadowed by this query's pending rows). Never assigns a
     * {@code @key} member or {@code id}.
     *
     * @param type the node type
     * @param assignments only the assigned properties, in table order (null allowed for nullable ones)
     * @param where which rows
     * @param pos where {@code update} was written
     */
    record UpdateNodes(NodeType type, Map<String, Object> assignments, RowFilter where, SourcePos pos)
        implements Statement {
      public UpdateNodes {
        Objects.requireNonNull(type, "type");
        assignments = frozen(assignments);
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(pos, "pos");
      }

      @Override
      public String tableKey() {
        return type.tableKey();
      }
    }

    /**
     * {@code delete Node where ...}: removes the selected nodes and, in the same commit, every
     * edge of {@link #cascadeEdges()} whose {@code src} or {@code dst} is one of them.
     *
     * @param type the node type
     * @param where which nodes
     * @param cascadeEdges every edge type whose source or target type is {@code type}, in catalog order
     * @param pos where {@code delete} was written
     */
    record DeleteNodes(NodeType type, RowFilter where, List<EdgeType> cascadeEdges, SourcePos pos)
        implements Statement {
      public DeleteNodes {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(where, "where");
        cascadeEdges = List.copyOf(cascadeEdges);
        Objects.requireNonNull(pos, "pos");
      }

      @Override
      public String tableKey() {
        return type.tableKey();
      }

      /**
       * The cascade filter for one incident edge type: {@code src IN (ids)} and/or {@code dst IN
       * (ids)}, on whichever endpoints have this node type.
       *
       * @param edge one of {@link #cascadeEdges()}
       * @param deletedIds the ids of the deleted nodes
       * @return the filter selecting the edges to delete with them
       */
      public RowFilter cascadeFilter(EdgeType edge, List<String> deletedIds) {
        if (!cascadeEdges.contains(edge)) {
          throw new IllegalArgumentException(edge.name() + " is not incident to " + type.name());
        }
        List<Object> ids = List.copyOf(deletedIds);
        List<RowFilter> parts = new ArrayList<>(2);
        if (edge.fromType().equals(type.name())) {
          parts.add(new RowFilter.In(ColumnRef.system("src"), ids));
        }
        if (edge.toType().equals(type.name())) {
          parts.add(new RowFilter.In(ColumnRef.system("dst"), ids));
        }
        return parts.size() == 1 ? parts.get(0) : new RowFilter.Or(parts);
      }
    }

    /**
     * {@code delete Edge where ...}: removes the selected edges.
     *
     * @param type the edge type
     * @param where which edges ({@code from}/{@code to} already mapped to {@code src}/{@code dst})
     * @param pos where {@code delete} was written
     */
    record DeleteEdges(EdgeType type, RowFilter where, SourcePos pos) implements Statement {
      public DeleteEdges {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(pos, "pos");
      }

      @Override
      public String tableKey() {
        return type.tableKey();
      }
    }
  }

  private static Map<String, Object> frozen(Map<String, Object> values) {
    // LinkedHashMap keeps column order and admits null values, which Map.copyOf does not.
    return Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }
}
