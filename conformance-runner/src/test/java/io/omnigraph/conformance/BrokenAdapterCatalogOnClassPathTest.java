package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedMethod;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.conformance.runner.TckRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.DiscoverySelector;

/**
 * The suite can fail: every defect of the {@link BrokenAdapters} catalog is caught by the tests that
 * own its guarantee, through a JUnit binding and through the strict runner (in-process, finding the
 * broken adapter through ServiceLoader as it finds any adapter), on every one of
 * {@value #RUNS_PROPERTY} runs (default 1; {@code -Domnigraph.tck.catalogRuns=20} for the kill counts).
 * Each run selects the defect's killing tests only ({@code omnigraph.tck.allowPartialRun}); the
 * built-in bindings prove the same tests pass on the real adapters.
 *
 * <p>Class path only: the runner finds {@code broken-*} schemes through this module's test
 * {@code META-INF/services}, which a named module would ignore.
 */
class BrokenAdapterCatalogOnClassPathTest {
  static final String RUNS_PROPERTY = "omnigraph.tck.catalogRuns";
  static final String ONLY_PROPERTY = "omnigraph.tck.catalogOnly";
  private static final Path WORK = Path.of("target/tck-catalog").toAbsolutePath();

  /** The fs binding with every adapter it opens broken by {@link #defect}. */
  static final class BrokenBinding extends StorageAdapterContract {
    static volatile BrokenAdapters defect;

    @Override
    protected StorageTckBinding binding() {
      LocalDirectoryBinding real = HarnessBindings.fs();
      BrokenAdapters d = defect;
      return new StorageTckBinding() {
        @Override
        public String name() {
          return d.scheme();
        }

        @Override
        public StorageAdapter openEmptyRoot() throws Exception {
          return d.breaking(real.openEmptyRoot());
        }

        @Override
        public void discardRoot(StorageAdapter adapter) throws Exception {
          real.discardRoot(BrokenAdapters.unwrap(adapter));
        }

        @Override
        public Optional<FaultController> faults() {
          return real.faults();
        }

        @Override
        public Optional<ResidueMaker> residue() {
          return real.residue(); // writes next to the broken adapter's own lanceLocation
        }
      };
    }
  }

  /** @return every defect, or those named in {@value #ONLY_PROPERTY} (comma-separated), for iterating on one */
  static List<BrokenAdapters> defects() {
    String only = System.getProperty(ONLY_PROPERTY, "").trim();
    return java.util.Arrays.stream(BrokenAdapters.values())
        .filter(d -> only.isEmpty() || List.of(only.split(",")).contains(d.name())).toList();
  }

  @ParameterizedTest
  @MethodSource("defects")
  void everyDefectIsCaughtByTheBindingAndByTheStrictRunnerOnEveryRun(BrokenAdapters defect) throws Exception {
    int runs = Integer.getInteger(RUNS_PROPERTY, 1);
    int bindingKills = 0;
    int runnerKills = 0;
    List<String> misses = new ArrayList<>();
    for (int run = 1; run <= runs; run++) {
      SuiteRun binding = bindingRun(defect);
      if (caughtByBinding(defect, binding)) {
        bindingKills++;
      } else {
        misses.add("binding run " + run + ": " + binding);
      }
      String runner = runnerRun(defect);
      if (caughtByRunner(defect, runner)) {
        runnerKills++;
      } else {
        misses.add("runner run " + run + ":\n" + runner);
      }
    }
    System.out.printf("KILLS %-36s binding %d/%d, strict runner %d/%d%n", defect, bindingKills, runs, runnerKills, runs);
    assertThat(misses).as("%s must be caught on every run", defect).isEmpty();
  }

  private static SuiteRun bindingRun(BrokenAdapters defect) {
    BrokenBinding.defect = defect;
    List<DiscoverySelector> selectors = new ArrayList<>();
    for (String killer : defect.killers()) {
      selectors.add(selectNestedMethod(List.of(BrokenBinding.class), group(killer), killer.substring(killer.indexOf('/') + 1)));
    }
    return SuiteRun.of(Map.of(ContractHarness.ALLOW_PARTIAL, "true"), selectors.toArray(DiscoverySelector[]::new));
  }

  private static boolean caughtByBinding(BrokenAdapters defect, SuiteRun run) {
    List<String> failed = run.failedTests().stream().map(r -> r.group() + "/" + r.name()).toList();
    return defect.killers().stream().allMatch(k -> failed.contains(k.substring(0, k.indexOf('/')) + "/" + sentence(k)));
  }

  private static String runnerRun(BrokenAdapters defect) throws Exception {
    Path root = Files.createDirectories(WORK.resolve(UUID.randomUUID().toString()));
    List<String> args = new ArrayList<>(List.of("--uri", defect.scheme() + "://" + root, "--certify",
        "--option", "list-page-size=100"));
    for (String killer : defect.killers()) {
      args.addAll(List.of("--select", killer));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      int exit = TckRunner.run(args.toArray(String[]::new), out, out);
      out.println("exit " + exit);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean caughtByRunner(BrokenAdapters defect, String out) {
    return out.contains("exit 1") && defect.killers().stream()
        .allMatch(k -> out.contains("FAILED  " + k.substring(0, k.indexOf('/')) + " > " + sentence(k)));
  }

  private static String sentence(String killer) {
    return GuaranteeNames.sentence(killer.substring(killer.indexOf('/') + 1));
  }

  private static Class<?> group(String killer) {
    String name = killer.substring(0, killer.indexOf('/'));
    for (Class<?> c : StorageAdapterContract.class.getDeclaredClasses()) {
      if (c.getSimpleName().equals(name) && c.isAnnotationPresent(Nested.class)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no contract group " + name);
  }
}
