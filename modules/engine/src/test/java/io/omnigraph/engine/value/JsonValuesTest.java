package io.omnigraph.engine.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.DeserializationFeature;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.value.JsonValues.Problem;
import io.omnigraph.engine.value.JsonValues.Reason;
import io.omnigraph.engine.value.JsonValues.Spelling;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one JSON reading: what both inputs accept, where their spellings differ, and what each refusal carries. */
class JsonValuesTest {
  static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

  static final class Refused extends Exception {
    final Problem problem;

    Refused(Problem problem) {
      super(problem.toString());
      this.problem = problem;
    }
  }

  static Object read(PropertyType t, String json, Spelling s) throws Exception {
    JsonNode v = JSON.readTree(json);
    return JsonValues.read(t, v, s, Refused::new);
  }

  static Problem refusal(PropertyType t, String json, Spelling s) {
    Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> read(t, json, s));
    assertThat(e).isInstanceOf(Refused.class);
    return ((Refused) e).problem;
  }

  static PropertyType scalar(ScalarKind k) {
    return new PropertyType.Scalar(k);
  }

  @Test
  void bothSpellingsReadTheCommonForms() throws Exception {
    for (Spelling s : Spelling.values()) {
      assertThat(read(scalar(ScalarKind.I32), "7", s)).isEqualTo(7);
      assertThat(read(scalar(ScalarKind.U64), "18446744073709551615", s)).isEqualTo(-1L);
      assertThat(read(scalar(ScalarKind.F32), "0.1", s)).isEqualTo(0.1f);
      assertThat(read(scalar(ScalarKind.F64), "\"-Infinity\"", s)).isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(read(scalar(ScalarKind.DATE), "\"1970-01-02\"", s)).isEqualTo(1);
      assertThat(read(scalar(ScalarKind.DATE_TIME), "\"1970-01-01T00:00:00.001Z\"", s)).isEqualTo(1L);
      assertThat((byte[]) read(scalar(ScalarKind.BLOB), "\"base64:AQI=\"", s)).containsExactly(1, 2);
      assertThat(read(new PropertyType.ListOf(ScalarKind.STRING), "[\"a\", \"b\"]", s)).isEqualTo(List.of("a", "b"));
      assertThat((float[]) read(new PropertyType.VectorOf(2), "[1, 0.5]", s)).containsExactly(1f, 0.5f);
    }
  }

  @Test
  void onlyLoadsAcceptEpochNumbersForDatesAndOnlyParametersAcceptDigitStringsFor64BitIntegers() throws Exception {
    assertThat(read(scalar(ScalarKind.DATE), "3", Spelling.LOAD)).isEqualTo(3);
    assertThat(read(scalar(ScalarKind.DATE_TIME), "5", Spelling.LOAD)).isEqualTo(5L);
    assertThat(refusal(scalar(ScalarKind.DATE), "3", Spelling.PARAM).reason()).isEqualTo(Reason.MISMATCH);
    assertThat(read(scalar(ScalarKind.I64), "\"-9007199254740993\"", Spelling.PARAM)).isEqualTo(-9007199254740993L);
    assertThat(refusal(scalar(ScalarKind.I64), "\"12\"", Spelling.LOAD).reason()).isEqualTo(Reason.MISMATCH);
    assertThat(refusal(scalar(ScalarKind.I32), "\"12\"", Spelling.PARAM).reason()).isEqualTo(Reason.MISMATCH);
  }

  @Test
  void onlyParametersRefuseUnpairedSurrogates() throws Exception {
    assertThat(read(scalar(ScalarKind.STRING), "\"a\\ud800\"", Spelling.LOAD)).isEqualTo("a\ud800");
    Problem p = refusal(scalar(ScalarKind.STRING), "\"a\\ud800\"", Spelling.PARAM);
    assertThat(p.reason()).isEqualTo(Reason.BAD_STRING);
    assertThat(p.detail()).isEqualTo("contains an unpaired surrogate U+D800 at index 1");
  }

  @Test
  void refusalsCarryWhatTheCallerWordsItsErrorFrom() {
    for (Spelling s : Spelling.values()) {
      Problem range = refusal(scalar(ScalarKind.I32), "2147483648", s);
      assertThat(range.reason()).isEqualTo(Reason.INTEGER_RANGE);
      assertThat(range.value()).isEqualTo(new java.math.BigInteger("2147483648"));
      Problem f32 = refusal(scalar(ScalarKind.F32), "1e39", s);
      assertThat(f32.reason()).isEqualTo(Reason.FLOAT_RANGE);
      assertThat(f32.kind()).isEqualTo(ScalarKind.F32);
      Problem length = refusal(new PropertyType.VectorOf(3), "[1, 2]", s);
      assertThat(length.reason()).isEqualTo(Reason.VECTOR_LENGTH);
      assertThat(length.index()).isEqualTo(2);
      Problem nullItem = refusal(new PropertyType.ListOf(ScalarKind.I32), "[1, null]", s);
      assertThat(nullItem.reason()).isEqualTo(Reason.NULL_ITEM);
      assertThat(nullItem.index()).isEqualTo(1);
      Problem shape = refusal(new PropertyType.ListOf(ScalarKind.I32), "1", s);
      assertThat(shape.reason()).isEqualTo(Reason.MISMATCH);
      assertThat(shape.kind()).isNull();
      Problem item = refusal(new PropertyType.ListOf(ScalarKind.I32), "[\"x\"]", s);
      assertThat(item.kind()).isEqualTo(ScalarKind.I32);
      assertThat(refusal(scalar(ScalarKind.DATE), "\"2024-02-30\"", s).reason()).isEqualTo(Reason.BAD_DATE);
      assertThat(refusal(scalar(ScalarKind.DATE_TIME), "\"noon\"", s).reason()).isEqualTo(Reason.BAD_DATE_TIME);
      assertThat(refusal(scalar(ScalarKind.BLOB), "\"s3://x\"", s).reason()).isEqualTo(Reason.BLOB_NOT_MANAGED);
      assertThat(refusal(scalar(ScalarKind.BLOB), "\"base64:!!\"", s).reason()).isEqualTo(Reason.BLOB_BASE64);
      assertThat(refusal(new PropertyType.EnumOf(List.of("a", "b")), "\"c\"", s).reason()).isEqualTo(Reason.ENUM_VALUE);
    }
  }

  @Test
  void anIntegerWrittenForAFloatIsRoundedOnceFromItsExactValue() throws Exception {
    // 2^53 + 2^29 + 1: through double first it would round down to 2^53 and then to 2^53 as a float;
    // rounded once it is above the midpoint between 2^53 and the next float.
    String n = "9007199791611905";
    assertThat(read(scalar(ScalarKind.F32), n, Spelling.LOAD)).isEqualTo(new java.math.BigDecimal(n).floatValue());
    assertThat(new java.math.BigDecimal(n).floatValue()).isNotEqualTo((float) Double.parseDouble(n));
  }
}
