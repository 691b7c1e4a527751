package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The standalone runner jar as the runner ITs start it: a child JVM running
 * {@code java -jar omnigraph-conformance-<v>-runner.jar ...}, its output and exit code.
 */
final class RunnerJar {
  /** The runner's closing line: {@code N passed, N failed, N skipped}. */
  static final Pattern CLOSING = Pattern.compile("(?m)^(\\d+) passed, (\\d+) failed, (\\d+) skipped$");
  /** Every contract group the runner prints a row for. */
  static final List<String> GROUPS = List.of("ReadAndNotFound", "AtomicPut", "ConditionalPut", "Listing",
      "ListingFailure", "TempFileResidue", "NonDurableWrite", "Delete", "ErrorMapping", "PathValidation");

  private RunnerJar() {}

  /**
   * @param exit the child's exit code
   * @param out its stdout and stderr, merged
   */
  record Run(int exit, String out) {}

  /** @return the runner jar built by the package phase (system property {@code omnigraph.tck.runnerJar}) */
  static Path jar() {
    Path jar = Path.of(System.getProperty("omnigraph.tck.runnerJar", "target/missing-runner.jar"));
    assertThat(jar).as("runner jar (built by the package phase)").isRegularFile();
    return jar;
  }

  /** Runs {@code java <javaArgs>} with this JVM's java. */
  static Run java(List<String> javaArgs) throws Exception {
    ChildJvm.Result r = ChildJvm.java(javaArgs).run(Duration.ofMinutes(10));
    return new Run(r.exitCode(), r.output());
  }

  /**
   * Runs the runner's main class with this module's test classes (the catalog's broken adapters,
   * the vendor bindings) and the test kit next to the runner jar on the class path, as a vendor
   * puts its binding jar next to it.
   */
  static Run runWithTestClasses(String... args) throws Exception {
    String cp = String.join(File.pathSeparator, jar().toString(),
        Path.of("target/test-classes").toAbsolutePath().toString(),
        Path.of(FaultProxy.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    List<String> a = new ArrayList<>(List.of("-cp", cp, "io.omnigraph.conformance.runner.TckRunner"));
    a.addAll(List.of(args));
    return java(a);
  }

  /** Runs {@code java -jar <runner> <args>}. */
  static Run run(List<String> args) throws Exception {
    List<String> a = new ArrayList<>(List.of("-jar", jar().toString()));
    a.addAll(args);
    return java(a);
  }

  /** Runs {@code java -jar <runner> <args>}. */
  static Run run(String... args) throws Exception {
    return run(List.of(args));
  }

  /**
   * Asserts a clean run: exit 0, a row with zero failures for every group, at least 40 passed and
   * none failed on the closing line.
   *
   * @return the closing line's match (group 3 is the skipped count)
   */
  static Matcher assertEveryGroupPassed(Run r) {
    assertThat(r.exit()).as(r.out()).isZero();
    for (String g : GROUPS) {
      assertThat(r.out()).as(r.out()).containsPattern("(?m)^" + g + " +\\d+ +0 +\\d+$");
    }
    Matcher m = CLOSING.matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    assertThat(Integer.parseInt(m.group(1))).as(r.out()).isGreaterThanOrEqualTo(40);
    assertThat(m.group(2)).as(r.out()).isEqualTo("0");
    return m;
  }
}
