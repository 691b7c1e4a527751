package io.omnigraph.engine.read;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Full-text matching and BM25 relevance for a column that has no inverted index
 * (docs/queries.md, "Search"): the same analysis as the inverted index the engine builds (simple
 * tokenizer splitting on every character that is not a letter or digit, tokens of 40 UTF-8 bytes
 * or more dropped, lower case, ASCII folding, no stemming, no stop words), the same match rule
 * (any query token) and the same BM25 (k1 = 1.2, b = 0.75, statistics over every non-null value of
 * the column). Lance's own flat search on an unindexed column analyses text differently (its
 * default tokenizer), so it is not used.
 */
final class TextSearch {
  /** Tokens of this many UTF-8 bytes or more are dropped (the index's max token length). */
  static final int MAX_TOKEN_BYTES = 40;
  /** At most this many index terms per fuzzy query token (the Lance call's max expansions). */
  static final int MAX_EXPANSIONS = 100_000;
  private static final double K1 = 1.2;
  private static final double B = 0.75;

  private TextSearch() {}

  /** @return the analysed tokens of {@code text}, in order, duplicates kept */
  static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && !wordChar(text.codePointAt(i))) {
        i += Character.charCount(text.codePointAt(i));
      }
      int start = i;
      while (i < n && wordChar(text.codePointAt(i))) {
        i += Character.charCount(text.codePointAt(i));
      }
      if (i > start) {
        String raw = text.substring(start, i);
        if (raw.getBytes(java.nio.charset.StandardCharsets.UTF_8).length < MAX_TOKEN_BYTES) {
          out.add(fold(raw.toLowerCase(java.util.Locale.ROOT)));
        }
      }
    }
    return out;
  }

  /** Rust's {@code char::is_alphanumeric}: alphabetic or numeric. */
  private static boolean wordChar(int cp) {
    if (Character.isAlphabetic(cp) || Character.isDigit(cp)) {
      return true;
    }
    int t = Character.getType(cp);
    return t == Character.LETTER_NUMBER || t == Character.OTHER_NUMBER;
  }

  /** ASCII folding: diacritics removed, common ligatures and special letters spelled in ASCII. */
  static String fold(String token) {
    boolean ascii = true;
    for (int i = 0; i < token.length() && ascii; i++) {
      ascii = token.charAt(i) < 128;
    }
    if (ascii) {
      return token;
    }
    StringBuilder b = new StringBuilder(token.length());
    String d = Normalizer.normalize(token, Normalizer.Form.NFD);
    for (int i = 0; i < d.length(); ) {
      int cp = d.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.getType(cp) == Character.NON_SPACING_MARK) {
        continue;
      }
      switch (cp) {
        case 'ß' -> b.append("ss");
        case 'æ' -> b.append("ae");
        case 'œ' -> b.append("oe");
        case 'ø' -> b.append('o');
        case 'đ', 'ð' -> b.append('d');
        case 'ł' -> b.append('l');
        case 'þ' -> b.append("th");
        case 'ı' -> b.append('i');
        default -> b.appendCodePoint(cp);
      }
    }
    return b.toString();
  }

  /** @return the distinct query tokens (an empty set matches nothing) */
  static Set<String> queryTokens(String query) {
    return new LinkedHashSet<>(tokens(query));
  }

  /**
   * @param docTokens a value's tokens
   * @param query the distinct query tokens
   * @param maxEdits 0 for exact tokens, else the maximum Levenshtein distance per token
   * @return whether any query token matches a token of the value
   */
  static boolean matches(List<String> docTokens, Set<String> query, int maxEdits) {
    for (String t : docTokens) {
      if (maxEdits == 0) {
        if (query.contains(t)) {
          return true;
        }
        continue;
      }
      for (String q : query) {
        if (within(q, t, maxEdits)) {
          return true;
        }
      }
    }
    return false;
  }

  /** @return whether the Levenshtein distance (in code points) of {@code a} and {@code b} is at most {@code max} */
  static boolean within(String a, String b, int max) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    if (Math.abs(x.length - y.length) > max) {
      return false;
    }
    int[] prev = new int[y.length + 1];
    int[] cur = new int[y.length + 1];
    for (int j = 0; j <= y.length; j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= x.length; i++) {
      cur[0] = i;
      int best = cur[0];
      for (int j = 1; j <= y.length; j++) {
        int sub = prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
        best = Math.min(best, cur[j]);
      }
      if (best > max) {
        return false;
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[y.length] <= max;
  }

  /**
   * BM25 over one column: feed every non-null value with {@link #add}, then {@link #scores}.
   * Memory: the matching documents' term counts plus one document frequency per query token.
   */
  static final class Bm25 {
    private final Set<String> query;
    private final int maxEdits;
    private long docs;
    private long totalTokens;
    private final Map<String, Long> docFreq = new HashMap<>();
    private final Map<String, Map<String, Integer>> matched = new HashMap<>();
    private final Map<String, Integer> lengths = new HashMap<>();

    Bm25(Set<String> query, int maxEdits) {
      this.query = query;
      this.maxEdits = maxEdits;
    }

    /** Adds one non-null value of the column, of the row {@code id}. */
    void add(String id, String text) {
      List<String> toks = tokens(text);
      docs++;
      totalTokens += toks.size();
      Map<String, Integer> tf = null;
      for (String t : toks) {
        for (String q : query) {
          if (maxEdits == 0 ? q.equals(t) : within(q, t, maxEdits)) {
            if (tf == null) {
              tf = new HashMap<>();
            }
            // fuzzy: each expanded index term is scored as its own term
            tf.merge(maxEdits == 0 ? q : t, 1, Integer::sum);
          }
        }
      }
      if (tf != null) {
        for (String term : tf.keySet()) {
          docFreq.merge(term, 1L, Long::sum);
        }
        matched.put(id, tf);
        lengths.put(id, toks.size());
      }
    }

    /** @return the BM25 relevance of every matching row, by id */
    Map<String, Double> scores() {
      Map<String, Double> out = new HashMap<>();
      double avg = docs == 0 ? 0 : (double) totalTokens / docs;
      for (var e : matched.entrySet()) {
        double s = 0;
        int len = lengths.get(e.getKey());
        for (var t : e.getValue().entrySet()) {
          long n = docFreq.get(t.getKey());
          double idf = Math.log(1 + (docs - n + 0.5) / (n + 0.5));
          double tf = t.getValue();
          s += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len / avg));
        }
        out.put(e.getKey(), s);
      }
      return out;
    }
  }
}
