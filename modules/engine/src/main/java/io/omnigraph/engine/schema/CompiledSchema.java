package io.omnigraph.engine.schema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A schema ready for the engine: the {@link Catalog}, its identity-bearing {@link SchemaIr}, the
 * source text, and one {@link TableSpec} (path + Arrow schema) per node and edge type.
 */
public final class CompiledSchema {
  private final String source;
  private final Catalog catalog;
  private final SchemaIr ir;
  /**
   * Built on first use: the Arrow schemas need Arrow's {@code Schema} class, whose initialization
   * is the slowest step of a fresh process's {@code init}; until a table is asked for, {@code init}
   * opens the root, waits for the table store, claims the root and writes the schema files while
   * it runs on another thread (docs/benchmarks.md, "Bulk load: phase breakdown").
   */
  private volatile Map<String, TableSpec> tables;

  CompiledSchema(String source, Catalog catalog, SchemaIr ir) {
    this.source = Objects.requireNonNull(source, "source");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.ir = Objects.requireNonNull(ir, "ir");
  }

  private Map<String, TableSpec> specs() {
    Map<String, TableSpec> built = tables;
    if (built == null) {
      synchronized (this) {
        built = tables;
        if (built == null) {
          built = buildSpecs();
          tables = built;
        }
      }
    }
    return built;
  }

  private Map<String, TableSpec> buildSpecs() {
    Map<String, TableSpec> tables = new LinkedHashMap<>();
    for (NodeType n : catalog.nodes()) {
      SchemaIr.TypeIdentity id = ir.type(SchemaIr.DeclKind.NODE, n.name()).orElseThrow();
      tables.put(n.tableKey(), new TableSpec(
          SchemaIr.DeclKind.NODE, n.name(), n.tableKey(), id.typeId(), id.tableIncarnationId(), ArrowSchemas.nodeSchema(n, id)));
    }
    for (EdgeType e : catalog.edges()) {
      SchemaIr.TypeIdentity id = ir.type(SchemaIr.DeclKind.EDGE, e.name()).orElseThrow();
      tables.put(e.tableKey(), new TableSpec(
          SchemaIr.DeclKind.EDGE, e.name(), e.tableKey(), id.typeId(), id.tableIncarnationId(), ArrowSchemas.edgeSchema(e, id)));
    }
    return java.util.Collections.unmodifiableMap(tables);
  }

  /** @return the {@code .pg} source this was compiled from (written to {@code _schema.pg}) */
  public String source() {
    return source;
  }

  /** @return the catalog */
  public Catalog catalog() {
    return catalog;
  }

  /** @return the identity-bearing IR (written to {@code _schema.ir.json}) */
  public SchemaIr ir() {
    return ir;
  }

  /** @return all tables: node tables in source order, then edge tables */
  public List<TableSpec> tables() {
    return new ArrayList<>(specs().values());
  }

  /**
   * @param tableKey {@code node:<Type>} or {@code edge:<Type>}
   * @return the table
   */
  public Optional<TableSpec> table(String tableKey) {
    return Optional.ofNullable(specs().get(tableKey));
  }

  /**
   * The key members of a keyed node type ordered by stable property id (declaration order at
   * creation; renames do not reorder) — the order used to derive composite ids.
   *
   * @param node a node type of this schema
   * @return key member names, empty if the type is unkeyed
   */
  public List<String> keyOrder(NodeType node) {
    Optional<Constraint.Key> key = node.key();
    if (key.isEmpty()) {
      return List.of();
    }
    SchemaIr.TypeIdentity id = ir.type(SchemaIr.DeclKind.NODE, node.name()).orElseThrow();
    return key.get().fields().stream().sorted(Comparator.comparingLong(id::propertyId)).toList();
  }

  /**
   * The property members of a keyed edge type (after {@code src, dst}) ordered by stable property
   * id — the order used to derive edge ids (docs/edge-keys.md).
   *
   * @param edge an edge type of this schema
   * @return property member names, empty if the type is unkeyed or keyed by its endpoints only
   */
  public List<String> edgeKeyProperties(EdgeType edge) {
    Optional<Constraint.Key> key = edge.key();
    if (key.isEmpty()) {
      return List.of();
    }
    SchemaIr.TypeIdentity id = ir.type(SchemaIr.DeclKind.EDGE, edge.name()).orElseThrow();
    return key.get().fields().stream().skip(2).sorted(Comparator.comparingLong(id::propertyId)).toList();
  }
}
