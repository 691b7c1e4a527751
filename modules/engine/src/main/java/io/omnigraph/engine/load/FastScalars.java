package io.omnigraph.engine.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.DecimalFloats;
import io.omnigraph.engine.value.Scalars;
import java.io.IOException;
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
 * into an Arrow vector, with the value the exact path ({@link Values#fromJson}, that is {@link io.omnigraph.engine.value.JsonValues}) would produce, and
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

  private final DecimalFloats floats = new DecimalFloats();

  /**
   * Reads a float value the way the exact path does ({@link DecimalFloats}: one rounding from the
   * exact value; the NaN/Infinity strings), declining numbers that do not fit and integers beyond
   * 64 bits.
   */
  boolean number(JsonParser p, JsonToken tok, ScalarKind k) throws IOException {
    if (tok == JsonToken.VALUE_NUMBER_FLOAT) {
      if (!floats.round(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), k)) {
        return false;
      }
      numD = floats.d;
      numF = floats.f;
      return true;
    }
    if (tok == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        return false;
      }
      floats.round(p.getLongValue(), k);
      numD = floats.d;
      numF = floats.f;
      return true;
    }
    if (tok == JsonToken.VALUE_STRING) {
      Double nonFinite = Scalars.nonFinite(p.getText());
      if (nonFinite == null) {
        return false;
      }
      numD = nonFinite;
      numF = (float) numD;
      return true;
    }
    return false;
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
