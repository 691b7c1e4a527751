package io.omnigraph.engine.value;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeIdsTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "1.0, 1",
    "0.5, 0.5",
    "-2.25, -2.25",
    "0.1, 0.1",
    "100.0, 100",
    "1e21, 1000000000000000000000",
    "1e-7, 0.0000001",
    "123456789.125, 123456789.125",
    "-0.0, 0",
    "0.30000000000000004, 0.30000000000000004"
  })
  void doublesRenderLikeRustDisplay(double value, String expected) {
    assertThat(NodeIds.renderDouble(value)).contains(expected);
  }

  @Test
  void theSmallestSubnormalRendersWithOneDigitAsRustDoes() {
    // Java prints 4.9E-324 (two digits minimum); Rust's shortest round-trip form is 5e-324.
    assertThat(NodeIds.renderDouble(Double.MIN_VALUE)).contains("0." + "0".repeat(323) + "5");
    assertThat(NodeIds.renderFloat(Float.MIN_VALUE)).contains("0." + "0".repeat(44) + "1");
  }

  @Test
  void floatsRenderAtTheirOwnWidth() {
    assertThat(NodeIds.renderFloat(0.1f)).contains("0.1");
    assertThat(NodeIds.renderFloat(16777216f)).contains("16777216");
    assertThat(NodeIds.renderFloat(1.0e10f)).contains("10000000000");
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.F32), 3.0f)).contains("3");
  }

  @Test
  void nanAndInfinitiesAreNotKeys() {
    assertThat(NodeIds.renderDouble(Double.NaN)).isEmpty();
    assertThat(NodeIds.renderDouble(Double.POSITIVE_INFINITY)).isEmpty();
    assertThat(NodeIds.renderFloat(Float.NEGATIVE_INFINITY)).isEmpty();
  }

  @Test
  void integersBooleansDatesAndUnsignedRenderCanonically() {
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.I32), -5)).contains("-5");
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.U64), -1L)).contains("18446744073709551615");
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.BOOL), true)).contains("true");
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.DATE), 19000)).contains("19000");
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.DATE_TIME), 1700000000000L)).contains("1700000000000");
    assertThat(NodeIds.renderMember(new PropertyType.EnumOf(List.of("a")), "a")).contains("a");
    assertThat(NodeIds.renderMember(new PropertyType.Scalar(ScalarKind.STRING), null)).isEmpty();
  }

  @Test
  void compositeIdsAreCompactJsonArraysWithEscaping() {
    assertThat(NodeIds.fromMembers(List.of("tolkien", "1954"))).isEqualTo("[\"tolkien\",\"1954\"]");
    assertThat(NodeIds.fromMembers(List.of("a\"b", "c\\d\n"))).isEqualTo("[\"a\\\"b\",\"c\\\\d\\n\"]");
    assertThat(NodeIds.fromMembers(List.of("solo"))).isEqualTo("solo");
  }
}
