package io.omnigraph.conformance;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The suite's check on itself at the level of a whole run: every contract group (each
 * {@link Nested} class of {@link StorageAdapterContract}) must have run at least one test —
 * passed, failed, or skipped with a reason. A group that ran nothing (not discovered, filtered
 * away, or shadowed by a binding) fails the binding's container instead of passing silently.
 *
 * <p>A binding class that is a class template (a {@code @ParameterizedClass}, e.g. over
 * {@link AdapterPath}) is checked once per invocation: each run of the whole contract must have run
 * every group.
 *
 * <p>To run a single group on purpose (in an IDE), set the JUnit configuration parameter
 * {@value #ALLOW_PARTIAL} to {@code true}. It also sets each test's strict mode ({@value #STRICT}).
 */
final class ContractHarness implements TestWatcher, AfterAllCallback, AfterClassTemplateInvocationCallback,
    BeforeEachCallback {
  /** JUnit configuration parameter that turns off the "every group ran" check. */
  static final String ALLOW_PARTIAL = "omnigraph.tck.allowPartialRun";

  /**
   * JUnit configuration parameter: {@code true} (the default) makes a test that cannot run for
   * want of a hook (fault controller, residue maker, paged listing) fail instead of being skipped —
   * certification means every test ran. {@code false} skips such tests with the reason.
   */
  static final String STRICT = "omnigraph.tck.strict";

  @Override
  public void beforeEach(ExtensionContext context) {
    boolean strict = context.getConfigurationParameter(STRICT).map(Boolean::parseBoolean).orElse(true);
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      if (instance instanceof StorageAdapterContract contract) {
        contract.strict = strict;
      }
    }
  }

  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ContractHarness.class);

  /** @return the simple names of the contract groups, in declaration order */
  static List<String> groupNames() {
    List<String> names = new ArrayList<>();
    for (Class<?> c : StorageAdapterContract.class.getDeclaredClasses()) {
      if (c.isAnnotationPresent(Nested.class) && !Modifier.isStatic(c.getModifiers())) {
        names.add(c.getSimpleName());
      }
    }
    names.sort((a, b) -> Integer.compare(GROUP_ORDER.indexOf(a), GROUP_ORDER.indexOf(b)));
    return names;
  }

  private static final List<String> GROUP_ORDER = Arrays.asList("ReadAndNotFound", "AtomicPut", "ConditionalPut",
      "Listing", "ListingFailure", "TempFileResidue", "NonDurableWrite", "Delete", "ErrorMapping", "PathValidation");

  @Override
  public void testSuccessful(ExtensionContext context) {
    count(context);
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    count(context);
  }

  @Override
  public void testAborted(ExtensionContext context, Throwable cause) {
    count(context);
  }

  @Override
  public void testDisabled(ExtensionContext context, Optional<String> reason) {
    count(context);
  }

  private static void count(ExtensionContext context) {
    Optional<String> group = groupOf(context.getRequiredTestClass());
    if (group.isEmpty()) {
      return;
    }
    ExtensionContext outer = outermostClassContext(context);
    counters(outer).computeIfAbsent(group.get(), g -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    // Runs for the binding class and, inherited, for each nested group; only the binding class checks,
    // and only when it was not a class template whose invocations were checked one by one.
    if (!StorageAdapterContract.class.isAssignableFrom(context.getRequiredTestClass())
        || context.getStore(NS).get(CHECKED_PER_INVOCATION) != null) {
      return;
    }
    checkEveryGroupRan(context);
  }

  @Override
  public void afterClassTemplateInvocation(ExtensionContext context) {
    if (!StorageAdapterContract.class.isAssignableFrom(context.getRequiredTestClass())) {
      return;
    }
    context.getParent().ifPresent(p -> p.getStore(NS).put(CHECKED_PER_INVOCATION, Boolean.TRUE));
    checkEveryGroupRan(context);
  }

  private static final String CHECKED_PER_INVOCATION = "checkedPerInvocation";

  private static void checkEveryGroupRan(ExtensionContext context) {
    if (context.getConfigurationParameter(ALLOW_PARTIAL).map(Boolean::parseBoolean).orElse(false)) {
      return;
    }
    ConcurrentHashMap<String, AtomicInteger> ran = counters(context);
    List<String> empty = new ArrayList<>();
    for (String g : groupNames()) {
      if (ran.getOrDefault(g, new AtomicInteger()).get() == 0) {
        empty.add(g);
      }
    }
    if (!empty.isEmpty()) {
      throw new AssertionError("TCK harness: contract group(s) " + empty + " of " + context.getDisplayName()
          + " ran no test; every group must run (set " + ALLOW_PARTIAL + "=true to run a subset on purpose)");
    }
  }

  @SuppressWarnings("unchecked")
  private static ConcurrentHashMap<String, AtomicInteger> counters(ExtensionContext classContext) {
    return classContext.getStore(NS).getOrComputeIfAbsent("ran", k -> new ConcurrentHashMap<String, AtomicInteger>(),
        ConcurrentHashMap.class);
  }

  private static Optional<String> groupOf(Class<?> testClass) {
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      if (c.getEnclosingClass() == StorageAdapterContract.class) {
        return Optional.of(c.getSimpleName());
      }
    }
    return Optional.empty();
  }

  /**
   * The context of the binding class nearest to this test: the invocation of a class template, or
   * the binding class's own container.
   */
  private static ExtensionContext outermostClassContext(ExtensionContext context) {
    for (ExtensionContext c = context; ; c = c.getParent().get()) {
      if (c.getTestClass().isPresent() && c.getTestMethod().isEmpty()
          && StorageAdapterContract.class.isAssignableFrom(c.getRequiredTestClass())) {
        return c;
      }
      if (c.getParent().isEmpty()) {
        return context;
      }
    }
  }
}
