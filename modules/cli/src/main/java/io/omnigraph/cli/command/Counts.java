package io.omnigraph.cli.command;

/** Counted nouns in the CLI's text output: "1 row", "2 rows". */
final class Counts {
  private Counts() {}

  /** @return {@code n} and the noun in singular when {@code n} is 1, else in plural */
  static String of(long n, String singular, String plural) {
    return n + " " + (n == 1 ? singular : plural);
  }

  /** @return {@code 1 row} or {@code N rows} */
  static String rows(long n) {
    return of(n, "row", "rows");
  }
}
