package io.omnigraph.engine.index;

import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.SchemaIr;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.table.IndexSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which indexes a table gets (docs/indexes.md, "Which index a property gets"): BTREE on every
 * table's {@code id} and on every edge's {@code src} and {@code dst}; for each single-property
 * {@code @index} or {@code @key}: BTREE for an enum or an orderable scalar (Bool, integers, floats,
 * Date, DateTime), an inverted full-text index for a {@code String}, an IVF_FLAT vector index for
 * a {@code Vector(n)} once the table holds {@link #VECTOR_MIN_ROWS} rows; lists and Blob get none.
 * Pure: no I/O.
 */
public final class IndexPlanner {
  /** A vector index is deferred until its table holds at least this many rows (IVF needs training data). */
  public static final long VECTOR_MIN_ROWS = 256;
  /** Rows per IVF partition the vector index aims for. */
  static final long ROWS_PER_PARTITION = 4096;
  /** At most this many IVF partitions. */
  public static final int MAX_PARTITIONS = 256;

  private IndexPlanner() {}

  /**
   * One index the schema calls for, or a deferral.
   *
   * @param spec the index
   * @param deferredReason why it is not built now ({@code null}: build it when missing)
   */
  public record Wanted(IndexSpec spec, String deferredReason) {}

  /**
   * @param schema the accepted schema
   * @param table one of its tables
   * @param rows the table's published row count
   * @return every index the schema calls for on {@code table}, system columns first, then
   *     properties in declaration order; one per column
   */
  public static List<Wanted> wanted(CompiledSchema schema, TableSpec table, long rows) {
    Map<String, Wanted> out = new LinkedHashMap<>();
    out.put("id", new Wanted(new IndexSpec.BTree("id", null), null));
    List<Property> properties;
    List<Constraint> constraints;
    if (table.kind() == SchemaIr.DeclKind.EDGE) {
      out.put("src", new Wanted(new IndexSpec.BTree("src", null), null));
      out.put("dst", new Wanted(new IndexSpec.BTree("dst", null), null));
      EdgeType e = schema.catalog().edge(table.typeName()).orElseThrow();
      properties = e.properties();
      constraints = e.constraints();
    } else {
      NodeType n = schema.catalog().node(table.typeName()).orElseThrow();
      properties = n.properties();
      constraints = n.constraints();
    }
    for (Constraint c : constraints) {
      if (!(c instanceof Constraint.Index || c instanceof Constraint.Key) || c.fields().size() != 1) {
        continue;
      }
      String column = c.fields().get(0);
      if (out.containsKey(column)) {
        continue;
      }
      Optional<Property> p = properties.stream().filter(x -> x.name().equals(column)).findFirst();
      if (p.isEmpty()) {
        continue;
      }
      forProperty(p.get(), rows).ifPresent(w -> out.put(column, w));
    }
    return new ArrayList<>(out.values());
  }

  /**
   * @param table a node or edge table
   * @param column one of its columns
   * @return whether it is a key column — {@code id} of every table, {@code src} and {@code dst} of
   *     an edge table — whose BTREE {@code ensureKeyIndices} builds (docs/indexes.md, "Key indexes only")
   */
  public static boolean isKeyColumn(TableSpec table, String column) {
    return column.equals("id")
        || table.kind() == SchemaIr.DeclKind.EDGE && (column.equals("src") || column.equals("dst"));
  }

  /** @return the index a property's type calls for, if any */
  static Optional<Wanted> forProperty(Property p, long rows) {
    PropertyType t = p.type();
    if (t instanceof PropertyType.EnumOf) {
      return Optional.of(new Wanted(new IndexSpec.BTree(p.name(), null), null));
    }
    if (t instanceof PropertyType.Scalar s) {
      if (s.kind() == ScalarKind.STRING) {
        return Optional.of(new Wanted(new IndexSpec.Inverted(p.name(), null), null));
      }
      if (s.kind() == ScalarKind.BLOB) {
        return Optional.empty();
      }
      return Optional.of(new Wanted(new IndexSpec.BTree(p.name(), null), null));
    }
    if (t instanceof PropertyType.VectorOf) {
      int partitions = (int) Math.max(1, Math.min(MAX_PARTITIONS, rows / ROWS_PER_PARTITION));
      IndexSpec.Vector spec = new IndexSpec.Vector(p.name(), null, partitions);
      return Optional.of(new Wanted(spec, rows < VECTOR_MIN_ROWS
          ? "the table has " + rows + " row(s); a vector index is built from " + VECTOR_MIN_ROWS + " rows on"
          : null));
    }
    return Optional.empty(); // lists
  }
}
