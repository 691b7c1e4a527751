package io.omnigraph.engine.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.omnigraph.engine.gq.Coercions;
import io.omnigraph.engine.gq.ParamText;
import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryException;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Scalars;
import io.omnigraph.engine.value.JsonValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks supplied parameter values against a query's declarations and converts them to the
 * in-memory representation of each declared type ({@link Coercions}), before any I/O.
 *
 * <p>Rules: every supplied name must be declared ({@code extra} values are an error, which catches
 * misspelled names); a non-nullable parameter must be supplied and non-null; a nullable one that is
 * omitted binds to null. Accepted value forms:
 *
 * <ul>
 *   <li>{@link JsonNode} (from {@code --params-json} / an HTTP body), with the JSON rules of
 *       the query language's parameters: String needs a JSON string; I32/U32 integers
 *       (range-checked); I64/U64
 *       integers or decimal-integer strings (so 64-bit values survive JavaScript clients);
 *       F32/F64 numbers (or {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}); Bool
 *       booleans; Date {@code "YYYY-MM-DD"} strings; DateTime RFC 3339 strings; Blob {@code
 *       "base64:<data>"} strings; lists and vectors arrays without null items; objects never.
 *   <li>{@link ParamText} (from {@code --param k=v}): parsed by the declared type.
 *   <li>Plain Java values, read like the equivalent JSON: {@link String}, {@link Boolean}, integral
 *       {@link Number}s, floating {@link Number}s, {@link Collection}s; also {@link LocalDate} for
 *       Date, {@link Instant}/{@link OffsetDateTime} for DateTime, {@code byte[]} for Blob and
 *       {@code float[]} for vectors.
 *   <li>{@code null}.
 * </ul>
 */
public final class ParamBinder {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

  private ParamBinder() {}

