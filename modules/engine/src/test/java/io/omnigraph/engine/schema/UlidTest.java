package io.omnigraph.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UlidTest {
  @Test
  void generatedUlidsAreCanonicalAndDistinct() {
    String a = Ulid.generate();
    String b = Ulid.generate();
    assertThat(a).hasSize(26).isNotEqualTo(b);
    assertThat(Ulid.isCanonical(a)).isTrue();
  }

  @Test
  void ulidsOfOneProcessIncreaseStrictlyAndWithinAMillisecondByOne() {
    String alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    String prev = Ulid.generate();
    int sameMillisecond = 0;
    for (int i = 0; i < 20_000; i++) {
      String next = Ulid.generate();
      assertThat(next).isGreaterThan(prev); // canonical ULIDs sort as their values
      char last = prev.charAt(25);
      if (next.startsWith(prev.substring(0, 10)) && last != 'Z') {
        // One secure random draw per millisecond: the next ULID of that millisecond is the previous plus one.
        assertThat(next).isEqualTo(prev.substring(0, 25) + alphabet.charAt(alphabet.indexOf(last) + 1));
        sameMillisecond++;
      }
      prev = next;
    }
    assertThat(sameMillisecond).as("ULIDs generated within one millisecond").isGreaterThan(100);
  }

  @Test
  void encodingMatchesTheSpecForKnownInputs() {
    assertThat(Ulid.of(0, new byte[10])).isEqualTo("00000000000000000000000000");
    byte[] ones = new byte[10];
    java.util.Arrays.fill(ones, (byte) 0xff);
    assertThat(Ulid.of((1L << 48) - 1, ones)).isEqualTo("7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    // 1469918176385 ms is the timestamp of the spec's example 01ARYZ6S41...
    assertThat(Ulid.of(1469918176385L, new byte[10])).startsWith("01ARYZ6S41");
  }

  @Test
  void lowercaseOrAmbiguousLettersAreNotCanonical() {
    assertThat(Ulid.isCanonical("01arz3ndektsv4rrffq69g5fav")).isFalse();
    assertThat(Ulid.isCanonical("01ARZ3NDEKTSV4RRFFQ69G5FAI")).isFalse();
    assertThat(Ulid.isCanonical("81ARZ3NDEKTSV4RRFFQ69G5FAV")).isFalse();
    assertThat(Ulid.isCanonical("01ARZ3NDEKTSV4RRFFQ69G5FAV")).isTrue();
  }
}
