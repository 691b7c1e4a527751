package io.omnigraph.conformance.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedMethod;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.conformance.TckBindingProvider;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The standalone TCK runner:
 * {@code java -jar omnigraph-conformance-<version>-runner.jar --uri <uri> [--option k=v]... [--allow-skips]}.
 *
 * <p>Finds the adapter for the URI's scheme with {@link java.util.ServiceLoader} (every adapter in
 * the jar, or on the class path next to it), runs the whole contract with each test in a fresh
 * sub-prefix {@code <uri>/tck-<time>-<random>/t<n>}, deletes that run prefix afterwards, prints one
 * row per contract group and the closing line {@code N passed, N failed, N skipped}.
 *
 * <p>Hooks: a {@link TckBindingProvider} for the scheme (ServiceLoader) supplies faults and residue
 * for the vendor's real service; without one, faults come from the adapter's I/O hook (the
 * file-system adapter has one) and residue only for local files.
 *
 * <p>Strict mode (the default, and what {@code --certify} asks for): a test that cannot run is a
 * failure, so "certified" means every test ran and passed. {@code --allow-skips} reports such tests
 * as skipped instead (an exploratory run, never a certification).
 *
 * <p>Exit status: 0 when nothing failed, 1 when any test (or the harness) failed, 2 for a usage or
 * configuration error (bad arguments, no adapter for the scheme, the root cannot be opened).
 */
public final class TckRunner {
  static final String USAGE = String.join(System.lineSeparator(),
      "Usage: java -jar omnigraph-conformance-<version>-runner.jar --uri <uri> [--option key=value]...",
      "           [--certify | --allow-skips] [--select <Group>[/<test>]]...",
      "",
      "Runs the OmniGraph storage conformance suite (TCK) against a storage root.",
      "",
      "  --uri <uri>           root to test: file:///tmp/tck, /tmp/tck, s3://bucket/prefix, gs://..., az://...",
      "                        each test runs in a fresh sub-prefix <uri>/tck-<run>/t<n>, deleted afterwards",
      "  --option key=value    adapter option (endpoint, region, credentials, ...); repeatable",
      "  --certify             strict mode (the default): a test that cannot run fails; exit 0 means certified",
      "  --allow-skips         report tests that cannot run as skipped (exploratory; not a certification)",
      "  --select <Group>[/<test>]  run only this contract group or test (repeatable; not a certification)",
      "  -h, --help            print this help",
      "",
      "Faults and residue come from a TckBindingProvider for the scheme on the class path (ServiceLoader);",
      "without one, faults only through an adapter's I/O hook (file: has one), residue only for local files.",
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
    boolean strict = true;
    boolean certify = false;
    List<String> selected = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "-h", "--help" -> {
          out.println(USAGE);
          return 0;
        }
        case "--certify" -> certify = true;
        case "--allow-skips" -> strict = false;
        case "--uri", "--option", "--select" -> {
          if (i + 1 >= args.length) {
            return usage(err, a + " needs a value");
          }
          String v = args[++i];
          if (a.equals("--uri")) {
            uri = v;
          } else if (a.equals("--select")) {
            selected.add(v);
          } else {
            int eq = v.indexOf('=');
            if (eq <= 0) {
              return usage(err, "--option must be key=value, got '" + v + "'");
            }
            options.put(v.substring(0, eq), v.substring(eq + 1));
          }
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
    if (certify && !strict) {
      return usage(err, "--certify and --allow-skips contradict each other");
    }
    List<DiscoverySelector> selectors;
    try {
      selectors = selectors(selected);
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
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
    StorageTckBinding binding;
    String hooks;
    Optional<TckBindingProvider> vendor = vendorBinding(base.getScheme());
    try {
      if (vendor.isPresent()) {
        String b = base.toString();
        binding = vendor.get().bind(URI.create((b.endsWith("/") ? b : b + "/") + runPrefix), options);
        hooks = "faults and residue from the vendor binding " + vendor.get().getClass().getName();
      } else {
        UriRootBinding own = new UriRootBinding(base, runPrefix, options, baseAdapter);
        binding = own;
        hooks = own.hooks();
      }
    } catch (Exception e) {
      err.println("cannot bind " + uri + ": " + e);
      try {
        baseAdapter.close();
      } catch (StorageException closing) {
        err.println("warning: could not close " + uri + ": " + closing.getMessage());
      }
      return 2;
    }
    out.println("OmniGraph storage TCK against " + base + " (adapter " + baseAdapter.getClass().getName()
        + ", run prefix " + runPrefix + "; " + hooks + "; "
        + (strict ? "strict: a test that cannot run fails" : "skips allowed: not a certification") + ")");

    RunSummary summary = new RunSummary();
    Instant started = Instant.now();
    try {
      RunnerContract.binding = binding;
      LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
          .selectors(selectors)
          .configurationParameter("omnigraph.tck.strict", Boolean.toString(strict))
          .configurationParameter("omnigraph.tck.allowPartialRun", Boolean.toString(!selected.isEmpty()))
          .build();
      Launcher launcher = LauncherFactory.create();
      launcher.execute(request, summary);
    } finally {
      RunnerContract.binding = null;
      if (binding instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          err.println("warning: could not close the vendor binding: " + e.getMessage());
        }
      }
      try (baseAdapter) {
        baseAdapter.deletePrefix(runPrefix);
      } catch (StorageException e) {
        err.println("warning: could not delete the run prefix " + runPrefix + ": " + e.getMessage());
      }
    }
    summary.print(out, Duration.between(started, Instant.now()));
    boolean failed = summary.failed() > 0 || (strict && summary.skipped() > 0);
    if (!selected.isEmpty()) {
      out.println("partial run (" + String.join(", ", selected) + "): not a certification");
    } else if (strict) {
      out.println(failed ? "NOT CERTIFIED" : "CERTIFIED: every test ran and passed");
    } else {
      out.println("skips allowed: not a certification");
    }
    return failed ? 1 : 0;
  }

  /** @return the vendor binding for {@code scheme} on the class path or module path, if any */
  private static Optional<TckBindingProvider> vendorBinding(String scheme) {
    for (TckBindingProvider p : ServiceLoader.load(TckBindingProvider.class, TckRunner.class.getClassLoader())) {
      if (p.schemes().contains(scheme)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The whole contract, or the groups and tests named {@code Group} or {@code Group/test}. */
  static List<DiscoverySelector> selectors(List<String> selected) {
    if (selected.isEmpty()) {
      return List.of(selectClass(RunnerContract.class));
    }
    List<DiscoverySelector> out = new ArrayList<>();
    for (String s : selected) {
      int slash = s.indexOf('/');
      String group = slash < 0 ? s : s.substring(0, slash);
      Class<?> nested = null;
      for (Class<?> c : StorageAdapterContract.class.getDeclaredClasses()) {
        if (c.getSimpleName().equals(group) && c.isAnnotationPresent(org.junit.jupiter.api.Nested.class)) {
          nested = c;
        }
      }
      if (nested == null) {
        throw new IllegalArgumentException("--select: no contract group '" + group + "'");
      }
      out.add(slash < 0 ? selectNestedClass(List.of(RunnerContract.class), nested)
          : selectNestedMethod(List.of(RunnerContract.class), nested, s.substring(slash + 1)));
    }
    return out;
  }

  private static int usage(PrintStream err, String problem) {
    err.println("error: " + problem);
    err.println();
    err.println(USAGE);
    return 2;
  }
}
