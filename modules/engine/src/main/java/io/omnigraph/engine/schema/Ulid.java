package io.omnigraph.engine.schema;

import java.security.SecureRandom;

/**
 * ULIDs (26-character Crockford base32: 48-bit millisecond timestamp + 80 random bits), used for
 * the schema identity domain and for node/edge ids of unkeyed rows. Canonical form is uppercase.
 *
 * <p>Generated monotonically, as the ULID specification's monotonic mode describes
 * (docs/on-disk-layout.md, "Node and edge tables"): the first ULID of a millisecond takes 80 fresh
 * random bits, every further ULID of this process in the same millisecond is the previous one plus
 * one. So ULIDs of one process are strictly increasing (also when the clock steps back: the
 * timestamp then stays at the last one used), and a load of many unkeyed rows draws from the
 * secure random source about once per millisecond instead of once per row.
 */
public final class Ulid {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long MASK_40 = (1L << 40) - 1;
  private static final long MAX_MILLIS = (1L << 48) - 1;
  private static final Object LOCK = new Object();
  // The last ULID generated: its timestamp and its 80 random bits as two 40-bit halves.
  private static long lastMillis = -1;
  private static long lastHi;
  private static long lastLo;

  private Ulid() {}

  /** @return a fresh ULID for the current time, greater than every ULID this process generated before */
  public static String generate() {
    long now = System.currentTimeMillis();
    long millis;
    long hi;
    long lo;
    synchronized (LOCK) {
      if (now > lastMillis) {
        byte[] rnd = new byte[10];
        RANDOM.nextBytes(rnd);
        lastMillis = now;
        lastHi = bits40(rnd, 0);
        lastLo = bits40(rnd, 5);
      } else {
        // Same millisecond (or the clock stepped back): the previous ULID plus one.
        lastLo = (lastLo + 1) & MASK_40;
        if (lastLo == 0) {
          lastHi = (lastHi + 1) & MASK_40;
          if (lastHi == 0) {
            lastMillis++; // 2^80 ULIDs in one millisecond: carry into the timestamp
          }
        }
      }
      millis = lastMillis;
      hi = lastHi;
      lo = lastLo;
    }
    if (millis > MAX_MILLIS) {
      throw new IllegalStateException("ULID timestamp out of range: " + millis);
    }
    return encode(millis, hi, lo);
  }

  private static long bits40(byte[] b, int off) {
    long v = 0;
    for (int i = off; i < off + 5; i++) {
      v = (v << 8) | (b[i] & 0xff);
    }
    return v;
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
    return encode(epochMillis, bits40(random, 0), bits40(random, 5));
  }

  private static String encode(long epochMillis, long hi, long lo) {
    char[] out = new char[26];
    long t = epochMillis;
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (t & 31)];
      t >>>= 5;
    }
    // 80 random bits → 16 base32 characters.
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
