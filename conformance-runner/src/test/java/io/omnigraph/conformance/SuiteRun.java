package io.omnigraph.conformance;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs a contract binding through the JUnit Platform launcher and records every outcome. */
final class SuiteRun implements TestExecutionListener {

  /** One test's or container's outcome. */
  record Result(String group, String name, boolean isTest, TestExecutionResult.Status status, String message) {}

  final List<Result> results = new ArrayList<>();

  static SuiteRun of(Class<?> bindingClass) {
    return of(Map.of(), selectClass(bindingClass));
  }

  static SuiteRun of(Map<String, String> config, DiscoverySelector... selectors) {
    SuiteRun run = new SuiteRun();
    LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(selectors)
        .configurationParameters(config)
        .build(), run);
    return run;
  }

  @Override
  public synchronized void executionFinished(TestIdentifier id, TestExecutionResult result) {
    String message = result.getThrowable().map(t -> String.valueOf(t.getMessage())).orElse("");
    results.add(new Result(group(id).orElse(""), id.getDisplayName(), id.isTest(), result.getStatus(), message));
  }

  @Override
  public synchronized void executionSkipped(TestIdentifier id, String reason) {
    results.add(new Result(group(id).orElse(""), id.getDisplayName(), id.isTest(), TestExecutionResult.Status.ABORTED,
        reason));
  }

  private static Optional<String> group(TestIdentifier id) {
    if (id.getSource().isPresent() && id.getSource().get() instanceof MethodSource m) {
      String c = m.getClassName();
      int dollar = c.indexOf('$', c.lastIndexOf('.'));
      if (c.startsWith(StorageAdapterContract.class.getName() + "$")) {
        return Optional.of(c.substring(dollar + 1));
      }
    }
    return Optional.empty();
  }

  List<Result> tests() {
    return results.stream().filter(Result::isTest).toList();
  }

  List<Result> failedTests() {
    return tests().stream().filter(r -> r.status() == TestExecutionResult.Status.FAILED).toList();
  }

  List<Result> failedContainers() {
    return results.stream().filter(r -> !r.isTest() && r.status() == TestExecutionResult.Status.FAILED).toList();
  }

  Set<String> groupsWithFailures() {
    Set<String> out = new TreeSet<>();
    failedTests().forEach(r -> out.add(r.group()));
    return out;
  }

  long count(TestExecutionResult.Status status) {
    return tests().stream().filter(r -> r.status() == status).count();
  }

  @Override
  public synchronized String toString() {
    StringBuilder sb = new StringBuilder();
    for (Result r : results) {
      if (r.status() != TestExecutionResult.Status.SUCCESSFUL) {
        sb.append(r.status()).append(' ').append(r.group()).append(" > ").append(r.name()).append(": ")
            .append(r.message().lines().findFirst().orElse("")).append('\n');
      }
    }
    return sb.toString();
  }
}
