package io.omnigraph.engine.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.value.Scalars;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The loader's strict reading of JSON input values into the value representation ({@link
 * Scalars}), with each refusal reported as the load error of its line and field. The scalar
 * conversions themselves (date and date-time parsing, integer ranges, Blob decoding) are {@link
 * Scalars}'.
 *
 * <p>Accepted JSON: integers for integer types (range-checked), numbers for floats (and the
 * strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} that export writes), {@code
 * "YYYY-MM-DD"} or integer days for Date, an RFC 3339 / ISO-8601 string (offset optional, UTC
 * assumed; a bare date means midnight UTC) or integer milliseconds for DateTime, {@code
 * "base64:<data>"} for Blob.
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
    PropertyType t = p.type();
    if (t instanceof PropertyType.EnumOf e) {
      if (!v.isTextual()) {
        throw mismatch(p, v, line);
      }
      if (!e.values().contains(v.asText())) {
        throw LoadRule.ENUM_VALUE.at(line, p.name(),
            "invalid enum value '" + v.asText() + "' for " + owner + "." + p.name() + " (expected: " + String.join(", ", e.values()) + ")");
      }
      return v.asText();
    }
    if (t instanceof PropertyType.VectorOf vec) {
      if (!v.isArray()) {
        throw mismatch(p, v, line);
      }
      if (v.size() != vec.dimension()) {
        throw LoadRule.VECTOR_LENGTH.at(line, p.name(),
            "vector property '" + p.name() + "' expects " + vec.dimension() + " values, got " + v.size());
      }
      float[] out = new float[vec.dimension()];
      for (int i = 0; i < out.length; i++) {
        JsonNode item = v.get(i);
        if (item.isNull()) {
          throw LoadRule.LIST_NULL_ITEM.at(line, p.name(), "vector property '" + p.name() + "' contains a null item");
        }
        out[i] = (Float) scalar(p, ScalarKind.F32, item, line);
      }
      return out;
    }
    if (t instanceof PropertyType.ListOf l) {
      if (!v.isArray()) {
        throw mismatch(p, v, line);
      }
      List<Object> out = new ArrayList<>(v.size());
      for (JsonNode item : v) {
        if (item.isNull()) {
          throw LoadRule.LIST_NULL_ITEM.at(line, p.name(), "strict list property '" + p.name() + "' contains a null or invalid item");
        }
        out.add(scalar(p, l.item(), item, line));
      }
      return List.copyOf(out);
    }
    return scalar(p, ((PropertyType.Scalar) t).kind(), v, line);
  }

  private static InvalidInputException mismatch(Property p, JsonNode v, long line) {
    return LoadRule.TYPE_MISMATCH.at(line, p.name(),
        "strict property '" + p.name() + "' expects " + ArrowValues.typeName(p.type()) + ", got " + describe(v));
  }

  private static InvalidInputException mismatch(Property p, ScalarKind k, JsonNode v, long line) {
    return LoadRule.TYPE_MISMATCH.at(line, p.name(),
        "strict property '" + p.name() + "' expects " + ArrowValues.typeName(k) + ", got " + describe(v));
  }

  private static InvalidInputException overflow(Property p, ScalarKind k, Object v, long line) {
    return LoadRule.OUT_OF_RANGE.at(line, p.name(), "property '" + p.name() + "' value " + v + " exceeds " + ArrowValues.typeName(k) + " range");
  }

  private static Object scalar(Property p, ScalarKind k, JsonNode v, long line) {
    switch (k) {
      case STRING -> {
        if (!v.isTextual()) {
          throw mismatch(p, k, v, line);
        }
        return v.asText();
      }
      case BOOL -> {
        if (!v.isBoolean()) {
          throw mismatch(p, k, v, line);
        }
        return v.asBoolean();
      }
      case I32, I64, U32, U64 -> {
        if (!v.isIntegralNumber()) {
          throw mismatch(p, k, v, line);
        }
        BigInteger b = v.bigIntegerValue();
        Object fitted = Scalars.integral(b, k);
        if (fitted == null) {
          throw overflow(p, k, b, line);
        }
        return fitted;
      }
      case F32, F64 -> {
        double d;
        float f;
        if (v.isNumber()) {
          // Narrow from the exact decimal (the loader reads floats as BigDecimal) so F32 values
          // are rounded once, as a direct decimal-to-float parse would.
          d = v.doubleValue();
          f = v.isBigDecimal() ? v.decimalValue().floatValue() : (float) d;
        } else if (v.isTextual() && Scalars.nonFinite(v.asText()) != null) {
          d = Scalars.nonFinite(v.asText());
          f = (float) d;
        } else {
          throw mismatch(p, k, v, line);
        }
        if (v.isNumber() && Double.isInfinite(d)) {
          throw overflow(p, k, v.asText(), line);
        }
        if (k == ScalarKind.F64) {
          return d;
        }
        if (v.isNumber() && Float.isInfinite(f)) {
          throw LoadRule.OUT_OF_RANGE.at(line, p.name(),
              "property '" + p.name() + "' value " + v.asText() + " is not finite as Float32");
        }
        return f;
      }
      case DATE -> {
        if (v.isIntegralNumber()) {
          if (!v.canConvertToInt()) {
            throw overflow(p, k, v.asText(), line);
          }
          return v.intValue();
        }
        if (!v.isTextual()) {
          throw mismatch(p, k, v, line);
        }
        Integer day = Scalars.parseDate(v.asText());
        if (day == null) {
          throw LoadRule.TYPE_MISMATCH.at(line, p.name(),
              "strict property '" + p.name() + "' expects Date32 (\"YYYY-MM-DD\" or epoch days), got " + describe(v));
        }
        return day;
      }
      case DATE_TIME -> {
        if (v.isIntegralNumber()) {
          if (!v.canConvertToLong()) {
            throw overflow(p, k, v.asText(), line);
          }
          return v.longValue();
        }
        if (!v.isTextual()) {
          throw mismatch(p, k, v, line);
        }
        Long ms = Scalars.parseDateTime(v.asText());
        if (ms == null) {
          throw LoadRule.TYPE_MISMATCH.at(line, p.name(),
              "strict property '" + p.name() + "' expects Date64 (RFC 3339 date-time or epoch milliseconds), got " + describe(v));
        }
        return ms;
      }
      case BLOB -> {
        if (!v.isTextual()) {
          throw mismatch(p, k, v, line);
        }
        String s = v.asText();
        if (!Scalars.isManagedBlob(s)) {
          throw LoadRule.INVALID_BLOB.at(line, p.name(),
              "blob property '" + p.name() + "' accepts only managed \"base64:<data>\" values; external blob URIs are not supported");
        }
        try {
          return Scalars.decodeBlob(s);
        } catch (IllegalArgumentException e) {
          throw LoadRule.INVALID_BLOB.at(line, p.name(), "blob property '" + p.name() + "' has invalid base64 data: " + e.getMessage());
        }
      }
      default -> throw new IllegalStateException("unhandled scalar " + k);
    }
  }
}
