package io.omnigraph.engine.value;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The loader's allocation-free float rounding gives exactly {@link Scalars#floating} of the exact
 * decimal (the one rounding rule), for short decimals, long ones, exponents and overflow.
 */
class DecimalFloatsTest {

  static void assertSameAsTheRule(String text) {
    BigDecimal exact = new BigDecimal(text);
    for (ScalarKind k : new ScalarKind[] {ScalarKind.F32, ScalarKind.F64}) {
      DecimalFloats fast = new DecimalFloats();
      boolean fits = fast.round(text.toCharArray(), 0, text.length(), k);
      Object rule = Scalars.floating(exact, k);
      assertThat(fits).as(text + " as " + k).isEqualTo(rule != null);
      if (rule != null) {
        Object got = k == ScalarKind.F32 ? (Object) fast.f : (Object) fast.d;
        assertThat(got).as(text + " as " + k).isEqualTo(rule);
      }
    }
  }

  @Property(tries = 3000)
  void decimalsRoundLikeTheExactRule(@ForAll @LongRange(min = -999_999_999_999_999L, max = 999_999_999_999_999L) long mantissa,
      @ForAll @IntRange(min = 0, max = 25) int scale) {
    assertSameAsTheRule(new BigDecimal(java.math.BigInteger.valueOf(mantissa), scale).toPlainString());
  }

  @Property(tries = 1000)
  void longDecimalsAndExponentsRoundLikeTheExactRule(@ForAll long mantissa, @ForAll @IntRange(min = -400, max = 400) int exp) {
    assertSameAsTheRule(mantissa + "e" + exp);
    assertSameAsTheRule(mantissa + "." + (mantissa & Long.MAX_VALUE) + "1");
  }

  @Test
  void edgeCases() {
    for (String s : new String[] {"0.0", "-0.0", "0.1", "16777217.0", "3.4028235e38", "3.4028236e38", "1e39", "-1e39",
        "1.7976931348623157e308", "1e309", "1.4e-45", "1e-50", "0.30000000000000004", "9007199254740993.0",
        "123456789012345678901234567890.5"}) {
      assertSameAsTheRule(s);
    }
  }

  @Property(tries = 1000)
  void integersRoundOnce(@ForAll long x) {
    DecimalFloats fast = new DecimalFloats();
    assertThat(fast.round(x, ScalarKind.F32)).isTrue();
    assertThat(fast.f).isEqualTo(Scalars.floating(new BigDecimal(x), ScalarKind.F32));
    assertThat(fast.d).isEqualTo(Scalars.floating(new BigDecimal(x), ScalarKind.F64));
  }
}
