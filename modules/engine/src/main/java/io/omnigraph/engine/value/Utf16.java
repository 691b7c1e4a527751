package io.omnigraph.engine.value;

/**
 * Well-formedness of Java strings as Unicode text: a string is a sequence of Unicode scalar values
 * only when it has no unpaired surrogate. Such a string cannot be encoded as UTF-8 (Arrow's and
 * Lance's string encoding) without loss, so the engine refuses it wherever it would cross into
 * storage.
 */
public final class Utf16 {
  private Utf16() {}

  /**
   * @param s a string
   * @return null if {@code s} is well-formed UTF-16 (no unpaired surrogate), else a description
   *     naming the first unpaired surrogate and its index
   */
  public static String problem(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        return unpaired(c, i);
      }
      if (Character.isLowSurrogate(c)) {
        return unpaired(c, i);
      }
    }
    return null;
  }

  private static String unpaired(char c, int index) {
    return "contains an unpaired surrogate U+" + String.format("%04X", (int) c) + " at index " + index;
  }
}
