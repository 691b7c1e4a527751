package io.omnigraph.engine.failpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Source-level checks on failpoint call sites. Failpoint names are compile-time constants, which
 * javac inlines, so a bytecode rule cannot tell {@code hit(Failpoints.X)} from {@code hit("x")};
 * the sources can.
 */
public final class FailpointCallSites {
  /** {@code hit(} with its argument (up to the closing parenthesis). */
  private static final Pattern HIT = Pattern.compile("\\bhit\\s*\\(\\s*([^)]*?)\\s*\\)");
  /** An argument that names a constant: {@code Failpoints.NAME} or a statically imported {@code NAME}. */
  private static final Pattern CONSTANT = Pattern.compile("(Failpoints\\s*\\.\\s*)?([A-Z][A-Z0-9_]*)");
  private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]++|\\\\.)*+)\"");

  private FailpointCallSites() {}

  /** Where a name is passed: file and line. */
  record Site(String file, int line, String constant) {}

  /**
   * @param file a display name
   * @param source Java source text
   * @return one message per violation: a {@code Failpoints.hit} argument that is not a declared
   *     constant, or a string literal spelling a failpoint name outside {@code Failpoints.java}
   */
  static List<String> violations(String file, String source) {
    List<String> out = new ArrayList<>();
    if (file.endsWith("failpoint/Failpoints.java")) {
      return out;
    }
    boolean usesFailpoints = source.contains("Failpoints");
    if (usesFailpoints) {
      Matcher m = HIT.matcher(source);
      while (m.find()) {
        String arg = m.group(1);
        Matcher c = CONSTANT.matcher(arg);
        if (!c.matches() || !constantNames().containsKey(c.group(2))) {
          out.add(file + ":" + line(source, m.start()) + ": failpoint hit(" + arg
              + ") must pass a Failpoints constant");
        }
      }
    }
    Matcher s = STRING.matcher(source);
    while (s.find()) {
      if (Failpoints.NAMES.contains(s.group(1))) {
        out.add(file + ":" + line(source, s.start()) + ": literal \"" + s.group(1)
            + "\" spells a failpoint name; use the Failpoints constant");
      }
    }
    return out;
  }

  /** @return every {@code hit(CONSTANT)} in {@code source} */
  static List<Site> sites(String file, String source) {
    List<Site> out = new ArrayList<>();
    if (!source.contains("Failpoints") || file.endsWith("failpoint/Failpoints.java")) {
      return out;
    }
    Matcher m = HIT.matcher(source);
    while (m.find()) {
      Matcher c = CONSTANT.matcher(m.group(1));
      if (c.matches() && constantNames().containsKey(c.group(2))) {
        out.add(new Site(file, line(source, m.start()), c.group(2)));
      }
    }
    return out;
  }

  /** @return constant identifier → failpoint name, for every name constant of {@link Failpoints} */
  static Map<String, String> constantNames() {
    Map<String, String> out = new TreeMap<>();
    for (java.lang.reflect.Field f : Failpoints.class.getFields()) {
      if (f.getType() == String.class) {
        try {
          String v = (String) f.get(null);
          if (Failpoints.NAMES.contains(v)) {
            out.put(f.getName(), v);
          }
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }

  /** @return every main Java source file of the modules that may place failpoints */
  static List<Path> productionSources() {
    Path modules = moduleDir().getParent();
    List<Path> out = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(modules)) {
      for (Path module : dirs.sorted().toList()) {
        Path main = module.resolve("src/main/java");
        if (Files.isDirectory(main)) {
          try (Stream<Path> files = Files.walk(main)) {
            files.filter(p -> p.toString().endsWith(".java")).sorted().forEach(out::add);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path moduleDir() {
    Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    if (!Files.isDirectory(base.resolve("src/main/java/io/omnigraph/engine"))) {
      throw new IllegalStateException("not the engine module directory: " + base);
    }
    return base;
  }

  /** @return the failpoint names some production call site passes */
  public static TreeSet<String> placedNames() {
    TreeSet<String> out = new TreeSet<>();
    Map<String, String> names = constantNames();
    for (Path p : productionSources()) {
      for (Site s : sites(p.toString().replace('\\', '/'), read(p))) {
        out.add(names.get(s.constant()));
      }
    }
    return out;
  }

  private static int line(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
