package io.omnigraph.conformance.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The standalone TCK runner:
 * {@code java -jar omnigraph-conformance-<version>-runner.jar --uri <uri> [--option k=v]...}.
 *
 * <p>Finds the adapter for the URI's scheme with {@link java.util.ServiceLoader} (every adapter in
 * the jar, or on the class path next to it), runs the whole contract with each test in a fresh
 * sub-prefix {@code <uri>/tck-<time>-<random>/t<n>}, deletes that run prefix afterwards, prints one
 * row per contract group and the closing line {@code N passed, N failed, N skipped}. Fault tests run
 * when the adapter accepts an I/O hook (the file-system adapter does), residue tests when its
 * objects are local files; otherwise they are reported as skipped, with the reason.
 *
 * <p>Exit status: 0 when nothing failed, 1 when any test (or the harness) failed, 2 for a usage or
 * configuration error (bad arguments, no adapter for the scheme, the root cannot be opened).
 */
public final class TckRunner {
  static final String USAGE = String.join(System.lineSeparator(),
      "Usage: java -jar omnigraph-conformance-<version>-runner.jar --uri <uri> [--option key=value]...",
      "",
      "Runs the OmniGraph storage conformance suite (TCK) against a storage root.",
      "",
      "  --uri <uri>           root to test: file:///tmp/tck, /tmp/tck, s3://bucket/prefix, gs://..., az://...",
      "                        each test runs in a fresh sub-prefix <uri>/tck-<run>/t<n>, deleted afterwards",
      "  --option key=value    adapter option (endpoint, region, credentials, ...); repeatable",
      "  -h, --help            print this help",
      "",
      "Tests that inject faults need an adapter with an I/O hook (file: has one), tests of temp-file residue",
      "a local file system; elsewhere they are reported as skipped, with the reason.",
      "Exit status: 0 all passed, 1 failures, 2 usage or configuration error.");

  private TckRunner() {}

  /** Entry point; exits the JVM with the status described on the class. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the suite as {@link #main} would and returns the exit status instead of exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    String uri = null;
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "-h", "--help" -> {
          out.println(USAGE);
          return 0;
        }
        case "--uri" -> {
          if (i + 1 >= args.length) {
            return usage(err, "--uri needs a value");
          }
          uri = args[++i];
        }
        case "--option" -> {
          if (i + 1 >= args.length) {
            return usage(err, "--option needs key=value");
          }
          String kv = args[++i];
          int eq = kv.indexOf('=');
          if (eq <= 0) {
            return usage(err, "--option must be key=value, got '" + kv + "'");
          }
          options.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        default -> {
          if (a.startsWith("--uri=")) {
            uri = a.substring("--uri=".length());
          } else {
            return usage(err, "unknown argument '" + a + "'");
          }
        }
      }
    }
    if (uri == null) {
      return usage(err, "--uri is required");
    }

    URI base;
    StorageAdapter baseAdapter;
    try {
      base = StorageAdapters.toUri(uri);
      baseAdapter = StorageAdapters.open(base, options);
    } catch (StorageException e) {
      err.println("cannot open " + uri + ": " + e.getMessage());
      return 2;
    }
    String runPrefix = "tck-" + System.currentTimeMillis() + "-" + (ThreadLocalRandom.current().nextInt(900_000) + 100_000);
    UriRootBinding binding;
    try {
      binding = new UriRootBinding(base, runPrefix, options, baseAdapter);
    } catch (StorageException e) {
      err.println("cannot open " + uri + ": " + e.getMessage());
      return 2;
    }
    out.println("OmniGraph storage TCK against " + base + " (adapter " + baseAdapter.getClass().getName()
        + ", run prefix " + runPrefix + "; " + binding.hooks() + ")");

    Summary summary = new Summary();
    Instant started = Instant.now();
    try {
      RunnerContract.binding = binding;
      LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
          .selectors(selectClass(RunnerContract.class))
          .build();
      Launcher launcher = LauncherFactory.create();
      launcher.execute(request, summary);
    } finally {
      RunnerContract.binding = null;
      try (baseAdapter) {
        baseAdapter.deletePrefix(runPrefix);
      } catch (StorageException e) {
        err.println("warning: could not delete the run prefix " + runPrefix + ": " + e.getMessage());
      }
    }
    summary.print(out, Duration.between(started, Instant.now()));
    return summary.failed() > 0 ? 1 : 0;
  }

  private static int usage(PrintStream err, String problem) {
    err.println("error: " + problem);
    err.println();
    err.println(USAGE);
    return 2;
  }

  /** Counts results per contract group, from the test's source class {@code ...Contract$Group}. */
  static final class Summary implements TestExecutionListener {
    private final Map<String, int[]> rows = new LinkedHashMap<>(); // passed, failed, skipped
    private final List<String> problems = new ArrayList<>();

    Summary() {
      for (String g : List.of("ReadAndNotFound", "AtomicPut", "ConditionalPut", "Listing", "ListingFailure",
          "TempFileResidue", "Delete", "ErrorMapping", "PathValidation")) {
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
}
