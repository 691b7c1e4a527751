package io.omnigraph.engine.schema;

import java.security.SecureRandom;

/**
 * ULIDs (26-character Crockford base32: 48-bit millisecond timestamp + 80 random bits), used for
 * the schema identity domain and for node/edge ids of unkeyed rows. Canonical form is uppercase.
 */
public final class Ulid {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private Ulid() {}

  /** @return a fresh ULID for the current time */
  public static String generate() {
    byte[] rnd = new byte[10];
    RANDOM.nextBytes(rnd);
    return of(System.currentTimeMillis(), rnd);
  }

  /**
   * @param epochMillis timestamp part (0 .. 2^48-1)
   * @param random exactly 10 random bytes
   * @return the canonical ULID
   */
  public static String of(long epochMillis, byte[] random) {
    if (epochMillis < 0 || epochMillis >= (1L << 48)) {
      throw new IllegalArgumentException("ULID timestamp out of range: " + epochMillis);
    }
    if (random.length != 10) {
      throw new IllegalArgumentException("ULID randomness must be 10 bytes");
    }
    char[] out = new char[26];
    long t = epochMillis;
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (t & 31)];
      t >>>= 5;
    }
    // 80 random bits → 16 base32 characters.
    long hi = 0;
    for (int i = 0; i < 5; i++) {
      hi = (hi << 8) | (random[i] & 0xff);
    }
    long lo = 0;
    for (int i = 5; i < 10; i++) {
      lo = (lo << 8) | (random[i] & 0xff);
    }
    for (int i = 17; i >= 10; i--) {
      out[i] = ALPHABET[(int) (hi & 31)];
      hi >>>= 5;
    }
    for (int i = 25; i >= 18; i--) {
      out[i] = ALPHABET[(int) (lo & 31)];
      lo >>>= 5;
    }
    return new String(out);
  }

  /**
   * @param s candidate text
   * @return true if {@code s} is a 26-character uppercase Crockford ULID whose timestamp fits 48 bits
   */
  public static boolean isCanonical(String s) {
    if (s == null || s.length() != 26) {
      return false;
    }
    for (int i = 0; i < 26; i++) {
      if (new String(ALPHABET).indexOf(s.charAt(i)) < 0) {
        return false;
      }
    }
    return s.charAt(0) <= '7';
  }
}
