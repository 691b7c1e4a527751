package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * The plugin author's path works from the documentation alone: the Java code blocks of
 * {@code docs/tck.md} (an in-memory adapter, its provider, its binding and test class) are compiled
 * exactly as written, against nothing but what a plugin author installs (the API, the TCK, JUnit and
 * AssertJ: no adapter, no test kit, no test class of this repository), and the documented test
 * class passes the whole contract in strict mode with nothing skipped.
 */
class DocumentedAdapterOnClassPathTest {
  private static final Path GUIDE = Path.of("..", "docs", "tck.md");
  private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)\\n```");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
  private static final Pattern CLASS = Pattern.compile("(?m)^public (?:final )?class (\\w+)");

  @TempDir Path work;

  /** The entries of this JVM's class path a plugin author gets from the TCK's dependency: the API, the TCK, JUnit, AssertJ. */
  private static String publishedTypesOnly() {
    Pattern published = Pattern.compile(".*(/modules/api/target/classes|/conformance-tests/target/classes|/omnigraph-api-[^/]*\\.jar"
        + "|/omnigraph-conformance-[0-9][^/]*\\.jar|/junit-[^/]*\\.jar|/opentest4j-[^/]*\\.jar|/apiguardian-api-[^/]*\\.jar"
        + "|/assertj-core-[^/]*\\.jar)/?");
    List<String> kept = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (published.matcher(entry.replace('\\', '/')).matches()) {
        kept.add(entry);
      }
    }
    assertThat(String.join(" ", kept)).as("the published API and TCK on the compiler's class path")
        .containsPattern("api/target/classes|omnigraph-api-").containsPattern("conformance-tests/target/classes|omnigraph-conformance-");
    return String.join(java.io.File.pathSeparator, kept);
  }

  @Test
  void theGuidesAdapterBuiltFromItsCodeBlocksAlonePassesTheWholeContractWithNothingSkipped() throws Exception {
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    List<Path> sources = new ArrayList<>();
    String testClass = null;
    Matcher block = JAVA_BLOCK.matcher(guide);
    while (block.find()) {
      String code = block.group(1);
      Matcher pkg = PACKAGE.matcher(code);
      Matcher cls = CLASS.matcher(code);
      assertThat(pkg.find() && cls.find()).as("every Java block of the guide is a whole source file:%n%s", code).isTrue();
      Path file = work.resolve("src").resolve(pkg.group(1).replace('.', '/')).resolve(cls.group(1) + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, code, StandardCharsets.UTF_8);
      sources.add(file);
      if (code.contains("extends StorageAdapterContract")) {
        testClass = pkg.group(1) + "." + cls.group(1);
      }
    }
    assertThat(sources).as("the guide's Java blocks").hasSizeGreaterThanOrEqualTo(3);
    assertThat(testClass).as("a block with the binding's test class").isNotNull();

    Path classes = Files.createDirectories(work.resolve("classes"));
    ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow(() -> new AssertionError("no javac in this JDK"));
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", publishedTypesOnly(),
        "-Xlint:all", "-Werror", "-proc:none"));
    sources.forEach(s -> args.add(s.toString()));
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status;
    try (PrintStream out = new PrintStream(diagnostics, true, StandardCharsets.UTF_8)) {
      status = javac.run(out, out, args.toArray(String[]::new));
    }
    assertThat(status).as("javac of the guide's code blocks:%n%s", diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Class<?> tck = Class.forName(testClass, true, loader);
      SuiteRun run = SuiteRun.of(tck);
      assertThat(run.failedTests()).as(run.toString()).isEmpty();
      assertThat(run.failedContainers()).as(run.toString()).isEmpty();
      assertThat(run.count(Status.ABORTED)).as("skipped: %s", run).isZero();
      assertThat(run.count(Status.SUCCESSFUL)).isGreaterThanOrEqualTo(100);
    }
  }
}
