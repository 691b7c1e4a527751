package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GuaranteeNamesTest {

  @Test
  void camelCaseTestNamesBecomeSentencesKeepingAcronyms() {
    assertThat(GuaranteeNames.sentence("aFailureOnALaterPageThrows")).isEqualTo("a failure on a later page throws");
    assertThat(GuaranteeNames.sentence("sixteenConcurrentIfAbsentWritersHaveExactlyOneWinner"))
        .isEqualTo("sixteen concurrent if absent writers have exactly one winner");
    assertThat(GuaranteeNames.sentence("listingIsSortedByUTF8Bytes")).isEqualTo("listing is sorted by UTF 8 bytes");
    assertThat(GuaranteeNames.sentence("everyByteValueRoundTrips")).isEqualTo("every byte value round trips");
  }
}
