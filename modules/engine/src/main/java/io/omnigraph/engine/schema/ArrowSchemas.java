package io.omnigraph.engine.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow schemas of node and edge tables (docs/on-disk-layout.md, "Node and edge tables").
 *
 * <ul>
 *   <li>Node table: {@code id: Utf8 NOT NULL} (Lance unenforced primary key), then properties in
 *       catalog order (directly declared, then interface-injected).
 *   <li>Edge table: {@code id, src, dst} (all {@code Utf8 NOT NULL}; {@code id} is the primary key),
 *       then properties.
 *   <li>Property fields carry {@code omnigraph.stable_property_id}; nullability follows {@code ?}.
 *   <li>Types: String/enum → Utf8, Bool → Bool, I32/I64 → signed Int, U32/U64 → unsigned Int,
 *       F32/F64 → FloatingPoint, Date → Date32 (days), DateTime → Date64 (ms), Vector(n) →
 *       FixedSizeList(n) of nullable Float32 {@code item}, [T] → List of nullable T {@code item},
 *       Blob → LargeBinary (placeholder; the table layer maps it to Lance's blob encoding).
 * </ul>
 */
public final class ArrowSchemas {
  /** Field metadata key marking Lance's unenforced primary key. */
  public static final String PRIMARY_KEY_METADATA = "lance-schema:unenforced-primary-key";
  /** Field metadata key carrying the property's stable id. */
  public static final String STABLE_PROPERTY_ID_METADATA = "omnigraph.stable_property_id";
  /** Schema metadata key carrying the table key ({@code node:T} / {@code edge:E}). */
  public static final String TABLE_KEY_METADATA = "omnigraph.table_key";
  /** System column names. */
  public static final String ID = "id";
  /** System column names. */
  public static final String SRC = "src";
  /** System column names. */
  public static final String DST = "dst";

  /**
   * Starts initializing Arrow's {@link Schema} type on a daemon thread of its own, for a caller
   * that will build table schemas soon ({@code init}). Arrow's {@code Schema} builds a Jackson JSON
   * reader for itself when its class initializes, which in a fresh process costs more than the
   * whole rest of a schema compile (docs/benchmarks.md, "Bulk load: the cold path"); on a second
   * core it runs while the caller parses the schema, and the caller's first {@code Schema} waits
   * for it (the JVM initializes a class once) instead of doing the work itself. If the
   * initialization fails, this thread's error goes to the default uncaught-exception handler and
   * the caller's own first use of {@code Schema} fails too ({@link NoClassDefFoundError}).
   *
   * @return the started thread
   */
  public static Thread initializeAhead() {
    Thread t = new Thread(() -> {
      try {
        Class.forName(Schema.class.getName(), true, Schema.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e); // not possible: the engine links against Schema
      }
    }, "omnigraph-arrow-schema-init");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private ArrowSchemas() {}

  /**
   * @param node the node type
   * @param identity its identity in the IR
   * @return the table schema
   */
  public static Schema nodeSchema(NodeType node, SchemaIr.TypeIdentity identity) {
    List<Field> fields = new ArrayList<>();
    fields.add(primaryKey());
    for (Property p : node.properties()) {
      fields.add(property(p, identity.propertyId(p.name())));
    }
    return new Schema(fields, Map.of(TABLE_KEY_METADATA, node.tableKey()));
  }

  /**
   * @param edge the edge type
   * @param identity its identity in the IR
   * @return the table schema
   */
  public static Schema edgeSchema(EdgeType edge, SchemaIr.TypeIdentity identity) {
    List<Field> fields = new ArrayList<>();
    fields.add(primaryKey());
    fields.add(new Field(SRC, FieldType.notNullable(ArrowType.Utf8.INSTANCE), null));
    fields.add(new Field(DST, FieldType.notNullable(ArrowType.Utf8.INSTANCE), null));
    for (Property p : edge.properties()) {
      fields.add(property(p, identity.propertyId(p.name())));
    }
    return new Schema(fields, Map.of(TABLE_KEY_METADATA, edge.tableKey()));
  }

  private static Field primaryKey() {
    return new Field(
        ID, new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of(PRIMARY_KEY_METADATA, "true")), null);
  }

  private static Field property(Property p, long propertyId) {
    Map<String, String> meta = Map.of(STABLE_PROPERTY_ID_METADATA, Long.toString(propertyId));
    PropertyType t = p.type();
    if (t instanceof PropertyType.Scalar s) {
      return new Field(p.name(), new FieldType(p.nullable(), scalar(s.kind()), null, meta), null);
    }
    if (t instanceof PropertyType.EnumOf) {
      return new Field(p.name(), new FieldType(p.nullable(), ArrowType.Utf8.INSTANCE, null, meta), null);
    }
    if (t instanceof PropertyType.ListOf l) {
      Field item = new Field("item", FieldType.nullable(scalar(l.item())), null);
      return new Field(p.name(), new FieldType(p.nullable(), ArrowType.List.INSTANCE, null, meta), List.of(item));
    }
    PropertyType.VectorOf v = (PropertyType.VectorOf) t;
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    return new Field(
        p.name(), new FieldType(p.nullable(), new ArrowType.FixedSizeList(v.dimension()), null, meta), List.of(item));
  }

  /**
   * @param kind a base type
   * @return its Arrow type
   */
  public static ArrowType scalar(ScalarKind kind) {
    return switch (kind) {
      case STRING -> ArrowType.Utf8.INSTANCE;
      case BLOB -> ArrowType.LargeBinary.INSTANCE;
      case BOOL -> ArrowType.Bool.INSTANCE;
      case I32 -> new ArrowType.Int(32, true);
      case I64 -> new ArrowType.Int(64, true);
      case U32 -> new ArrowType.Int(32, false);
      case U64 -> new ArrowType.Int(64, false);
      case F32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case F64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case DATE_TIME -> new ArrowType.Date(DateUnit.MILLISECOND);
    };
  }
}
