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

  static String sentence(String name) {
    StringBuilder out = new StringBuilder(name.length() + 16);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        out.append(' ');
        // keep acronyms such as "UTF" or "IO" readable: only lower-case a capital starting a word
        boolean nextIsLower = i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
        out.append(nextIsLower ? Character.toLowerCase(c) : c);
      } else if (Character.isDigit(c) && i > 0 && !Character.isDigit(name.charAt(i - 1))) {
        out.append(' ').append(c);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
