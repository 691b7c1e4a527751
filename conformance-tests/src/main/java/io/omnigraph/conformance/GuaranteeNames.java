package io.omnigraph.conformance;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Shows each contract test as the sentence its name spells ({@code aFailureOnTheFirstPageThrows}
 * becomes "a failure on the first page throws"), so a report reads as the list of guarantees.
 */
final class GuaranteeNames extends DisplayNameGenerator.Standard {

  @Override
  public String generateDisplayNameForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass,
      Method testMethod) {
    return sentence(testMethod.getName());
  }

  /**
   * Splits a camel-case name into lower-case words, keeping acronyms: {@code aFailureOnALaterPage}
   * becomes "a failure on a later page", {@code utf8NamesRoundTrip} "utf 8 names round trip",
   * {@code readsUTF8} "reads UTF 8".
   */
  static String sentence(String name) {
    List<String> words = new java.util.ArrayList<>();
    int i = 0;
    int n = name.length();
    while (i < n) {
      char c = name.charAt(i);
      int j = i + 1;
      if (Character.isDigit(c)) {
        while (j < n && Character.isDigit(name.charAt(j))) {
          j++;
        }
        words.add(name.substring(i, j));
      } else if (Character.isUpperCase(c)) {
        while (j < n && Character.isUpperCase(name.charAt(j))) {
          j++;
        }
        if (j - i > 1 && j < n && Character.isLowerCase(name.charAt(j))) {
          j--; // the last capital starts the next word: "ALater" is "A" + "Later"
        }
        if (j - i > 1) {
          words.add(name.substring(i, j)); // an acronym
        } else {
          while (j < n && Character.isLowerCase(name.charAt(j))) {
            j++;
          }
          words.add(name.substring(i, j).toLowerCase(java.util.Locale.ROOT));
        }
      } else {
        while (j < n && !Character.isUpperCase(name.charAt(j)) && !Character.isDigit(name.charAt(j))) {
          j++;
        }
        words.add(name.substring(i, j));
      }
      i = j;
    }
    return String.join(" ", words);
  }
}
