package io.omnigraph.engine.value;

import com.fasterxml.jackson.core.io.NumberOutput;
import io.omnigraph.engine.schema.PropertyType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Canonical ids derived from {@code @key} values (docs/ndjson-format.md, "Node ids"; edges:
 * docs/edge-keys.md), shared by the loader and the mutation executor so both derive the same id
 * for the same key.
 *
 * <p>Members render as: integers in decimal (unsigned types as unsigned), booleans {@code
 * true}/{@code false}, {@code Date} as the epoch-day integer, {@code DateTime} as the epoch-ms
 * integer, floats in the shortest round-trip spelling at their stored width without exponent
 * ({@code 1.0} → {@code 1}, both zeros → {@code 0}; NaN and infinities are not valid keys), strings
 * and enum values as-is. One member: the id is that string. Several members: a compact JSON array
 * of the member strings, in stable-property-id order.
 */
public final class NodeIds {
  private NodeIds() {}

  /**
   * @param type the key member's type
   * @param value a value in the representation (see {@link Scalars})
   * @return the canonical rendering, or empty if the value cannot be a key (null, NaN, ±Inf)
   */
  public static Optional<String> renderMember(PropertyType type, Object value) {
    if (value == null) {
      return Optional.empty();
    }
    if (type instanceof PropertyType.EnumOf) {
      return Optional.of((String) value);
    }
    if (!(type instanceof PropertyType.Scalar s)) {
      return Optional.empty();
    }
    return switch (s.kind()) {
      case STRING -> Optional.of((String) value);
      case BOOL -> Optional.of(value.toString());
      case I32, DATE -> Optional.of(Integer.toString((Integer) value));
      case I64, DATE_TIME, U32 -> Optional.of(Long.toString((Long) value));
      case U64 -> Optional.of(Long.toUnsignedString((Long) value));
      case F32 -> renderFloat((Float) value);
      case F64 -> renderDouble((Double) value);
      case BLOB -> Optional.empty();
    };
  }

  /**
   * Rust's {@code Display} for {@code f64}: shortest round-trip digits, never an exponent.
   *
   * @param d a value
   * @return the spelling, empty for NaN and infinities
   */
  public static Optional<String> renderDouble(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Optional.empty();
    }
    if (d == 0.0) {
      return Optional.of("0");
    }
    // Jackson's Schubfach writer yields the shortest round-trip digits (Double.toString on Java 17
    // sometimes does not); BigDecimal turns a possible exponent into plain notation.
    BigDecimal java = new BigDecimal(NumberOutput.toString(d, true));
    return Optional.of(oneDigitIfShorter(java, new BigDecimal(d), c -> c.doubleValue() == d).toPlainString());
  }

  /**
   * Rust's {@code Display} for {@code f32} at 32-bit width.
   *
   * @param f a value
   * @return the spelling, empty for NaN and infinities
   */
  public static Optional<String> renderFloat(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      return Optional.empty();
    }
    if (f == 0.0f) {
      return Optional.of("0");
    }
    BigDecimal java = new BigDecimal(NumberOutput.toString(f, true));
    return Optional.of(oneDigitIfShorter(java, new BigDecimal((double) f), c -> c.floatValue() == f).toPlainString());
  }

  /**
   * Java's algorithm prints at least two significant digits ({@code 4.9E-324}); Rust prints the
   * truly shortest ({@code 5e-324}). When Java's answer has two digits, a one-digit decimal that
   * still round-trips is preferred, the one closest to the exact value if both do.
   */
  private static BigDecimal oneDigitIfShorter(
      BigDecimal javaDigits, BigDecimal exact, java.util.function.Predicate<BigDecimal> roundTrips) {
    BigDecimal s = javaDigits.stripTrailingZeros();
    if (s.precision() != 2) {
      return s;
    }
    BigDecimal best = null;
    for (java.math.RoundingMode mode : new java.math.RoundingMode[] {java.math.RoundingMode.FLOOR, java.math.RoundingMode.CEILING}) {
      BigDecimal c = s.round(new java.math.MathContext(1, mode));
      if (roundTrips.test(c)
          && (best == null || c.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0)) {
        best = c;
      }
    }
    return best == null ? s : best.stripTrailingZeros();
  }

  /**
   * @param members canonical member strings in stable-property-id order (at least one)
   * @return the id: the member itself, or a compact JSON array of the members
   */
  public static String fromMembers(List<String> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a key has at least one member");
    }
    if (members.size() == 1) {
      return members.get(0);
    }
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < members.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      jsonString(b, members.get(i));
    }
    return b.append(']').toString();
  }

  /**
   * The id of a keyed edge (docs/edge-keys.md): always the compact JSON array of {@code src},
   * {@code dst}, then the rendered property members in stable-property-id order.
   *
   * @param src the source node id
   * @param dst the target node id
   * @param propertyMembers canonical renderings of the further key members (may be empty)
   * @return the id
   */
  public static String edgeId(String src, String dst, List<String> propertyMembers) {
    List<String> all = new java.util.ArrayList<>(2 + propertyMembers.size());
    all.add(src);
    all.add(dst);
    all.addAll(propertyMembers);
    return fromMembers(all);
  }

  private static void jsonString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
