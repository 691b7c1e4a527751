package io.omnigraph.engine.value;

import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigDecimal;

/**
 * The hot-path form of {@link Scalars#floating}: rounds the text of a JSON number to F32 or F64
 * with exactly the result {@code Scalars.floating(new BigDecimal(text), kind)} gives (one rounding
 * from the exact decimal value; a finite number that rounds to infinity does not fit), without
 * allocating for the common short decimals. Results are left in {@link #f} and {@link #d} so the
 * caller does not box. One instance per reader; not thread-safe.
 */
public final class DecimalFloats {
  private static final double[] DOUBLE_POW10 = {
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
      1e20, 1e21, 1e22};
  private static final float[] FLOAT_POW10 = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

  /** The F32 result of the last successful call (only when it was asked for F32). */
  public float f;
  /** The F64 result of the last successful call. */
  public double d;

  private long decimalMantissa;
  private int decimalScale;
  private boolean decimalNegative;

  /**
   * Rounds the text of a JSON number (integer or decimal, with or without exponent).
   *
   * @param c the characters
   * @param off where the number starts
   * @param len its length
   * @param k F32 or F64
   * @return true with the result in {@link #f} / {@link #d}; false when the value does not fit
   *     {@code k} (it rounds to infinity)
   */
  public boolean round(char[] c, int off, int len, ScalarKind k) {
    if (shortDecimal(c, off, len)) {
      // Exact operands and one rounding: the correctly rounded value, as BigDecimal gives it.
      d = decimalMantissa / DOUBLE_POW10[decimalScale];
      if (k != ScalarKind.F32) {
        f = (float) d; // unused
      } else if (decimalMantissa < (1L << 22) && decimalScale < FLOAT_POW10.length) {
        f = (float) decimalMantissa / FLOAT_POW10[decimalScale];
      } else {
        f = Math.abs(new BigDecimal(c, off, len).floatValue());
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
      BigDecimal b = new BigDecimal(c, off, len);
      d = b.doubleValue();
      f = k == ScalarKind.F32 ? b.floatValue() : (float) d;
    }
    return !Double.isInfinite(d) && !(k == ScalarKind.F32 && Float.isInfinite(f));
  }

  /**
   * Rounds an integer (one rounding: Java's {@code long} to {@code float} and {@code double}
   * conversions are correctly rounded).
   *
   * @param x the integer
   * @param k F32 or F64
   * @return true (a {@code long} is finite at both widths) with the result in {@link #f} / {@link #d}
   */
  public boolean round(long x, ScalarKind k) {
    d = x;
    f = x;
    return true;
  }

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
}
