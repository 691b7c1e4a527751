package io.omnigraph.conformance;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.conformance.FaultController.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every contract group shares: the running test's adapter and binding (from the enclosing
 * {@link StorageAdapterContract}), the strict-mode gate for tests that need a hook, and small
 * helpers for writing, listing, failing and racing. Each group ({@code ReadAndNotFoundGuarantees},
 * ...) extends it and is bound as a {@code @Nested} class of {@link StorageAdapterContract}, so the
 * contract's lifecycle (fresh empty root, armed-fault check, discard) runs around every test.
 */
abstract class ContractGroup {
  private final StorageAdapterContract contract;

  /** The fresh, empty root of the running test (the contract's, set before each test). */
  protected StorageAdapter adapter;

  ContractGroup(StorageAdapterContract contract) {
    this.contract = contract;
  }

  /** The enclosing contract's {@code @BeforeEach} has opened the root; JUnit runs it before this. */
  @BeforeEach
  final void takeTheContractsRoot() {
    adapter = contract.adapter;
  }

  /** @return the running test's binding */
  final StorageTckBinding binding() {
    return contract.currentBinding();
  }

  /** Skips the test with {@code reason} when {@code condition} is false, or fails it in strict mode. */
  final void require(boolean condition, String reason) {
    if (!condition) {
      if (contract.strict) {
        fail("strict mode (certification): this test cannot run, and a skipped test is a failure: " + reason);
      }
      Assumptions.abort(reason);
    }
  }

  /** @return the binding's fault controller, or skips the test with the reason (fails it in strict mode) */
  final FaultController faults() {
    Optional<FaultController> f = binding().faults();
    require(f.isPresent(), "binding '" + binding().name() + "' supplies no FaultController; this test injects a fault");
    return f.get();
  }

  /** @return the binding's residue maker, or skips the test with the reason (fails it in strict mode) */
  final StorageTckBinding.ResidueMaker residue() {
    Optional<StorageTckBinding.ResidueMaker> r = binding().residue();
    require(r.isPresent(), "binding '" + binding().name()
        + "' supplies no ResidueMaker (every backend can hold temp-named residue written by another tool)");
    return r.get();
  }

  /** @return the adapter's listing page size; skips the test if the adapter does not page (fails it in strict mode) */
  final int pageSize() {
    int n = adapter.capabilities().listPageSize();
    require(n > 0, "adapter reports listPageSize 0 (unpaged listing); this test needs pages");
    return n;
  }

  /** Runs {@code call}; @return how many storage requests it made, as the fault controller counted them. */
  final long requestsOf(Operation operation, ThrowingCallable call) throws Throwable {
    FaultController f = faults();
    long before = operation == null ? f.requests() : f.requests(operation);
    call.call();
    return (operation == null ? f.requests() : f.requests(operation)) - before;
  }

  /** @return {@code s} encoded as UTF-8 */
  static byte[] utf8(String s) {
    return s.getBytes(UTF_8);
  }

  /** Writes {@code text} to {@code path} unconditionally; @return the new version token */
  final String put(String path, String text) throws StorageException {
    return adapter.put(path, utf8(text), WriteCondition.overwrite());
  }

  /** @return the complete listing of {@code dir} (any page failure throws) */
  final List<String> list(String dir) throws StorageException {
    return adapter.list(dir).toList();
  }

  /** Runs {@code call}, fails the test unless it throws a {@link StorageException}; @return that exception */
  static StorageException storageFailure(ThrowingCallable call) {
    StorageException e = catchThrowableOfType(StorageException.class, call);
    assertThat(e).as("expected a StorageException").isNotNull();
    return e;
  }

  /** Fails the test unless {@code call} throws a {@link StorageException} of {@code kind}. */
  static void assertKind(ThrowingCallable call, Kind kind) {
    assertThat(storageFailure(call).kind()).isEqualTo(kind);
  }

  /** Writes {@code n} objects {@code dir/item-00000...} with a few threads; returns their paths, sorted. */
  final List<String> writeChildren(String dir, int n) throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      paths.add(dir + "/item-" + String.format("%05d", i));
    }
    runConcurrently(8, paths.size(), i -> {
      put(paths.get(i), "v" + i);
      return null;
    });
    return paths;
  }

  /** One unit of concurrent work; {@code index} tells the tasks of one batch apart. */
  interface Task<T> {
    T run(int index) throws Exception;
  }

  /**
   * Runs {@code count} tasks on {@code threads} threads; returns their results in index order. A
   * hung task fails the test after a generous guard (a hang, not a time budget, is what it catches).
   */
  static <T> List<Outcome<T>> runConcurrently(int threads, int count, Task<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        futures.add(pool.submit((Callable<T>) () -> task.run(index)));
      }
      List<Outcome<T>> out = new ArrayList<>();
      for (Future<T> f : futures) {
        try {
          out.add(new Outcome<>(f.get(10, TimeUnit.MINUTES), null));
        } catch (ExecutionException e) {
          out.add(new Outcome<>(null, e.getCause()));
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** A task's result or failure. */
  record Outcome<T>(T value, Throwable failure) {
    boolean succeeded() {
      return failure == null;
    }
  }

  /** Fails unless every failure is a {@link StorageException} of {@code kind}. */
  static void assertFailuresAreAll(List<? extends Outcome<?>> outcomes, Kind kind) {
    for (Outcome<?> o : outcomes) {
      if (!o.succeeded()) {
        assertThat(o.failure()).isInstanceOf(StorageException.class);
        assertThat(((StorageException) o.failure()).kind()).as("failure kind of %s", o.failure()).isEqualTo(kind);
      }
    }
  }
}