  /**
   * @param decls the declared parameters
   * @param supplied supplied values by name (without {@code $}); may be empty
   * @return every declared parameter → its value in the declared type's representation (null for
   *     an omitted or null nullable parameter), in declaration order
   * @throws QueryException PARAM_VALUE for an undeclared name, a missing or null non-nullable
   *     parameter, or a value that does not fit the declared type
   */
  public static Map<String, Object> bindValues(List<ParamDecl> decls, Map<String, ?> supplied) throws QueryException {
    Map<String, ParamDecl> byName = new LinkedHashMap<>();
    decls.forEach(d -> byName.put(d.name(), d));
    Set<String> extra = new TreeSet<>();
    for (String k : supplied.keySet()) {
      String name = k.startsWith("$") ? k.substring(1) : k;
      if (!byName.containsKey(name)) {
        extra.add(k);
      }
    }
    if (!extra.isEmpty()) {
      throw QueryException.param("unknown parameter" + (extra.size() > 1 ? "s " : " ") + String.join(", ", extra.stream().map(n -> "'" + n + "'").toList())
          + "; declared: " + (byName.isEmpty() ? "none" : String.join(", ", byName.values().stream().map(d -> "$" + d.name() + ": " + d.typeSpelling()).toList())));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (ParamDecl d : decls) {
      Object raw;
      boolean present;
      if (supplied.containsKey(d.name())) {
        raw = supplied.get(d.name());
        present = true;
      } else if (supplied.containsKey("$" + d.name())) {
        raw = supplied.get("$" + d.name());
        present = true;
      } else {
        raw = null;
        present = false;
      }
      if (raw instanceof JsonNode j && j.isNull()) {
        raw = null;
      }
      if (raw == null) {
        if (!d.nullable()) {
          throw QueryException.param(present
              ? "param '" + d.name() + "': null is not accepted for non-nullable parameter ($" + d.name() + ": " + d.typeSpelling() + ")"
              : "parameter '" + d.name() + "' not provided ($" + d.name() + ": " + d.typeSpelling() + ")");
        }
        out.put(d.name(), null);
        continue;
      }
      out.put(d.name(), convert(d, raw));
    }
    return out;
  }

  private static Object convert(ParamDecl d, Object raw) throws QueryException {
    if (raw instanceof ParamText t) {
      return fromText(d, t.text());
    }
    if (raw instanceof JsonNode j) {
      return fromJson(d, d.type(), j);
    }
    if (raw instanceof byte[] b && isScalar(d.type(), ScalarKind.BLOB)) {
      return b.clone();
    }
    if (raw instanceof float[] f && d.type() instanceof PropertyType.VectorOf v) {
      if (f.length != v.dimension()) {
        throw mismatch(d, "a vector of " + v.dimension() + " values", f.length + " values");
      }
      return f.clone();
    }
    if (raw instanceof LocalDate date && isScalar(d.type(), ScalarKind.DATE)) {
      return Math.toIntExact(date.toEpochDay());
    }
    if (raw instanceof Instant i && isScalar(d.type(), ScalarKind.DATE_TIME)) {
      return i.toEpochMilli();
    }
    if (raw instanceof OffsetDateTime o && isScalar(d.type(), ScalarKind.DATE_TIME)) {
      return o.toInstant().toEpochMilli();
    }
    return fromJson(d, d.type(), toJson(d, raw));
  }

  private static boolean isScalar(PropertyType t, ScalarKind k) {
    return t instanceof PropertyType.Scalar s && s.kind() == k;
  }

  private static JsonNode toJson(ParamDecl d, Object raw) throws QueryException {
    if (raw instanceof String s) {
      return NODES.textNode(s);
    }
    if (raw instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte) {
      return NODES.numberNode(((Number) raw).longValue());
    }
    if (raw instanceof BigInteger b) {
      return NODES.numberNode(b);
    }
    if (raw instanceof Float f) {
      return Float.isFinite(f) ? NODES.numberNode(new BigDecimal(Float.toString(f))) : NODES.textNode(Float.toString(f));
    }
    if (raw instanceof Double x) {
      return Double.isFinite(x) ? NODES.numberNode(new BigDecimal(Double.toString(x))) : NODES.textNode(Double.toString(x));
    }
    if (raw instanceof BigDecimal b) {
      return NODES.numberNode(b);
    }
    if (raw instanceof Collection<?> c) {
      ArrayNode a = NODES.arrayNode();
      for (Object o : c) {
        a.add(o == null ? NODES.nullNode() : toJson(d, o));
      }
      return a;
    }
    throw mismatch(d, d.typeSpelling(), "a " + raw.getClass().getName());
  }

  /**
   * Reads {@code --param} text by the declared type: lists and vectors as a JSON array; Bool, the
   * integers and the floats by their own spelling; every other type as a JSON string. The value is
   * then converted like JSON.
   */
  private static Object fromText(ParamDecl d, String text) throws QueryException {
    PropertyType t = d.type();
    if (t instanceof PropertyType.ListOf || t instanceof PropertyType.VectorOf) {
      JsonNode node;
      try {
        node = JSON.readTree(text);
      } catch (JsonProcessingException | NumberFormatException e) {
        throw mismatch(d, "a JSON array", "'" + abbreviate(text) + "'");
      }
      if (node == null || !node.isArray()) {
        throw mismatch(d, "a JSON array", "'" + abbreviate(text) + "'");
      }
      return fromJson(d, t, node);
    }
    ScalarKind k = ((PropertyType.Scalar) t).kind();
    JsonNode spelled = switch (k) {
      case BOOL -> {
        if (text.equals("true") || text.equals("false")) {
          yield NODES.booleanNode(Boolean.parseBoolean(text));
        }
        throw mismatch(d, "true or false", "'" + abbreviate(text) + "'");
      }
      case I32, I64, U32, U64 -> {
        try {
          yield NODES.numberNode(new BigInteger(text));
        } catch (NumberFormatException e) {
          throw mismatch(d, "an integer", "'" + abbreviate(text) + "'");
        }
      }
      case F32, F64 -> {
        if (Scalars.nonFinite(text) != null) {
          yield NODES.textNode(text);
        }
        try {
          yield NODES.numberNode(new BigDecimal(text));
        } catch (NumberFormatException e) {
          throw mismatch(d, "a number", "'" + abbreviate(text) + "'");
        }
      }
      default -> NODES.textNode(text);
    };
    return fromJson(d, t, spelled);
  }

  private static Object fromJson(ParamDecl d, PropertyType t, JsonNode v) throws QueryException {
    if (v.isObject()) {
      throw mismatch(d, t.spelling(), "a JSON object");
    }
    return JsonValues.read(t, v, JsonValues.Spelling.PARAM, problem -> refuse(d, t, problem));
  }

  /** Words a refused parameter value. */
  private static QueryException refuse(ParamDecl d, PropertyType t, JsonValues.Problem problem) {
    ScalarKind k = problem.kind();
    JsonNode v = problem.got();
    return switch (problem.reason()) {
      case MISMATCH -> k != null
          ? mismatch(d, k.spelling(), describe(v))
          : t instanceof PropertyType.VectorOf vec
              ? mismatch(d, "an array of " + vec.dimension() + " numbers", describe(v))
              : mismatch(d, "an array", describe(v));
      case VECTOR_LENGTH -> mismatch(d, "an array of " + ((PropertyType.VectorOf) t).dimension() + " numbers",
          problem.index() + " values");
      case NULL_ITEM -> mismatch(d, t instanceof PropertyType.VectorOf ? "numbers only" : "no null items",
          "a null item at index " + problem.index());
      case INTEGER_RANGE -> QueryException.param("param '" + d.name() + "': value " + problem.value()
          + " is out of range for " + k.spelling());
      case FLOAT_RANGE -> QueryException.param("param '" + d.name() + "': value "
          + ((BigDecimal) problem.value()).toPlainString() + " is not finite as " + k.spelling());
      case BAD_DATE -> mismatch(d, "a date \"YYYY-MM-DD\"", describe(v));
      case BAD_DATE_TIME -> mismatch(d, "an RFC 3339 date-time", describe(v));
      case BLOB_NOT_MANAGED -> mismatch(d, "\"base64:<data>\" (external blob URIs are not supported)", describe(v));
      case BLOB_BASE64 -> mismatch(d, "valid base64 after 'base64:'", describe(v));
      case BAD_STRING -> QueryException.param("param '" + d.name() + "': the string " + problem.detail());
      case ENUM_VALUE -> throw new IllegalStateException("a parameter type is never an enum: " + problem);
    };
  }

  private static QueryException mismatch(ParamDecl d, String expected, String found) {
    return QueryException.param("param '" + d.name() + "' ($" + d.name() + ": " + d.typeSpelling() + ") expects " + expected + ", got " + found);
  }

  private static String describe(JsonNode v) {
    return abbreviate(v.toString());
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }
}
