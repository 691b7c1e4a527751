package io.omnigraph.engine.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.Scalars;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The fast decoder's scalar conversion: reads one JSON scalar token of a property's kind straight
 * into an Arrow vector, with the value the exact path ({@link Values#fromJson}) would produce, and
 * declines (returns false) anything it is not sure of, so the exact path decides. Results are left in fields
 * to avoid boxing on the hot path. One instance per load; not thread-safe.
 */
final class FastScalars {
  // Results of number() / scalar(), to avoid boxing on the hot path.
  float numF;
  double numD;
  Object keptScalar;
  boolean keepNext = true; // false: scalar() need not produce keptScalar for STRING
  private byte[] utf8 = new byte[256];

  /**
   * Encodes chars as String.getBytes(UTF_8) does (an unpaired surrogate becomes '?') into {@link #utf8}.
   *
   * @return the byte length
   */
  private int utf8(char[] c, int off, int len) {
    if (utf8.length < len * 3) {
      utf8 = new byte[Math.max(len * 3, utf8.length * 2)];
    }
    byte[] out = utf8;
    int o = 0;
    int end = off + len;
    for (int i = off; i < end; i++) {
      char ch = c[i];
      if (ch < 0x80) {
        out[o++] = (byte) ch;
      } else if (ch < 0x800) {
        out[o++] = (byte) (0xc0 | (ch >> 6));
        out[o++] = (byte) (0x80 | (ch & 0x3f));
      } else if (Character.isSurrogate(ch)) {
        if (Character.isHighSurrogate(ch) && i + 1 < end && Character.isLowSurrogate(c[i + 1])) {
          int cp = Character.toCodePoint(ch, c[++i]);
          out[o++] = (byte) (0xf0 | (cp >> 18));
          out[o++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
          out[o++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
          out[o++] = (byte) (0x80 | (cp & 0x3f));
        } else {
          out[o++] = (byte) '?';
        }
      } else {
        out[o++] = (byte) (0xe0 | (ch >> 12));
        out[o++] = (byte) (0x80 | ((ch >> 6) & 0x3f));
        out[o++] = (byte) (0x80 | (ch & 0x3f));
      }
    }
    return o;
  }

  /**
   * Reads a float value the way the exact path does (decimal text rounded once to the stored width,
   * integers through double, the NaN/Infinity strings), refusing non-finite results of numbers.
   */
  boolean number(JsonParser p, JsonToken tok, ScalarKind k) throws IOException {
    double d;
    float f;
    if (tok == JsonToken.VALUE_NUMBER_FLOAT) {
      if (shortDecimal(p.getTextCharacters(), p.getTextOffset(), p.getTextLength())) {
        // Exact operands and one rounding: the correctly rounded value, as BigDecimal gives it.
        d = decimalMantissa / DOUBLE_POW10[decimalScale];
        if (k != ScalarKind.F32) {
          f = (float) d; // unused
        } else if (decimalMantissa < (1L << 22) && decimalScale < FLOAT_POW10.length) {
          f = (float) decimalMantissa / FLOAT_POW10[decimalScale];
        } else {
          f = Math.abs(new BigDecimal(p.getText()).floatValue());
        }
        if (decimalNegative) {
          d = -d;
          f = -f;
        }
        if (decimalMantissa == 0) {
          d = 0.0; // BigDecimal has no negative zero
          f = 0.0f;
        }
      } else {
        BigDecimal b = new BigDecimal(p.getText());
        d = b.doubleValue();
        f = k == ScalarKind.F32 ? b.floatValue() : (float) d;
      }
      if (Double.isInfinite(d) || (k == ScalarKind.F32 && Float.isInfinite(f))) {
        return false;
      }
    } else if (tok == JsonToken.VALUE_NUMBER_INT) {
      JsonParser.NumberType nt = p.getNumberType();
      d = nt == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue().doubleValue() : (double) p.getLongValue();
      f = (float) d;
      if (Double.isInfinite(d) || (k == ScalarKind.F32 && Float.isInfinite(f))) {
        return false;
      }
    } else if (tok == JsonToken.VALUE_STRING) {
      Double nonFinite = Scalars.nonFinite(p.getText());
      if (nonFinite == null) {
        return false;
      }
      d = nonFinite;
      f = (float) d;
    } else {
      return false;
    }
    numD = d;
    numF = f;
    return true;
  }

  private static final double[] DOUBLE_POW10 = {
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
      1e20, 1e21, 1e22};
  private static final float[] FLOAT_POW10 = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  private long decimalMantissa;
  private int decimalScale;
  private boolean decimalNegative;

  /**
   * Parses a JSON number without exponent whose digits fit 2^53 and whose scale is at most 22 (so
   * mantissa and power of ten are exact doubles); anything else is left to BigDecimal.
   */
  private boolean shortDecimal(char[] c, int off, int len) {
    int i = off;
    int end = off + len;
    boolean neg = false;
    if (i < end && c[i] == '-') {
      neg = true;
      i++;
    }
    long m = 0;
    int scale = -1;
    int digits = 0;
    for (; i < end; i++) {
      char ch = c[i];
      if (ch >= '0' && ch <= '9') {
        if (m != 0 || ch != '0') {
          digits++;
        }
        if (digits > 15) {
          return false;
        }
        m = m * 10 + (ch - '0');
        if (scale >= 0) {
          scale++;
        }
      } else if (ch == '.' && scale < 0) {
        scale = 0;
      } else {
        return false; // exponent
      }
    }
    if (scale < 0) {
      scale = 0;
    }
    if (scale >= DOUBLE_POW10.length) {
      return false;
    }
    decimalMantissa = m;
    decimalScale = scale;
    decimalNegative = neg;
    return true;
  }

  /** Converts one scalar token of kind {@code k} and writes it at {@code slot}; false to decline. */
  boolean scalar(JsonParser p, JsonToken tok, ScalarKind k, FieldVector v, int slot) throws IOException {
    switch (k) {
      case STRING -> {
        if (tok != JsonToken.VALUE_STRING) {
          return false;
        }
        if (keepNext) {
          String text = p.getText();
          ((VarCharVector) v).setSafe(slot, text.getBytes(StandardCharsets.UTF_8));
          keptScalar = text;
        } else {
          int n = utf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
          ((VarCharVector) v).setSafe(slot, utf8, 0, n);
        }
        return true;
      }
      case BOOL -> {
        if (tok != JsonToken.VALUE_TRUE && tok != JsonToken.VALUE_FALSE) {
          return false;
        }
        boolean b = tok == JsonToken.VALUE_TRUE;
        ((BitVector) v).setSafe(slot, b ? 1 : 0);
        keptScalar = b;
        return true;
      }
      case I32, I64, U32, U64 -> {
        if (tok != JsonToken.VALUE_NUMBER_INT) {
          return false;
        }
        long x;
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          BigInteger b = p.getBigIntegerValue();
          if (k != ScalarKind.U64 || Scalars.integral(b, ScalarKind.U64) == null) {
            return false;
          }
          x = b.longValue();
        } else {
          x = p.getLongValue();
          boolean fits = switch (k) {
            case I32 -> x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE;
            case U32 -> x >= 0 && x <= 0xffff_ffffL;
            case U64 -> x >= 0;
            default -> true;
          };
          if (!fits) {
            return false;
          }
        }
        switch (k) {
          case I32 -> {
            ((IntVector) v).setSafe(slot, (int) x);
            keptScalar = (int) x;
          }
          case I64 -> {
            ((BigIntVector) v).setSafe(slot, x);
            keptScalar = x;
          }
          case U32 -> {
            ((UInt4Vector) v).setSafe(slot, (int) x);
            keptScalar = x;
          }
          default -> {
            ((UInt8Vector) v).setSafe(slot, x);
            keptScalar = x;
          }
        }
        return true;
      }
      case F32 -> {
        if (!number(p, tok, k)) {
          return false;
        }
        ((Float4Vector) v).setSafe(slot, numF);
        keptScalar = numF;
        return true;
      }
      case F64 -> {
        if (!number(p, tok, k)) {
          return false;
        }
        ((Float8Vector) v).setSafe(slot, numD);
        keptScalar = numD;
        return true;
      }
      case DATE -> {
        int day;
        if (tok == JsonToken.VALUE_NUMBER_INT) {
          if (p.getNumberType() != JsonParser.NumberType.INT) {
            return false;
          }
          day = p.getIntValue();
        } else if (tok == JsonToken.VALUE_STRING) {
          Integer parsed = Scalars.parseDate(p.getText());
          if (parsed == null) {
            return false;
          }
          day = parsed;
        } else {
          return false;
        }
        ((DateDayVector) v).setSafe(slot, day);
        keptScalar = day;
        return true;
      }
      case DATE_TIME -> {
        long ms;
        if (tok == JsonToken.VALUE_NUMBER_INT) {
          if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return false;
          }
          ms = p.getLongValue();
        } else if (tok == JsonToken.VALUE_STRING) {
          Long parsed = Scalars.parseDateTime(p.getText());
          if (parsed == null) {
            return false;
          }
          ms = parsed;
        } else {
          return false;
        }
        ((DateMilliVector) v).setSafe(slot, ms);
        keptScalar = ms;
        return true;
      }
      case BLOB -> {
        if (tok != JsonToken.VALUE_STRING) {
          return false;
        }
        String text = p.getText();
        if (!Scalars.isManagedBlob(text)) {
          return false;
        }
        byte[] b;
        try {
          b = Scalars.decodeBlob(text);
        } catch (IllegalArgumentException e) {
          return false;
        }
        ((LargeVarBinaryVector) v).setSafe(slot, b);
        keptScalar = b;
        return true;
      }
      default -> {
        return false;
      }
    }
  }
}
