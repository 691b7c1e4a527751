package io.omnigraph.engine.value;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The one reading of a JSON value into the engine's in-memory representation ({@link Scalars}),
 * for every property type: NDJSON load input and {@code .gq} parameters given as JSON (or as Java
 * values and {@code --param} text, which the binder first spells as JSON) both go through it.
 *
 * <p>The two inputs accept the same spellings except where a {@link Spelling} says otherwise. A
 * value that does not fit is reported as a {@link Problem} to the caller's {@link Refusal}, which
 * words the error its users see (a load error of a line and field, or a parameter error); this
 * class builds no engine error itself.
 *
 * <p>Accepted JSON, for both: a string for String and enum values (an enum's value must be one of
 * its set); {@code true}/{@code false} for Bool; an integer for I32/I64/U32/U64 (range-checked); a
 * number for F32/F64, rounded once from its exact decimal value to the stored width (a finite
 * number that rounds to infinity does not fit), or one of the strings {@code "NaN"}, {@code
 * "Infinity"}, {@code "-Infinity"}; {@code "YYYY-MM-DD"} for Date; an RFC 3339 / ISO-8601 string for
 * DateTime ({@link Scalars#parseDateTime}); {@code "base64:<data>"} for Blob; an array of the exact
 * dimension without null items for a vector; an array without null items for a list.
 */
public final class JsonValues {
  private JsonValues() {}

  /** Where the value comes from, and so which extra spellings it accepts. */
  public enum Spelling {
    /**
     * NDJSON load input: also integer epoch days for Date and integer epoch milliseconds for
     * DateTime (what older exports wrote).
     */
    LOAD,
    /**
     * A query parameter: also decimal-integer strings for I64/U64 (so 64-bit values survive
     * JavaScript clients); strings must be well-formed UTF-16 (a parameter may come from a Java
     * caller, not only from decoded JSON text).
     */
    PARAM
  }

  /** Why a value does not fit. */
  public enum Reason {
    /** the JSON kind is wrong (a number for a String, a string for a vector...) */
    MISMATCH,
    /** an integer outside the kind's range ({@link Problem#value} is the {@link BigInteger}) */
    INTEGER_RANGE,
    /** a finite number that is not finite at the kind's width ({@link Problem#value} is its decimal) */
    FLOAT_RANGE,
    /** a string that is not a {@code YYYY-MM-DD} date */
    BAD_DATE,
    /** a string that is not an accepted date-time */
    BAD_DATE_TIME,
    /** an array of the wrong length for a vector ({@link Problem#index} is the length given) */
    VECTOR_LENGTH,
    /** a null item of a vector or list ({@link Problem#index} is its position) */
    NULL_ITEM,
    /** a string outside an enum's set */
    ENUM_VALUE,
    /** a Blob string that is not a managed {@code base64:} value */
    BLOB_NOT_MANAGED,
    /** a {@code base64:} value whose data is not Base64 ({@link Problem#detail} says why) */
    BLOB_BASE64,
    /** a string with an unpaired surrogate ({@link Problem#detail} names it) */
    BAD_STRING
  }

  /**
   * A value that does not fit.
   *
   * @param reason why
   * @param kind the scalar kind the refused value was read as, or null when the refusal is about
   *     the whole value of a vector, list or enum type (its shape or set)
   * @param got the refused JSON value (an item for item-level refusals)
   * @param value the number that is out of range, for the two range reasons; else null
   * @param index the position of a null item, or the length of a wrong-length vector; else -1
   * @param detail the unpaired surrogate or the Base64 decoder's message; else null
   */
  public record Problem(Reason reason, ScalarKind kind, JsonNode got, Object value, int index, String detail) {
    static Problem of(Reason reason, ScalarKind kind, JsonNode got) {
      return new Problem(reason, kind, got, null, -1, null);
    }
  }

  /**
   * Turns a {@link Problem} into the caller's error.
   *
   * @param <E> the error type
   */
  @FunctionalInterface
  public interface Refusal<E extends Exception> {
    /** @return the error to throw for {@code problem} */
    E refuse(Problem problem);
  }

  /**
   * Reads one non-null JSON value of {@code type}.
   *
   * @param type the property or parameter type
   * @param v a JSON value other than JSON null
   * @param spelling which extra spellings are accepted
   * @param refusal words the error for a value that does not fit
   * @return the value in the in-memory representation
   * @throws E the refusal's error
   */
  public static <E extends Exception> Object read(PropertyType type, JsonNode v, Spelling spelling, Refusal<E> refusal)
      throws E {
    if (type instanceof PropertyType.EnumOf e) {
      if (!v.isTextual()) {
        throw refusal.refuse(Problem.of(Reason.MISMATCH, null, v));
      }
      if (!e.values().contains(v.asText())) {
        throw refusal.refuse(Problem.of(Reason.ENUM_VALUE, null, v));
      }
      return v.asText();
    }
    if (type instanceof PropertyType.VectorOf vec) {
      if (!v.isArray()) {
        throw refusal.refuse(Problem.of(Reason.MISMATCH, null, v));
      }
      if (v.size() != vec.dimension()) {
        throw refusal.refuse(new Problem(Reason.VECTOR_LENGTH, null, v, null, v.size(), null));
      }
      float[] out = new float[vec.dimension()];
      for (int i = 0; i < out.length; i++) {
        JsonNode item = v.get(i);
        if (item.isNull()) {
          throw refusal.refuse(new Problem(Reason.NULL_ITEM, null, item, null, i, null));
        }
        out[i] = (Float) scalar(ScalarKind.F32, item, spelling, refusal);
      }
      return out;
    }
    if (type instanceof PropertyType.ListOf l) {
      if (!v.isArray()) {
        throw refusal.refuse(Problem.of(Reason.MISMATCH, null, v));
      }
      List<Object> out = new ArrayList<>(v.size());
      for (int i = 0; i < v.size(); i++) {
        JsonNode item = v.get(i);
        if (item.isNull()) {
          throw refusal.refuse(new Problem(Reason.NULL_ITEM, null, item, null, i, null));
        }
        out.add(scalar(l.item(), item, spelling, refusal));
      }
      return List.copyOf(out);
    }
    return scalar(((PropertyType.Scalar) type).kind(), v, spelling, refusal);
  }

  /**
   * Reads one non-null JSON value of a scalar kind.
   *
   * @see #read
   */
  public static <E extends Exception> Object scalar(ScalarKind k, JsonNode v, Spelling spelling, Refusal<E> refusal)
      throws E {
    switch (k) {
      case STRING -> {
        if (v.isTextual()) {
          String s = v.asText();
          String problem = spelling == Spelling.PARAM ? Utf16.problem(s) : null;
          if (problem != null) {
            throw refusal.refuse(new Problem(Reason.BAD_STRING, k, v, null, -1, problem));
          }
          return s;
        }
      }
      case BOOL -> {
        if (v.isBoolean()) {
          return v.asBoolean();
        }
      }
      case I32, I64, U32, U64 -> {
        BigInteger b = null;
        if (v.isIntegralNumber()) {
          b = v.bigIntegerValue();
        } else if (spelling == Spelling.PARAM && v.isTextual() && (k == ScalarKind.I64 || k == ScalarKind.U64)
            && v.asText().matches("-?[0-9]+")) {
          b = new BigInteger(v.asText());
        }
        if (b != null) {
          Object fitted = Scalars.integral(b, k);
          if (fitted == null) {
            throw refusal.refuse(new Problem(Reason.INTEGER_RANGE, k, v, b, -1, null));
          }
          return fitted;
        }
      }
      case F32, F64 -> {
        if (v.isNumber()) {
          Object fitted = Scalars.floating(v.decimalValue(), k);
          if (fitted == null) {
            throw refusal.refuse(new Problem(Reason.FLOAT_RANGE, k, v, v.decimalValue(), -1, null));
          }
          return fitted;
        }
        Double nonFinite = v.isTextual() ? Scalars.nonFinite(v.asText()) : null;
        if (nonFinite != null) {
          double x = nonFinite;
          return k == ScalarKind.F32 ? (Object) (float) x : (Object) x;
        }
      }
      case DATE -> {
        if (spelling == Spelling.LOAD && v.isIntegralNumber()) {
          if (!v.canConvertToInt()) {
            throw refusal.refuse(new Problem(Reason.INTEGER_RANGE, k, v, v.bigIntegerValue(), -1, null));
          }
          return v.intValue();
        }
        if (v.isTextual()) {
          Integer days = Scalars.parseDate(v.asText());
          if (days == null) {
            throw refusal.refuse(Problem.of(Reason.BAD_DATE, k, v));
          }
          return days;
        }
      }
      case DATE_TIME -> {
        if (spelling == Spelling.LOAD && v.isIntegralNumber()) {
          if (!v.canConvertToLong()) {
            throw refusal.refuse(new Problem(Reason.INTEGER_RANGE, k, v, v.bigIntegerValue(), -1, null));
          }
          return v.longValue();
        }
        if (v.isTextual()) {
          Long ms = Scalars.parseDateTime(v.asText());
          if (ms == null) {
            throw refusal.refuse(Problem.of(Reason.BAD_DATE_TIME, k, v));
          }
          return ms;
        }
      }
      case BLOB -> {
        if (v.isBinary()) {
          try {
            return v.binaryValue();
          } catch (IOException e) {
            throw new UncheckedIOException(e); // a binary node holds its bytes; it cannot fail
          }
        }
        if (v.isTextual()) {
          String s = v.asText();
          if (!Scalars.isManagedBlob(s)) {
            throw refusal.refuse(Problem.of(Reason.BLOB_NOT_MANAGED, k, v));
          }
          try {
            return Scalars.decodeBlob(s);
          } catch (IllegalArgumentException e) {
            throw refusal.refuse(new Problem(Reason.BLOB_BASE64, k, v, null, -1, e.getMessage()));
          }
        }
      }
      default -> throw new IllegalStateException("unhandled scalar " + k);
    }
    throw refusal.refuse(Problem.of(Reason.MISMATCH, k, v));
  }
}
