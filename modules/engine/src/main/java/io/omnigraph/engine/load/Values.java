package io.omnigraph.engine.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Strict conversion of JSON input values to the loader's in-memory representation, and back.
 *
 * <p>Representation by type: String and enum → {@link String}; Bool → {@link Boolean}; I32 →
 * {@link Integer}; I64 → {@link Long}; U32 → {@link Long} (0 .. 2^32-1); U64 → {@link Long}
 * holding the unsigned 64-bit pattern; F32 → {@link Float}; F64 → {@link Double}; Date → {@link
 * Integer} epoch days; DateTime → {@link Long} epoch milliseconds; Vector(n) → {@code float[n]};
 * {@code [T]} → {@code List} of T's representation; Blob → {@code byte[]} (managed bytes). Null
 * is {@code null}.
 *
 * <p>Accepted JSON: integers for integer types (range-checked), numbers for floats (and the
 * strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} that export writes), {@code
 * "YYYY-MM-DD"} or integer days for Date, an RFC 3339 / ISO-8601 string (offset optional, UTC
 * assumed; a bare date means midnight UTC) or integer milliseconds for DateTime, {@code
 * "base64:<data>"} for Blob.
 */
public final class Values {
  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final DateTimeFormatter EXPORT_DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Values() {}

  /**
   * @param type a property type
   * @return the Arrow type name used in messages, e.g. {@code Int32}
   */
  public static String arrowName(PropertyType type) {
    if (type instanceof PropertyType.EnumOf) {
      return "Utf8";
    }
    if (type instanceof PropertyType.VectorOf v) {
      return "FixedSizeList(" + v.dimension() + " x Float32)";
    }
    if (type instanceof PropertyType.ListOf l) {
      return "List(" + scalarName(l.item()) + ")";
    }
    return scalarName(((PropertyType.Scalar) type).kind());
  }

  private static String scalarName(ScalarKind k) {
    return switch (k) {
      case STRING -> "Utf8";
      case BLOB -> "LargeBinary";
      case BOOL -> "Boolean";
      case I32 -> "Int32";
      case I64 -> "Int64";
      case U32 -> "UInt32";
      case U64 -> "UInt64";
      case F32 -> "Float32";
      case F64 -> "Float64";
      case DATE -> "Date32";
      case DATE_TIME -> "Date64";
    };
  }

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
        "strict property '" + p.name() + "' expects " + arrowName(p.type()) + ", got " + describe(v));
  }

  private static InvalidInputException mismatch(Property p, ScalarKind k, JsonNode v, long line) {
    return LoadRule.TYPE_MISMATCH.at(line, p.name(),
        "strict property '" + p.name() + "' expects " + scalarName(k) + ", got " + describe(v));
  }

  private static InvalidInputException overflow(Property p, ScalarKind k, Object v, long line) {
    return LoadRule.OUT_OF_RANGE.at(line, p.name(), "property '" + p.name() + "' value " + v + " exceeds " + scalarName(k) + " range");
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
        BigInteger min = switch (k) {
          case I32 -> BigInteger.valueOf(Integer.MIN_VALUE);
          case I64 -> BigInteger.valueOf(Long.MIN_VALUE);
          default -> BigInteger.ZERO;
        };
        BigInteger max = switch (k) {
          case I32 -> BigInteger.valueOf(Integer.MAX_VALUE);
          case I64 -> BigInteger.valueOf(Long.MAX_VALUE);
          case U32 -> BigInteger.valueOf(0xffff_ffffL);
          default -> U64_MAX;
        };
        if (b.compareTo(min) < 0 || b.compareTo(max) > 0) {
          throw overflow(p, k, b, line);
        }
        return k == ScalarKind.I32 ? (Object) b.intValue() : (Object) b.longValue();
      }
      case F32, F64 -> {
        double d;
        float f;
        if (v.isNumber()) {
          // Narrow from the exact decimal (the loader reads floats as BigDecimal) so F32 values
          // are rounded once, as a direct decimal-to-float parse would.
          d = v.doubleValue();
          f = v.isBigDecimal() ? v.decimalValue().floatValue() : (float) d;
        } else if (v.isTextual() && (v.asText().equals("NaN") || v.asText().equals("Infinity") || v.asText().equals("-Infinity"))) {
          d = Double.parseDouble(v.asText());
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
        try {
          return Math.toIntExact(LocalDate.parse(v.asText()).toEpochDay());
        } catch (DateTimeParseException | ArithmeticException e) {
          throw LoadRule.TYPE_MISMATCH.at(line, p.name(),
              "strict property '" + p.name() + "' expects Date32 (\"YYYY-MM-DD\" or epoch days), got " + describe(v));
        }
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
        Long ms = parseDateTime(v.asText());
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
        if (!s.startsWith("base64:")) {
          throw LoadRule.INVALID_BLOB.at(line, p.name(),
              "blob property '" + p.name() + "' accepts only managed \"base64:<data>\" values; external blob URIs are not supported");
        }
        try {
          return Base64.getDecoder().decode(s.substring("base64:".length()));
        } catch (IllegalArgumentException e) {
          throw LoadRule.INVALID_BLOB.at(line, p.name(), "blob property '" + p.name() + "' has invalid base64 data: " + e.getMessage());
        }
      }
      default -> throw new IllegalStateException("unhandled scalar " + k);
    }
  }

  static Long parseDateTime(String s) {
    try {
      return OffsetDateTime.parse(s).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      // fall through: try the other accepted spellings
    }
    try {
      return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      // fall through
    }
    try {
      return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** @return the export spelling of an epoch-day Date */
  static String formatDate(int epochDay) {
    return LocalDate.ofEpochDay(epochDay).toString();
  }

  /** @return the export spelling {@code YYYY-MM-DDTHH:MM:SS.sssZ} of an epoch-ms DateTime */
  static String formatDateTime(long epochMillis) {
    return EXPORT_DATE_TIME.format(Instant.ofEpochMilli(epochMillis));
  }
}
