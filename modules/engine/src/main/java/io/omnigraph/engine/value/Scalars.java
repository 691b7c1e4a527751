package io.omnigraph.engine.value;

import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * The one copy of each scalar conversion from written text and numbers into the engine's in-memory
 * representation, shared by NDJSON loading, {@code .gq} literals and query parameters.
 *
 * <p>The representation (also what {@link ArrowValues} reads and writes): String and enum → {@link
 * String}; Bool → {@link Boolean}; I32 → {@link Integer}; I64 → {@link Long}; U32 → {@link Long}
 * (0 .. 2^32-1); U64 → {@link Long} holding the unsigned 64-bit pattern; F32 → {@link Float}; F64 →
 * {@link Double}; Date → {@link Integer} epoch days; DateTime → {@link Long} epoch milliseconds (UTC);
 * Vector(n) → {@code float[n]}; {@code [T]} → unmodifiable {@code List} of T's representation; Blob →
 * {@code byte[]}. Null is {@code null}.
 *
 * <p>Each method answers "does not fit" with {@code null} (or, for Base64, the decoder's exception),
 * never with an engine error: the caller knows the input (a load line, a literal, a parameter) and
 * builds the error its users see.
 */
public final class Scalars {
  /** The prefix of a managed Blob value written as text: {@code base64:<data>}. */
  public static final String BLOB_PREFIX = "base64:";

  private static final BigInteger U32_MAX = BigInteger.valueOf(0xffff_ffffL);
  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final DateTimeFormatter EXPORT_DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Scalars() {}

  /**
   * @param b an integer
   * @param k an integer kind (I32, I64, U32, U64)
   * @return the value in {@code k}'s representation, or null when it is out of {@code k}'s range
   */
  public static Object integral(BigInteger b, ScalarKind k) {
    return switch (k) {
      case I32 -> b.bitLength() < 32 ? (Object) b.intValue() : null;
      case I64 -> b.bitLength() < 64 ? (Object) b.longValue() : null;
      case U32 -> b.signum() >= 0 && b.compareTo(U32_MAX) <= 0 ? (Object) b.longValue() : null;
      case U64 -> b.signum() >= 0 && b.compareTo(U64_MAX) <= 0 ? (Object) b.longValue() : null;
      default -> throw new IllegalArgumentException(k + " is not an integer type");
    };
  }

  /**
   * @param d a decimal number
   * @param k F32 or F64
   * @return the value correctly rounded to {@code k}, or null when it overflows to infinity
   */
  public static Object floating(BigDecimal d, ScalarKind k) {
    if (k == ScalarKind.F32) {
      float f = d.floatValue();
      return Float.isInfinite(f) ? null : (Object) f;
    }
    double v = d.doubleValue();
    return Double.isInfinite(v) ? null : (Object) v;
  }

  /**
   * @param text a string value given for a float
   * @return NaN or an infinity for the spellings export writes ({@code "NaN"}, {@code "Infinity"},
   *     {@code "-Infinity"}), else null
   */
  public static Double nonFinite(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> null;
    };
  }

  /**
   * Converts a value of one numeric kind to another (a parameter declared I32 written to an I64
   * column, an F64 parameter compared with an F32 column...). Integers go through their exact
   * value; F64 to F32 rounds once, and a finite F64 that is infinite as F32 does not fit.
   *
   * @param v a non-null value in {@code from}'s representation
   * @param from its kind
   * @param to the target kind (the same, or both numeric with an integer target only from an integer)
   * @return the value in {@code to}'s representation, or null when it does not fit
   */
  public static Object widenOrNarrow(Object v, ScalarKind from, ScalarKind to) {
    if (from == to) {
      return v;
    }
    if (from.isInteger()) {
      BigInteger b = integerValue(v, from);
      return to.isInteger() ? integral(b, to) : floating(new BigDecimal(b), to);
    }
    if (from == ScalarKind.F64 && to == ScalarKind.F32) {
      double d = (Double) v;
      float f = (float) d;
      return !Double.isInfinite(d) && Float.isInfinite(f) ? null : (Object) f;
    }
    if (from == ScalarKind.F32 && to == ScalarKind.F64) {
      return (double) (Float) v;
    }
    throw new IllegalArgumentException("no conversion " + from + " -> " + to);
  }

  /**
   * @param v a value of an integer kind
   * @param k its kind (U64 values are the unsigned 64-bit pattern)
   * @return its exact integer value
   */
  public static BigInteger integerValue(Object v, ScalarKind k) {
    return k == ScalarKind.U64 ? new BigInteger(Long.toUnsignedString((Long) v)) : BigInteger.valueOf(((Number) v).longValue());
  }

  /**
   * @param s text
   * @return epoch days of a strict {@code YYYY-MM-DD} date, or null
   */
  public static Integer parseDate(String s) {
    try {
      return Math.toIntExact(LocalDate.parse(s).toEpochDay());
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  /**
   * The one date-time parser. Accepts an RFC 3339 / ISO-8601 date-time with an offset, the same
   * without offset (UTC assumed), or a bare date (midnight UTC).
   *
   * <p>Text that parses but lies outside the epoch-millisecond range (a year near ±999,999,999) is
   * "does not fit" (null) like any other bad spelling, so every caller reports it as the typed error
   * of a wrong value. (Of the two earlier copies, the loader's let that overflow escape as an
   * {@link ArithmeticException}; the query copy, kept here, caught it. No test depended on the
   * escape.)
   *
   * @param s text
   * @return epoch milliseconds, or null
   */
  public static Long parseDateTime(String s) {
    try {
      return OffsetDateTime.parse(s).toInstant().toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      // try the next accepted spelling
    }
    try {
      return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      // try the next accepted spelling
    }
    try {
      return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  /**
   * @param epochDay a Date value
   * @return its export spelling {@code YYYY-MM-DD}
   */
  public static String formatDate(int epochDay) {
    return LocalDate.ofEpochDay(epochDay).toString();
  }

  /**
   * @param epochMillis a DateTime value
   * @return its export spelling {@code YYYY-MM-DDTHH:MM:SS.sssZ}
   */
  public static String formatDateTime(long epochMillis) {
    return EXPORT_DATE_TIME.format(Instant.ofEpochMilli(epochMillis));
  }

  /**
   * @param text a Blob value written as text
   * @return whether it is a managed {@code base64:<data>} value (external URIs are not supported)
   */
  public static boolean isManagedBlob(String text) {
    return text.startsWith(BLOB_PREFIX);
  }

  /**
   * @param text a managed Blob value ({@link #isManagedBlob} is true)
   * @return the decoded bytes
   * @throws IllegalArgumentException when the data after the prefix is not valid Base64 (the
   *     decoder's message says why)
   */
  public static byte[] decodeBlob(String text) {
    return Base64.getDecoder().decode(text.substring(BLOB_PREFIX.length()));
  }
}
