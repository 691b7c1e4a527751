package io.omnigraph.engine.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.engine.schema.ScalarKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The shared scalar conversions answer "does not fit" with null and never throw for bad text. */
class ScalarsTest {

  @Test
  void dateTimesAcceptAnOffsetNoOffsetAsUtcAndABareDateAsMidnightUtc() {
    assertThat(Scalars.parseDateTime("2024-05-01T12:00:00Z")).isEqualTo(1714564800000L);
    assertThat(Scalars.parseDateTime("2024-05-01T14:00:00+02:00")).isEqualTo(1714564800000L);
    assertThat(Scalars.parseDateTime("2024-05-01T12:00:00.123")).isEqualTo(1714564800123L);
    assertThat(Scalars.parseDateTime("2024-05-01")).isEqualTo(1714521600000L);
    assertThat(Scalars.parseDateTime("1969-12-31T23:59:59.999Z")).isEqualTo(-1L);
  }

  @Test
  void unparseableDateTimesAndYearsBeyondTheMillisecondRangeDoNotFit() {
    assertThat(Scalars.parseDateTime("yesterday")).isNull();
    assertThat(Scalars.parseDateTime("2024-02-30T00:00:00Z")).isNull();
    assertThat(Scalars.parseDateTime("")).isNull();
    // Parses as a date-time, but its epoch milliseconds overflow a long.
    assertThat(Scalars.parseDateTime("+999999999-12-31T23:59:59Z")).isNull();
    assertThat(Scalars.parseDateTime("+999999999-12-31T23:59:59")).isNull();
    assertThat(Scalars.parseDateTime("+999999999-12-31")).isNull();
  }

  @Test
  void datesAreStrictAndRoundTripThroughTheirExportSpelling() {
    assertThat(Scalars.parseDate("1970-01-02")).isEqualTo(1);
    assertThat(Scalars.parseDate("1969-12-31")).isEqualTo(-1);
    assertThat(Scalars.parseDate("2024-5-1")).isNull();
    assertThat(Scalars.parseDate("2024-05-01T00:00:00Z")).isNull();
    assertThat(Scalars.formatDate(Scalars.parseDate("2024-02-29"))).isEqualTo("2024-02-29");
    assertThat(Scalars.formatDateTime(Scalars.parseDateTime("2024-02-29T23:59:59.999Z"))).isEqualTo("2024-02-29T23:59:59.999Z");
    assertThat(Scalars.formatDateTime(0)).isEqualTo("1970-01-01T00:00:00.000Z");
  }

  @Test
  void integersFitOnlyTheirKindsRange() {
    assertThat(Scalars.integral(BigInteger.valueOf(Integer.MAX_VALUE), ScalarKind.I32)).isEqualTo(Integer.MAX_VALUE);
    assertThat(Scalars.integral(BigInteger.valueOf(Integer.MAX_VALUE).add(BigInteger.ONE), ScalarKind.I32)).isNull();
    assertThat(Scalars.integral(BigInteger.valueOf(Long.MIN_VALUE), ScalarKind.I64)).isEqualTo(Long.MIN_VALUE);
    assertThat(Scalars.integral(BigInteger.valueOf(-1), ScalarKind.U32)).isNull();
    assertThat(Scalars.integral(BigInteger.valueOf(0xffff_ffffL), ScalarKind.U32)).isEqualTo(0xffff_ffffL);
    assertThat(Scalars.integral(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE), ScalarKind.U64)).isEqualTo(-1L);
    assertThat(Scalars.integral(BigInteger.ONE.shiftLeft(64), ScalarKind.U64)).isNull();
    assertThatThrownBy(() -> Scalars.integral(BigInteger.ONE, ScalarKind.F32)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void floatsRoundOnceAndOverflowDoesNotFit() {
    assertThat(Scalars.floating(new BigDecimal("0.1"), ScalarKind.F32)).isEqualTo(0.1f);
    assertThat(Scalars.floating(new BigDecimal("0.1"), ScalarKind.F64)).isEqualTo(0.1);
    assertThat(Scalars.floating(new BigDecimal("1e39"), ScalarKind.F32)).isNull();
    assertThat(Scalars.floating(new BigDecimal("1e39"), ScalarKind.F64)).isEqualTo(1e39);
    assertThat(Scalars.floating(new BigDecimal("1e309"), ScalarKind.F64)).isNull();
    assertThat(Scalars.nonFinite("NaN")).isNaN();
    assertThat(Scalars.nonFinite("-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Scalars.nonFinite("nan")).isNull();
    assertThat(Scalars.nonFinite("Inf")).isNull();
  }

  @Test
  void onlyManagedBase64BlobsDecode() {
    assertThat(Scalars.isManagedBlob("base64:AP8=")).isTrue();
    assertThat(Scalars.isManagedBlob("s3://bucket/blob")).isFalse();
    assertThat(Scalars.decodeBlob("base64:AP8=")).containsExactly(0, 255);
    assertThatThrownBy(() -> Scalars.decodeBlob("base64:***")).isInstanceOf(IllegalArgumentException.class);
  }
}
