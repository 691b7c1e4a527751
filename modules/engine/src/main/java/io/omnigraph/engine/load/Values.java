package io.omnigraph.engine.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.value.JsonValues;

/**
 * The loader's wording of refused input values: the conversion itself is {@link JsonValues}' (with
 * the {@link JsonValues.Spelling#LOAD} spellings), and each {@link JsonValues.Problem} becomes the
 * load error of its line and field here.
 */
public final class Values {
  private Values() {}

  static String describe(JsonNode v) {
    String s = v.toString();
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }

  /**
   * Converts one non-null JSON value.
   *
   * @param owner {@code node:T} / {@code edge:E}, for messages
   * @param p the property
   * @param v the JSON value (not JSON null)
   * @param line 1-based input line
   * @return the value in the loader's representation
   * @throws InvalidInputException with rule type_mismatch, out_of_range, vector_length,
   *     list_null_item, enum_value or invalid_blob
   */
  static Object fromJson(String owner, Property p, JsonNode v, long line) {
    return JsonValues.read(p.type(), v, JsonValues.Spelling.LOAD, problem -> refuse(owner, p, line, problem));
  }

  private static InvalidInputException refuse(String owner, Property p, long line, JsonValues.Problem problem) {
    ScalarKind k = problem.kind();
    JsonNode v = problem.got();
    return switch (problem.reason()) {
      case MISMATCH -> LoadRule.TYPE_MISMATCH.at(line, p.name(), "strict property '" + p.name() + "' expects "
          + (k == null ? ArrowValues.typeName(p.type()) : ArrowValues.typeName(k)) + ", got " + describe(v));
      case ENUM_VALUE -> LoadRule.ENUM_VALUE.at(line, p.name(), "invalid enum value '" + v.asText() + "' for " + owner
          + "." + p.name() + " (expected: " + String.join(", ", ((PropertyType.EnumOf) p.type()).values()) + ")");
      case VECTOR_LENGTH -> LoadRule.VECTOR_LENGTH.at(line, p.name(), "vector property '" + p.name() + "' expects "
          + ((PropertyType.VectorOf) p.type()).dimension() + " values, got " + problem.index());
      case NULL_ITEM -> p.type() instanceof PropertyType.VectorOf
          ? LoadRule.LIST_NULL_ITEM.at(line, p.name(), "vector property '" + p.name() + "' contains a null item")
          : LoadRule.LIST_NULL_ITEM.at(line, p.name(), "strict list property '" + p.name() + "' contains a null or invalid item");
      case INTEGER_RANGE -> overflow(p, k, problem.value(), line);
      case FLOAT_RANGE -> Double.isInfinite(v.doubleValue())
          ? overflow(p, k, v.asText(), line)
          : LoadRule.OUT_OF_RANGE.at(line, p.name(), "property '" + p.name() + "' value " + v.asText() + " is not finite as Float32");
      case BAD_DATE -> LoadRule.TYPE_MISMATCH.at(line, p.name(),
          "strict property '" + p.name() + "' expects Date32 (\"YYYY-MM-DD\" or epoch days), got " + describe(v));
      case BAD_DATE_TIME -> LoadRule.TYPE_MISMATCH.at(line, p.name(),
          "strict property '" + p.name() + "' expects Date64 (RFC 3339 date-time or epoch milliseconds), got " + describe(v));
      case BLOB_NOT_MANAGED -> LoadRule.INVALID_BLOB.at(line, p.name(), "blob property '" + p.name()
          + "' accepts only managed \"base64:<data>\" values; external blob URIs are not supported");
      case BLOB_BASE64 -> LoadRule.INVALID_BLOB.at(line, p.name(), "blob property '" + p.name()
          + "' has invalid base64 data: " + problem.detail());
      case BAD_STRING -> throw new IllegalStateException("load strings are not checked for surrogates: " + problem);
    };
  }

  private static InvalidInputException overflow(Property p, ScalarKind k, Object v, long line) {
    return LoadRule.OUT_OF_RANGE.at(line, p.name(), "property '" + p.name() + "' value " + v + " exceeds " + ArrowValues.typeName(k) + " range");
  }
}
