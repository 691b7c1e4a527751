package io.omnigraph.engine.gq;

import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.util.Objects;

/**
 * A physical column of a node or edge table as a plan refers to it: the Lance column name and its
 * logical type. Values for a column are always in the engine's in-memory representation (see
 * {@link io.omnigraph.engine.value.Scalars}).
 *
 * @param name the physical column name ({@code id}, {@code src}, {@code dst} or a property name;
 *     the {@code .gq} pseudo-properties {@code from}/{@code to} are already mapped to {@code
 *     src}/{@code dst})
 * @param type the logical type
 * @param nullable whether the column admits null
 */
public record ColumnRef(String name, PropertyType type, boolean nullable) {
  private static final PropertyType STRING = new PropertyType.Scalar(ScalarKind.STRING);

  public ColumnRef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /**
   * @param p a declared property
   * @return the column that stores it
   */
  public static ColumnRef of(Property p) {
    return new ColumnRef(p.name(), p.type(), p.nullable());
  }

  /**
   * @param name {@code id}, {@code src} or {@code dst}
   * @return the non-null Utf8 system column of that name
   */
  public static ColumnRef system(String name) {
    return new ColumnRef(name, STRING, false);
  }

  /** @return the scalar kind for scalar and enum columns (enum → STRING), else null */
  public ScalarKind scalarKind() {
    if (type instanceof PropertyType.Scalar s) {
      return s.kind();
    }
    if (type instanceof PropertyType.EnumOf) {
      return ScalarKind.STRING;
    }
    return null;
  }
}
