package io.omnigraph.conformance.runner;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/** Counts results per contract group, from the test's source class {@code ...Contract$Group}. */
final class RunSummary implements TestExecutionListener {
  private final Map<String, int[]> rows = new LinkedHashMap<>(); // passed, failed, skipped
  private final List<String> problems = new ArrayList<>();

  RunSummary() {
    for (String g : List.of("ReadAndNotFound", "AtomicPut", "ConditionalPut", "Listing", "ListingFailure",
        "TempFileResidue", "NonDurableWrite", "Delete", "ErrorMapping", "PathValidation")) {
      rows.put(g, new int[3]);
    }
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    if (id.isTest()) {
      row(id)[2]++;
      problems.add("SKIPPED " + label(id) + ": " + reason);
    }
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    if (!id.isTest()) {
      // A failing container is the harness (e.g. a group that ran no test) or a setup error.
      if (result.getStatus() == TestExecutionResult.Status.FAILED) {
        rows.computeIfAbsent("(harness)", k -> new int[3])[1]++;
        problems.add("FAILED  " + id.getDisplayName() + ": " + message(result));
      }
      return;
    }
    switch (result.getStatus()) {
      case SUCCESSFUL -> row(id)[0]++;
      case FAILED -> {
        row(id)[1]++;
        problems.add("FAILED  " + label(id) + ": " + message(result));
      }
      case ABORTED -> {
        row(id)[2]++;
        problems.add("SKIPPED " + label(id) + ": " + message(result));
      }
    }
  }

  private int[] row(TestIdentifier id) {
    return rows.computeIfAbsent(group(id.getSource()).orElse("(other)"), k -> new int[3]);
  }

  static Optional<String> group(Optional<TestSource> source) {
    String className = null;
    if (source.isPresent() && source.get() instanceof MethodSource m) {
      className = m.getClassName();
    } else if (source.isPresent() && source.get() instanceof ClassSource c) {
      className = c.getClassName();
    }
    if (className == null || !className.contains("$")) {
      return Optional.empty();
    }
    String nested = className.substring(className.indexOf('$') + 1);
    int inner = nested.indexOf('$');
    return Optional.of(inner < 0 ? nested : nested.substring(0, inner));
  }

  private static String label(TestIdentifier id) {
    return group(id.getSource()).map(g -> g + " > ").orElse("") + id.getDisplayName();
  }

  private static String message(TestExecutionResult result) {
    return result.getThrowable().map(t -> t.getClass().getSimpleName() + ": " + firstLine(t.getMessage()))
        .orElse("(no detail)");
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl) + " ...";
  }

  int passed() {
    return rows.values().stream().mapToInt(r -> r[0]).sum();
  }

  int failed() {
    return rows.values().stream().mapToInt(r -> r[1]).sum();
  }

  int skipped() {
    return rows.values().stream().mapToInt(r -> r[2]).sum();
  }

  void print(PrintStream out, Duration took) {
    out.println();
    for (String p : problems) {
      out.println(p);
    }
    if (!problems.isEmpty()) {
      out.println();
    }
    out.printf("%-18s %7s %7s %8s%n", "contract group", "passed", "failed", "skipped");
    for (Map.Entry<String, int[]> e : rows.entrySet()) {
      int[] r = e.getValue();
      out.printf("%-18s %7d %7d %8d%n", e.getKey(), r[0], r[1], r[2]);
    }
    out.println();
    out.printf("TCK run time: %.1f s%n", took.toMillis() / 1000.0);
    out.println(passed() + " passed, " + failed() + " failed, " + skipped() + " skipped");
  }
}
