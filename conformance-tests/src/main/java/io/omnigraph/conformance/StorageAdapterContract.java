package io.omnigraph.conformance;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.conformance.FaultController.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The storage conformance suite (TCK): what every {@link StorageAdapter} guarantees, one
 * {@link Nested} group per guarantee family, test names that read as the guarantee.
 *
 * <p>Bind a backend in one short class:
 * <pre>{@code
 * class MyStoreTckTest extends StorageAdapterContract {
 *   @Override protected StorageTckBinding binding() { return new MyStoreBinding(); }
 * }
 * }</pre>
 *
 * <p>Every test gets a fresh root from {@link StorageTckBinding#openEmptyRoot()}. Tests that need
 * a fault controller or a residue maker the binding lacks are skipped with the reason. The harness
 * checks itself: a test fails when its "empty" root is not empty or when a fault it armed never
 * fired, and the binding's container fails when a contract group ran no test
 * ({@link ContractHarness}).
 */
@ExtendWith(ContractHarness.class)
@DisplayNameGeneration(GuaranteeNames.class)
public abstract class StorageAdapterContract {

  /** Top-level directories the suite writes below; each must be empty in a fresh root. */
  private static final List<String> SUITE_DIRECTORIES = List.of("", "dir", "a", "d", "deep", "race", "page", "p");

  /** Delete/re-create cycles the writer makes at least while readers call readTextIfExists. */
  static final int FLICKER_CYCLES = 300;
  /** Reads the readers make at least, in total, while the writer deletes and re-creates. */
  static final int FLICKER_READS = 1_000;
  /** Reads the torn-put race makes, in total over its readers, while the writer keeps overwriting. */
  static final int TORN_READS = 2_000;
  /** How long each put is held in the conditional-write races, so that every writer's check comes before any write. */
  static final Duration RACE_DELAY = Duration.ofMillis(150);

  /** @return the backend under test; called once per test */
  protected abstract StorageTckBinding binding();

  private StorageTckBinding currentBinding;

  /** The fresh, empty root of the running test. */
  protected StorageAdapter adapter;

  @BeforeEach
  final void openFreshEmptyRoot() throws Exception {
    currentBinding = binding();
    assertThat(currentBinding).as("binding()").isNotNull();
    currentBinding.faults().ifPresent(FaultController::reset);
    adapter = currentBinding.openEmptyRoot();
    assertThat(adapter).as("binding '%s' openEmptyRoot()", currentBinding.name()).isNotNull();
    for (String dir : SUITE_DIRECTORIES) {
      List<String> found = adapter.list(dir).toList();
      if (!found.isEmpty()) {
        fail("TCK harness: the 'empty' root from binding '%s' is not empty: list(\"%s\") = %s",
            currentBinding.name(), dir, found);
      }
    }
  }

  @AfterEach
  final void checkArmedFaultsFiredAndClose() throws Exception {
    try {
      Optional<FaultController> faults = currentBinding == null ? Optional.empty() : currentBinding.faults();
      if (faults.isPresent()) {
        List<String> unfired = List.copyOf(faults.get().unfired());
        faults.get().reset();
        if (!unfired.isEmpty()) {
          fail("TCK harness: armed fault(s) never fired, so the test proved nothing: %s", unfired);
        }
      }
    } finally {
      if (adapter != null) {
        try {
          currentBinding.discardRoot(adapter);
        } finally {
          adapter.close();
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  /**
   * Set by {@link ContractHarness} before each test from the configuration parameter
   * {@value ContractHarness#STRICT} (default {@code true}): a test that cannot run fails instead of
   * being skipped.
   */
  volatile boolean strict = true;

  /** Skips the test with {@code reason} when {@code condition} is false, or fails it in strict mode. */
  private void require(boolean condition, String reason) {
    if (!condition) {
      if (strict) {
        fail("strict mode (certification): this test cannot run, and a skipped test is a failure: " + reason);
      }
      Assumptions.abort(reason);
    }
  }

  /** @return the binding's fault controller, or skips the test with the reason (fails it in strict mode) */
  protected final FaultController faults() {
    Optional<FaultController> f = currentBinding.faults();
    require(f.isPresent(),
        "binding '" + currentBinding.name() + "' supplies no FaultController; this test injects a fault");
    return f.get();
  }

  /** @return the binding's residue maker, or skips the test with the reason (fails it in strict mode) */
  protected final StorageTckBinding.ResidueMaker residue() {
    Optional<StorageTckBinding.ResidueMaker> r = currentBinding.residue();
    require(r.isPresent(), "binding '" + currentBinding.name()
        + "' supplies no ResidueMaker (every backend can hold temp-named residue written by another tool)");
    return r.get();
  }

  /** @return the adapter's listing page size; skips the test if the adapter does not page (fails it in strict mode) */
  protected final int pageSize() {
    int n = adapter.capabilities().listPageSize();
    require(n > 0, "adapter reports listPageSize 0 (unpaged listing); this test needs pages");
    return n;
  }

  /** Runs {@code call}; @return how many storage requests it made, as the fault controller counted them. */
  protected final long requestsOf(Operation operation, ThrowingCallable call) throws Throwable {
    FaultController f = faults();
    long before = operation == null ? f.requests() : f.requests(operation);
    call.call();
    return (operation == null ? f.requests() : f.requests(operation)) - before;
  }

  /** @return {@code s} encoded as UTF-8 */
  protected static byte[] utf8(String s) {
    return s.getBytes(UTF_8);
  }

  /** Writes {@code text} to {@code path} unconditionally; @return the new version token */
  protected final String put(String path, String text) throws StorageException {
    return adapter.put(path, utf8(text), WriteCondition.overwrite());
  }

  /** @return the complete listing of {@code dir} (any page failure throws) */
  protected final List<String> list(String dir) throws StorageException {
    return adapter.list(dir).toList();
  }

  /** Runs {@code call}, fails the test unless it throws a {@link StorageException}; @return that exception */
  protected static StorageException storageFailure(ThrowingCallable call) {
    StorageException e = catchThrowableOfType(StorageException.class, call);
    assertThat(e).as("expected a StorageException").isNotNull();
    return e;
  }

  /** Fails the test unless {@code call} throws a {@link StorageException} of {@code kind}. */
  protected static void assertKind(ThrowingCallable call, Kind kind) {
    assertThat(storageFailure(call).kind()).isEqualTo(kind);
  }

  /** Writes {@code n} objects {@code dir/item-00000...} with a few threads; returns their paths, sorted. */
  protected final List<String> writeChildren(String dir, int n) throws Exception {
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
  protected static <T> List<Outcome<T>> runConcurrently(int threads, int count, Task<T> task) throws Exception {
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
  protected record Outcome<T>(T value, Throwable failure) {
    boolean succeeded() {
      return failure == null;
    }
  }

  /** Fails unless every failure is a {@link StorageException} of {@code kind}. */
  private static void assertFailuresAreAll(List<? extends Outcome<?>> outcomes, Kind kind) {
    for (Outcome<?> o : outcomes) {
      if (!o.succeeded()) {
        assertThat(o.failure()).isInstanceOf(StorageException.class);
        assertThat(((StorageException) o.failure()).kind()).as("failure kind of %s", o.failure()).isEqualTo(kind);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** Reads return exactly what was written, and absence is an answer, not an error. */
  @Nested
  class ReadAndNotFound {

    @Test
    void readTextIfExistsOfAMissingObjectIsEmpty() throws Exception {
      assertThat(adapter.readTextIfExists("dir/missing.json")).isEmpty();
      assertThat(adapter.readIfExists("dir/missing.json")).isEmpty();
    }

    @Test
    void readTextOfAMissingObjectThrowsNotFoundNamingThePath() {
      StorageException e = storageFailure(() -> adapter.readText("dir/missing.json"));
      assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
      assertThat(e.path()).isEqualTo("dir/missing.json");
    }

    @Test
    void readReturnsTheBytesAndTheVersionTokenThatPutReturned() throws Exception {
      String version = adapter.put("dir/x.json", utf8("{\"a\":1}"), WriteCondition.overwrite());
      StoredObject read = adapter.readIfExists("dir/x.json").orElseThrow();
      assertThat(read.text()).isEqualTo("{\"a\":1}");
      assertThat(read.version()).isEqualTo(version);
    }

    @Test
    void nonAsciiTextRoundTripsAsUtf8() throws Exception {
      String text = "grüße · 图 · \uD83D\uDE00 · \u0000 end";
      put("dir/text.txt", text);
      assertThat(adapter.readText("dir/text.txt")).isEqualTo(text);
    }

    @Test
    void everyByteValueRoundTripsExactly() throws Exception {
      byte[] all = new byte[512];
      for (int i = 0; i < all.length; i++) {
        all[i] = (byte) i;
      }
      adapter.put("dir/bytes.bin", all, WriteCondition.overwrite());
      assertThat(adapter.readIfExists("dir/bytes.bin").orElseThrow().bytes()).isEqualTo(all);
    }

    @Test
    void anEmptyObjectExistsAndReadsAsEmptyText() throws Exception {
      adapter.put("dir/empty", new byte[0], WriteCondition.overwrite());
      assertThat(adapter.exists("dir/empty")).isTrue();
      assertThat(adapter.readTextIfExists("dir/empty")).contains("");
    }

    @Test
    void existsIsTrueForAnObjectAndFalseForAMissingOne() throws Exception {
      put("dir/present", "x");
      assertThat(adapter.exists("dir/present")).isTrue();
      assertThat(adapter.exists("dir/absent")).isFalse();
      assertThat(adapter.exists("nowhere/at/all")).isFalse();
    }

    @Test
    void aPrefixWithObjectsBelowItIsNotAnObject() throws Exception {
      put("a/b/c.json", "x");
      assertThat(adapter.exists("a")).isFalse();
      assertThat(adapter.exists("a/b")).isFalse();
      assertThat(adapter.readTextIfExists("a/b")).isEmpty();
      assertKind(() -> adapter.readText("a/b"), Kind.NOT_FOUND);
    }

    @Test
    void readTextIfExistsAndReadIfExistsMakeExactlyOneRequest() throws Throwable {
      put("dir/x.json", "present");
      // one request each, present or absent: a check followed by a read is two requests and a race
      assertThat(requestsOf(null, () -> adapter.readTextIfExists("dir/x.json"))).as("readTextIfExists, present")
          .isEqualTo(1);
      assertThat(requestsOf(null, () -> adapter.readIfExists("dir/x.json"))).as("readIfExists, present").isEqualTo(1);
      assertThat(requestsOf(null, () -> adapter.readTextIfExists("dir/gone.json"))).as("readTextIfExists, absent")
          .isEqualTo(1);
      assertThat(requestsOf(null, () -> adapter.readIfExists("dir/gone.json"))).as("readIfExists, absent")
          .isEqualTo(1);
    }

    @Test
    void anObjectDeletedAndRecreatedInATightLoopNeverMakesReadTextIfExistsThrow() throws Exception {
      put("race/flicker", "here");
      AtomicBoolean writerDone = new AtomicBoolean();
      AtomicInteger reads = new AtomicInteger();
      int readers = 3;
      // the readers keep reading until the writer has deleted and re-created the object at least
      // FLICKER_CYCLES times and they made at least FLICKER_READS reads: every delete is a chance
      // to fall between a check and a read
      List<Outcome<Integer>> outcomes = runConcurrently(readers + 1, readers + 1, i -> {
        if (i == 0) {
          try {
            int cycles = 0;
            while (cycles < FLICKER_CYCLES || reads.get() < FLICKER_READS) {
              adapter.delete("race/flicker");
              put("race/flicker", "here");
              cycles++;
            }
            return cycles;
          } finally {
            writerDone.set(true);
          }
        }
        while (!writerDone.get()) {
          Optional<String> seen = adapter.readTextIfExists("race/flicker");
          reads.incrementAndGet();
          if (seen.isPresent()) {
            assertThat(seen.get()).isEqualTo("here");
          }
        }
        return 0;
      });
      for (Outcome<Integer> o : outcomes) {
        assertThat(o.failure()).as("a reader or the deleting writer failed: %s", o.failure()).isNull();
      }
      assertThat(reads.get()).as("reads during the delete/re-create cycles").isGreaterThanOrEqualTo(FLICKER_READS);
    }

    @Test
    void aLargeObjectRoundTrips() throws Exception {
      byte[] big = new byte[3 * 1024 * 1024 + 17];
      new java.util.Random(42).nextBytes(big);
      adapter.put("dir/big.bin", big, WriteCondition.overwrite());
      assertThat(adapter.readIfExists("dir/big.bin").orElseThrow().bytes()).isEqualTo(big);
    }
  }

  /** A put replaces a whole object in one step that readers cannot observe half-done. */
  @Nested
  class AtomicPut {

    @Test
    void overwriteReplacesTheWholeObjectWithNoTrailingOldBytes() throws Exception {
      put("dir/x", "a much longer first version of the object");
      put("dir/x", "short");
      assertThat(adapter.readText("dir/x")).isEqualTo("short");
    }

    @Test
    void overwriteOfAMissingObjectCreatesIt() throws Exception {
      put("dir/new", "created");
      assertThat(adapter.readText("dir/new")).isEqualTo("created");
    }

    @Test
    void putCreatesMissingParentPrefixes() throws Exception {
      put("deep/er/and/deeper/x.json", "x");
      assertThat(adapter.readText("deep/er/and/deeper/x.json")).isEqualTo("x");
      assertThat(list("deep/er/and/deeper")).containsExactly("deep/er/and/deeper/x.json");
    }

    @Test
    void aNewContentGetsANewVersionToken() throws Exception {
      String v1 = put("dir/x", "one");
      String v2 = put("dir/x", "two");
      assertThat(v1).isNotBlank();
      assertThat(v2).isNotBlank().isNotEqualTo(v1);
      assertThat(adapter.readIfExists("dir/x").orElseThrow().version()).isEqualTo(v2);
    }

    @Test
    void aConcurrentReaderNeverSeesATornObject() throws Exception {
      // large enough that any writer writes them in several pieces; different lengths and contents,
      // so a torn read shows as a length or a byte that neither version has
      byte[] first = new byte[160 * 1024 + 3];
      byte[] second = new byte[96 * 1024 + 1];
      Arrays.fill(first, (byte) 'A');
      Arrays.fill(second, (byte) 'B');
      adapter.put("dir/torn", first, WriteCondition.overwrite());
      AtomicBoolean readersDone = new AtomicBoolean();
      AtomicInteger reads = new AtomicInteger();
      List<String> torn = Collections.synchronizedList(new ArrayList<>());
      List<Outcome<Integer>> outcomes = runConcurrently(3, 3, i -> {
        if (i == 0) {
          int writes = 0;
          while (!readersDone.get()) { // the writer keeps going until the readers made all their reads
            adapter.put("dir/torn", writes % 2 == 0 ? second : first, WriteCondition.overwrite());
            writes++;
          }
          return writes;
        }
        try {
          while (reads.incrementAndGet() <= TORN_READS && torn.isEmpty()) {
            byte[] seen = adapter.readIfExists("dir/torn").orElseThrow().bytes();
            if (!Arrays.equals(seen, first) && !Arrays.equals(seen, second)) {
              torn.add(seen.length + " bytes, starting '" + (seen.length == 0 ? "" : (char) seen[0]) + "'");
            }
          }
        } finally {
          readersDone.set(true);
        }
        return 0;
      });
      for (Outcome<Integer> o : outcomes) {
        assertThat(o.failure()).as("reader/writer failure").isNull();
      }
      assertThat(torn).as("torn reads").isEmpty();
      assertThat(outcomes.get(0).value()).as("overwrites while the readers read").isGreaterThan(1);
    }

    @Test
    void aPutThatFailsBeforeTakingEffectLeavesThePreviousObjectIntact() throws Exception {
      put("dir/x", "old");
      faults().failNextPut();
      StorageException e = storageFailure(() -> put("dir/x", "new"));
      assertThat(e.kind()).isIn(Kind.TRANSIENT, Kind.PERMANENT, Kind.OUTCOME_UNKNOWN);
      assertThat(adapter.readText("dir/x")).isEqualTo("old");
      assertThat(list("dir")).containsExactly("dir/x");
    }

    @Test
    void aPutThatFailsOnANewObjectLeavesNothingVisible() throws Exception {
      faults().failNextPut();
      storageFailure(() -> adapter.put("dir/fresh", utf8("x"), WriteCondition.ifAbsent()));
      assertThat(adapter.exists("dir/fresh")).isFalse();
      assertThat(list("dir")).isEmpty();
      adapter.put("dir/fresh", utf8("x"), WriteCondition.ifAbsent());
      assertThat(adapter.readText("dir/fresh")).isEqualTo("x");
    }
  }

  /** IfAbsent and IfMatch are atomic compare-and-set operations, also under contention. */
  @Nested
  class ConditionalPut {

    /**
     * Holds every put for {@link #RACE_DELAY}, so that all racing writers make their checks before
     * any write lands: a check-then-write loses the race on every run, not by luck. Without a fault
     * controller (allowed only outside strict mode) the race runs unheld.
     */
    private void holdEveryPutDuringTheRace() {
      currentBinding.faults().ifPresent(f -> f.delayEveryPut(RACE_DELAY));
    }

    @Test
    void ifAbsentCreatesAMissingObject() throws Exception {
      String v = adapter.put("dir/once", utf8("1"), WriteCondition.ifAbsent());
      assertThat(adapter.readIfExists("dir/once").orElseThrow()).isEqualTo(new StoredObject(utf8("1"), v));
    }

    @Test
    void ifAbsentOnAnExistingObjectFailsWithPreconditionFailedAndWritesNothing() throws Exception {
      put("dir/once", "first");
      StorageException e = storageFailure(() -> adapter.put("dir/once", utf8("second"), WriteCondition.ifAbsent()));
      assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED);
      assertThat(e.path()).isEqualTo("dir/once");
      assertThat(adapter.readText("dir/once")).isEqualTo("first");
    }

    @Test
    void ifAbsentSucceedsAgainAfterTheObjectWasDeleted() throws Exception {
      adapter.put("dir/once", utf8("1"), WriteCondition.ifAbsent());
      adapter.delete("dir/once");
      adapter.put("dir/once", utf8("2"), WriteCondition.ifAbsent());
      assertThat(adapter.readText("dir/once")).isEqualTo("2");
    }

    @Test
    void sixteenConcurrentIfAbsentWritersHaveExactlyOneWinner() throws Exception {
      holdEveryPutDuringTheRace();
      int writers = 16;
      CyclicBarrier start = new CyclicBarrier(writers);
      List<Outcome<String>> outcomes = runConcurrently(writers, writers, i -> {
        start.await();
        adapter.put("race/claim", utf8("writer-" + i), WriteCondition.ifAbsent());
        return "writer-" + i;
      });
      List<String> winners = outcomes.stream().filter(Outcome::succeeded).map(Outcome::value).toList();
      assertThat(winners).hasSize(1);
      assertFailuresAreAll(outcomes, Kind.PRECONDITION_FAILED);
      assertThat(adapter.readText("race/claim")).isEqualTo(winners.get(0));
    }

    @Test
    void ifMatchWithTheCurrentTokenReplacesTheObject() throws Exception {
      String v1 = put("dir/cas", "1");
      String v2 = adapter.put("dir/cas", utf8("2"), WriteCondition.ifMatch(v1));
      assertThat(adapter.readIfExists("dir/cas").orElseThrow()).isEqualTo(new StoredObject(utf8("2"), v2));
    }

    @Test
    void ifMatchAcceptsTheTokenReturnedByARead() throws Exception {
      put("dir/cas", "1");
      String token = adapter.readIfExists("dir/cas").orElseThrow().version();
      adapter.put("dir/cas", utf8("2"), WriteCondition.ifMatch(token));
      assertThat(adapter.readText("dir/cas")).isEqualTo("2");
    }

    @Test
    void ifMatchWithAStaleTokenFailsWithPreconditionFailedAndWritesNothing() throws Exception {
      String stale = put("dir/cas", "1");
      put("dir/cas", "2");
      StorageException e = storageFailure(() -> adapter.put("dir/cas", utf8("3"), WriteCondition.ifMatch(stale)));
      assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED);
      assertThat(adapter.readText("dir/cas")).isEqualTo("2");
    }

    @Test
    void ifMatchOnAMissingObjectFailsWithPreconditionFailedAndCreatesNothing() throws Exception {
      String token = put("dir/other", "1");
      assertKind(() -> adapter.put("dir/cas", utf8("x"), WriteCondition.ifMatch(token)), Kind.PRECONDITION_FAILED);
      assertThat(adapter.exists("dir/cas")).isFalse();
    }

    @Test
    void sixteenConcurrentIfMatchWritersHoldingOneTokenHaveExactlyOneWinner() throws Exception {
      String token = put("race/cas", "start");
      holdEveryPutDuringTheRace();
      int writers = 16;
      CyclicBarrier start = new CyclicBarrier(writers);
      List<Outcome<String>> outcomes = runConcurrently(writers, writers, i -> {
        start.await();
        adapter.put("race/cas", utf8("writer-" + i), WriteCondition.ifMatch(token));
        return "writer-" + i;
      });
      List<String> winners = outcomes.stream().filter(Outcome::succeeded).map(Outcome::value).toList();
      assertThat(winners).hasSize(1);
      assertFailuresAreAll(outcomes, Kind.PRECONDITION_FAILED);
      assertThat(adapter.readText("race/cas")).isEqualTo(winners.get(0));
    }

    @Test
    void readModifyWriteWithIfMatchLosesNoUpdateUnderContention() throws Exception {
      put("race/counter", "0");
      int threads = 4;
      int incrementsEach = 10;
      List<Outcome<Integer>> outcomes = runConcurrently(threads, threads, i -> {
        int conflicts = 0;
        for (int k = 0; k < incrementsEach; k++) {
          while (true) {
            StoredObject cur = adapter.readIfExists("race/counter").orElseThrow();
            int next = Integer.parseInt(cur.text()) + 1;
            try {
              adapter.put("race/counter", utf8(Integer.toString(next)), WriteCondition.ifMatch(cur.version()));
              break;
            } catch (StorageException e) {
              if (e.kind() != Kind.PRECONDITION_FAILED || ++conflicts > 10_000) {
                throw e;
              }
            }
          }
        }
        return conflicts;
      });
      for (Outcome<Integer> o : outcomes) {
        assertThat(o.failure()).isNull();
      }
      assertThat(adapter.readText("race/counter")).isEqualTo(Integer.toString(threads * incrementsEach));
    }
  }

  /** A listing is the exact, sorted set of direct child objects, with names that round-trip. */
  @Nested
  class Listing {

    @Test
    void listReturnsDirectChildObjectsOnly() throws Exception {
      put("d/x", "1");
      put("d/y.json", "2");
      put("d/sub/z", "3");
      put("d/sub/deeper/w", "4");
      assertThat(list("d")).containsExactly("d/x", "d/y.json");
      assertThat(list("")).isEmpty();
    }

    @Test
    void nestedPrefixesListIndependently() throws Exception {
      put("a/1", "");
      put("a/b/2", "");
      put("a/b/c/3", "");
      assertThat(list("a")).containsExactly("a/1");
      assertThat(list("a/b")).containsExactly("a/b/2");
      assertThat(list("a/b/c")).containsExactly("a/b/c/3");
    }

    @Test
    void rootLevelObjectsAreListedUnderTheEmptyDirectory() throws Exception {
      put("top.json", "t");
      put("dir/below", "b");
      assertThat(list("")).containsExactly("top.json");
    }

    @Test
    void siblingsThatShareANamePrefixAreNotChildren() throws Exception {
      put("d/x", "object named like the prefix's sibling");
      put("dx/y", "");
      put("d.json", "");
      put("d-1/z", "");
      assertThat(list("d")).containsExactly("d/x");
    }

    @Test
    void aTrailingSlashNamesTheSameDirectory() throws Exception {
      put("d/x", "1");
      assertThat(list("d/")).isEqualTo(list("d")).containsExactly("d/x");
    }

    @Test
    void aMissingDirectoryListsAsEmpty() throws Exception {
      assertThat(list("d/never/written")).isEmpty();
    }

    @Test
    void listedNamesAreRootRelativePathsThatReadBack() throws Exception {
      put("d/one", "1");
      put("d/two", "2");
      for (String name : list("d")) {
        assertThat(adapter.readText(name)).isEqualTo(name.endsWith("one") ? "1" : "2");
      }
    }

    @Test
    void listingIsSortedByUtf8Bytes() throws Exception {
      List<String> names = List.of("B", "a", "aa", "a-b", "a_b", "Z9", "0", "~", "é", "\uFFFD", "\uD83D\uDE00", "ab");
      for (String n : names) {
        put("d/" + n, n);
      }
      List<String> expected = new ArrayList<>();
      for (String n : names) {
        expected.add("d/" + n);
      }
      expected.sort(StoragePaths.UTF8_ORDER);
      assertThat(list("d")).containsExactlyElementsOf(expected);
    }

    @Test
    void nonAsciiAndUnusualNamesRoundTripThroughListAndRead() throws Exception {
      List<String> names = List.of("grüße.json", "图表", "emoji-\uD83D\uDE00", "with space", "semi;colon", "plus+sign",
          "percent%20", "hash#tag", "x#12a", "quote'\"", "q?a=b&c", "tilde~", "ümlaut/child");
      for (String n : names) {
        put("d/" + n, n);
      }
      List<String> listed = list("d");
      for (String n : names) {
        if (!n.contains("/")) {
          assertThat(listed).contains("d/" + n);
        }
        assertThat(adapter.readText("d/" + n)).isEqualTo(n);
      }
      assertThat(list("d/ümlaut")).containsExactly("d/ümlaut/child");
    }

    @Test
    void aListingSpansPagesWithAtLeastAThousandChildren() throws Exception {
      int page = adapter.capabilities().listPageSize();
      int n = Math.max(1000, page > 0 ? 2 * page + 1 : 0);
      List<String> written = writeChildren("page", n);
      if (page > 0) {
        assertThat(n).as("children must span more than one page").isGreaterThan(page);
      }
      List<String> listed = list("page");
      assertThat(listed).hasSize(n).doesNotHaveDuplicates().containsExactlyElementsOf(written);
    }

    @Test
    void aListingMakesThePageRequestsItsDeclaredPageSizeImplies() throws Throwable {
      int page = adapter.capabilities().listPageSize();
      int n = page > 0 ? 2 * page + 1 : 250;
      writeChildren("page", n);
      List<String> listed = new ArrayList<>();
      long pages = requestsOf(Operation.LIST_PAGE, () -> listed.addAll(list("page")));
      assertThat(listed).hasSize(n);
      // the capability is checked against what the adapter does: a declared page size the listing
      // contradicts fails here (0 means one request for the whole listing)
      long expected = page > 0 ? (n + page - 1) / page : 1;
      assertThat(pages).as("list requests for %d children with declared listPageSize %d", n, page)
          .isEqualTo(expected);
    }

    @Test
    void aDeletedObjectIsNoLongerListed() throws Exception {
      put("d/keep", "");
      put("d/drop", "");
      adapter.delete("d/drop");
      assertThat(list("d")).containsExactly("d/keep");
    }

    @Test
    void listingAnObjectsOwnPathListsNothing() throws Exception {
      put("d/x", "1");
      assertThat(list("d/x")).isEmpty();
    }

    @Test
    void listingsMatchAModelAfterARandomMixOfPutsDeletesAndPrefixDeletes() throws Exception {
      java.util.Random random = new java.util.Random(20_261_202L); // fixed seed: the same sequence on every run
      java.util.TreeMap<String, String> model = new java.util.TreeMap<>();
      List<String> dirs = List.of("d", "d/s", "d/s/t", "d/v");
      List<String> names = List.of("a", "b", "é", "t-1", "u.json", "x y");
      for (int i = 0; i < 150; i++) {
        String dir = dirs.get(random.nextInt(dirs.size()));
        String path = dir + "/" + names.get(random.nextInt(names.size()));
        int op = random.nextInt(10);
        if (op < 6) {
          put(path, "v" + i);
          model.put(path, "v" + i);
        } else if (op < 9) {
          adapter.delete(path);
          model.remove(path);
        } else {
          adapter.deletePrefix(dir);
          model.keySet().removeIf(k -> k.startsWith(dir + "/"));
        }
      }
      for (String dir : dirs) {
        List<String> expected = new ArrayList<>();
        for (String k : model.keySet()) {
          if (k.substring(0, k.lastIndexOf('/')).equals(dir)) {
            expected.add(k);
          }
        }
        expected.sort(StoragePaths.UTF8_ORDER);
        assertThat(list(dir)).as("list(%s)", dir).containsExactlyElementsOf(expected);
      }
      for (var e : model.entrySet()) {
        assertThat(adapter.readText(e.getKey())).isEqualTo(e.getValue());
      }
    }

    @Test
    void aListingClosedEarlyReleasesWithoutError() throws Exception {
      put("d/1", "");
      put("d/2", "");
      try (ObjectListing listing = adapter.list("d")) {
        assertThat(listing.hasNext()).isTrue();
        assertThat(listing.next()).isEqualTo("d/1");
      }
    }
  }

  /** A listing is complete or an error: page failures throw, wherever they happen. */
  @Nested
  class ListingFailure {

    @Test
    void aFailureOnTheFirstPageThrows() throws Exception {
      put("d/x", "");
      faults().failListPage(1);
      storageFailure(() -> adapter.list("d").toList());
    }

    @Test
    void aFailureOnALaterPageThrowsInsteadOfEndingTheListingEarly() throws Exception {
      int page = pageSize();
      int n = 2 * page + 1;
      writeChildren("page", n);
      faults().failListPage(2);
      List<String> seen = new ArrayList<>();
      StorageException e = storageFailure(() -> {
        try (ObjectListing listing = adapter.list("page")) {
          while (listing.hasNext()) {
            seen.add(listing.next());
          }
        }
      });
      assertThat(e.kind()).isNotNull();
      assertThat(seen).as("entries returned before the failing page").isNotEmpty().hasSizeLessThan(n);
    }

    @Test
    void aFailureOnTheLastPageThrows() throws Exception {
      int page = pageSize();
      int n = 2 * page + 1;
      writeChildren("page", n);
      faults().failListPage((n + page - 1) / page);
      StorageException e = storageFailure(() -> adapter.list("page").toList());
      assertThat(e.kind()).isNotNull();
    }

    @Test
    void aListingAfterAFailedOneIsCompleteAgain() throws Exception {
      int page = pageSize();
      int n = 2 * page + 1;
      List<String> written = writeChildren("page", n);
      faults().failListPage(2);
      storageFailure(() -> adapter.list("page").toList());
      assertThat(list("page")).containsExactlyElementsOf(written);
    }
  }

  /** What an interrupted write leaves behind is invisible, and temp names are not addresses. */
  @Nested
  class TempFileResidue {

    @Test
    void residueOfAnInterruptedWriteIsNotListed() throws Exception {
      put("dir/real", "r");
      String name = residue().leaveResidue(adapter, "dir/ghost.json", utf8("{\"part"));
      assertThat(list("dir")).containsExactly("dir/real").doesNotContain(name);
    }

    @Test
    void residueOfAnInterruptedWriteIsNotAnObject() throws Exception {
      residue().leaveResidue(adapter, "dir/ghost.json", utf8("{\"part"));
      assertThat(adapter.exists("dir/ghost.json")).isFalse();
      assertThat(adapter.readTextIfExists("dir/ghost.json")).isEmpty();
    }

    @Test
    void residueNextToAnObjectDoesNotChangeWhatReadersSee() throws Exception {
      String v = put("dir/x.json", "whole");
      residue().leaveResidue(adapter, "dir/x.json", utf8("par"));
      assertThat(adapter.readIfExists("dir/x.json").orElseThrow()).isEqualTo(new StoredObject(utf8("whole"), v));
      assertThat(list("dir")).containsExactly("dir/x.json");
    }

    @Test
    void residueDoesNotBlockAConditionalCreate() throws Exception {
      residue().leaveResidue(adapter, "dir/x.json", utf8("par"));
      adapter.put("dir/x.json", utf8("real"), WriteCondition.ifAbsent());
      assertThat(adapter.readText("dir/x.json")).isEqualTo("real");
    }

    @Test
    void aTempNameIsRefusedAsAnAddressForRead() {
      assertKind(() -> adapter.readTextIfExists("dir/x#123"), Kind.INVALID_PATH);
      assertKind(() -> adapter.readText("x#123"), Kind.INVALID_PATH);
      assertKind(() -> adapter.readIfExists("x#123"), Kind.INVALID_PATH);
      assertKind(() -> adapter.exists("x#123"), Kind.INVALID_PATH);
    }

    @Test
    void aTempNameIsRefusedAsAnAddressForPut() throws Exception {
      assertKind(() -> adapter.put("x#123", utf8("x"), WriteCondition.overwrite()), Kind.INVALID_PATH);
      assertKind(() -> adapter.put("dir/x#1", utf8("x"), WriteCondition.ifAbsent()), Kind.INVALID_PATH);
      assertThat(list("")).isEmpty();
      assertThat(list("dir")).isEmpty();
    }

    @Test
    void aTempNameIsRefusedAsAnAddressForDelete() {
      assertKind(() -> adapter.delete("x#123"), Kind.INVALID_PATH);
      assertKind(() -> adapter.delete("dir/x#0"), Kind.INVALID_PATH);
    }
  }

  /** Deletes are idempotent and a prefix delete removes everything below the prefix, only that. */
  @Nested
  class Delete {

    @Test
    void deleteRemovesTheObject() throws Exception {
      put("dir/x", "1");
      adapter.delete("dir/x");
      assertThat(adapter.exists("dir/x")).isFalse();
      assertThat(adapter.readTextIfExists("dir/x")).isEmpty();
    }

    @Test
    void deletingAMissingObjectSucceeds() throws Exception {
      adapter.delete("dir/never");
      adapter.delete("nowhere/deep/never");
      assertThat(adapter.exists("dir/never")).isFalse();
    }

    @Test
    void deletingTwiceSucceeds() throws Exception {
      put("dir/x", "1");
      adapter.delete("dir/x");
      adapter.delete("dir/x");
      assertThat(adapter.exists("dir/x")).isFalse();
    }

    @Test
    void deletingAPrefixPathAsAnObjectLeavesTheObjectsBelowIt() throws Exception {
      put("dir/sub/x", "1");
      adapter.delete("dir/sub");
      assertThat(adapter.readText("dir/sub/x")).isEqualTo("1");
    }

    @Test
    void deletePrefixRemovesEveryObjectAtAnyDepthAndNothingElse() throws Exception {
      put("p/a", "");
      put("p/b/c", "");
      put("p/b/d/e", "");
      put("p2/keep", "");
      put("p.json", "");
      put("dir/keep", "");
      adapter.deletePrefix("p");
      assertThat(list("p")).isEmpty();
      assertThat(list("p/b")).isEmpty();
      assertThat(adapter.exists("p/b/d/e")).isFalse();
      assertThat(adapter.readTextIfExists("p2/keep")).contains("");
      assertThat(adapter.exists("p.json")).isTrue();
      assertThat(list("dir")).containsExactly("dir/keep");
    }

    @Test
    void deletePrefixOfTheRootEmptiesTheRoot() throws Exception {
      put("top", "");
      put("dir/x", "");
      put("dir/sub/y", "");
      adapter.deletePrefix("");
      assertThat(list("")).isEmpty();
      assertThat(list("dir")).isEmpty();
      assertThat(list("dir/sub")).isEmpty();
      put("dir/again", "the root is still usable");
      assertThat(list("dir")).containsExactly("dir/again");
    }

    @Test
    void deletePrefixOfAMissingPrefixSucceeds() throws Exception {
      adapter.deletePrefix("p/never");
      adapter.deletePrefix("p/never/");
      assertThat(list("p")).isEmpty();
    }

    @Test
    void aDeleteThatFailsLeavesTheObject() throws Exception {
      put("dir/x", "1");
      faults().failNextDelete();
      StorageException e = storageFailure(() -> adapter.delete("dir/x"));
      assertThat(e.kind()).isNotIn(Kind.NOT_FOUND, Kind.PRECONDITION_FAILED);
      assertThat(adapter.readText("dir/x")).isEqualTo("1");
    }
  }

  /** Failures carry a backend-neutral kind and the path they concern. */
  @Nested
  class ErrorMapping {

    @Test
    void notFoundCarriesTheKindThePathAndBothInTheMessage() {
      StorageException e = storageFailure(() -> adapter.readText("dir/none"));
      assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
      assertThat(e.path()).isEqualTo("dir/none");
      assertThat(e.getMessage()).contains("NOT_FOUND").contains("dir/none");
    }

    @Test
    void aFailedConditionIsPreconditionFailedNamingThePath() throws Exception {
      put("dir/x", "1");
      StorageException e = storageFailure(() -> adapter.put("dir/x", utf8("2"), WriteCondition.ifAbsent()));
      assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED);
      assertThat(e.path()).isEqualTo("dir/x");
    }

    @Test
    void aPutWhoseResponseIsLostIsOutcomeUnknownAndReadingRevealsTheOutcome() throws Exception {
      put("dir/x", "old");
      faults().applyNextPutThenFail();
      StorageException e = storageFailure(() -> put("dir/x", "new"));
      assertThat(e.kind()).isEqualTo(Kind.OUTCOME_UNKNOWN);
      assertThat(adapter.readText("dir/x")).isEqualTo("new");
    }

    @Test
    void aConditionalCreateWhoseResponseIsLostIsOutcomeUnknown() throws Exception {
      faults().applyNextPutThenFail();
      StorageException e = storageFailure(() -> adapter.put("dir/x", utf8("mine"), WriteCondition.ifAbsent()));
      assertThat(e.kind()).isEqualTo(Kind.OUTCOME_UNKNOWN);
      assertThat(adapter.readText("dir/x")).isEqualTo("mine");
    }

    @Test
    void anInjectedBackendFailureKeepsTheBackendCause() throws Exception {
      faults().failNextPut();
      StorageException e = storageFailure(() -> put("dir/x", "1"));
      assertThat(e.getCause()).as("the backend's own exception").isNotNull();
      assertThat(e.path()).isEqualTo("dir/x");
    }

    @Test
    void anInvalidPathFailsBeforeAnyRequestIsMade() throws Exception {
      FaultController f = faults();
      f.failNextPut();
      assertKind(() -> adapter.put("../escape", utf8("x"), WriteCondition.overwrite()), Kind.INVALID_PATH);
      assertThat(f.unfired()).as("the armed fault must still be pending: no request was made").isNotEmpty();
      storageFailure(() -> put("dir/x", "consumes the armed fault"));
      assertThat(adapter.exists("dir/x")).isFalse();
    }

    @Test
    void aDeniedExistsCheckThrowsPermissionNeverFalse() throws Exception {
      put("dir/x", "1");
      faults().denyNext(Operation.EXISTS);
      assertKind(() -> adapter.exists("dir/x"), Kind.PERMISSION);
      assertThat(adapter.exists("dir/x")).isTrue();
    }

    @Test
    void aDeniedReadThrowsPermissionFromEveryReadNeverEmpty() throws Exception {
      put("dir/x", "1");
      faults().denyNext(Operation.READ);
      assertKind(() -> adapter.readText("dir/x"), Kind.PERMISSION);
      faults().denyNext(Operation.READ);
      assertKind(() -> adapter.readTextIfExists("dir/x"), Kind.PERMISSION);
      faults().denyNext(Operation.READ);
      assertKind(() -> adapter.readIfExists("dir/x"), Kind.PERMISSION);
      assertThat(adapter.readText("dir/x")).isEqualTo("1");
    }

    @Test
    void aDeniedPutThrowsPermissionAndWritesNothing() throws Exception {
      put("dir/x", "old");
      faults().denyNext(Operation.PUT);
      assertKind(() -> put("dir/x", "new"), Kind.PERMISSION);
      faults().denyNext(Operation.PUT);
      assertKind(() -> adapter.put("dir/y", utf8("new"), WriteCondition.ifAbsent()), Kind.PERMISSION);
      assertThat(adapter.readText("dir/x")).isEqualTo("old");
      assertThat(list("dir")).containsExactly("dir/x");
    }

    @Test
    void aDeniedDeleteThrowsPermissionAndLeavesTheObject() throws Exception {
      put("dir/x", "1");
      faults().denyNext(Operation.DELETE);
      assertKind(() -> adapter.delete("dir/x"), Kind.PERMISSION);
      assertThat(adapter.readText("dir/x")).isEqualTo("1");
    }

    @Test
    void aDeniedListingThrowsPermissionNeverAnEmptyOrPartialListing() throws Exception {
      int page = pageSize();
      List<String> written = writeChildren("page", page + 1);
      faults().denyNext(Operation.LIST_PAGE);
      assertKind(() -> adapter.list("page").toList(), Kind.PERMISSION);
      // a later page refused: the entries of the first page do not make a complete listing
      try (ObjectListing listing = adapter.list("page")) {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < page; i++) {
          assertThat(listing.hasNext()).isTrue();
          seen.add(listing.next());
        }
        faults().denyNext(Operation.LIST_PAGE);
        assertKind(() -> {
          while (listing.hasNext()) {
            seen.add(listing.next());
          }
        }, Kind.PERMISSION);
        assertThat(seen).hasSize(page);
      }
      assertThat(list("page")).containsExactlyElementsOf(written);
    }

    @Test
    void aListingFailureIsAStorageExceptionWithAKind() throws Exception {
      faults().failListPage(1);
      StorageException e = storageFailure(() -> adapter.list("").toList());
      assertThat(e.kind()).isIn(Kind.TRANSIENT, Kind.PERMANENT, Kind.PERMISSION, Kind.OUTCOME_UNKNOWN);
    }
  }

  /** Every operation refuses illegal addresses with INVALID_PATH, before touching storage. */
  @Nested
  class PathValidation {

    @ParameterizedTest
    @ValueSource(strings = {"", "/abs", "a//b", "a/", "./a", "a/./b", "a/../b", "..", "../x", "a\\b", "a\u0000b",
        "a\nb", "a\u007fb", "x#123", "dir/x#0"})
    void everyObjectOperationRefusesAnIllegalPath(String illegal) {
      assertKind(() -> adapter.readTextIfExists(illegal), Kind.INVALID_PATH);
      assertKind(() -> adapter.readText(illegal), Kind.INVALID_PATH);
      assertKind(() -> adapter.readIfExists(illegal), Kind.INVALID_PATH);
      assertKind(() -> adapter.exists(illegal), Kind.INVALID_PATH);
      assertKind(() -> adapter.put(illegal, utf8("x"), WriteCondition.overwrite()), Kind.INVALID_PATH);
      assertKind(() -> adapter.put(illegal, utf8("x"), WriteCondition.ifAbsent()), Kind.INVALID_PATH);
      assertKind(() -> adapter.put(illegal, utf8("x"), WriteCondition.ifMatch("v")), Kind.INVALID_PATH);
      assertKind(() -> adapter.delete(illegal), Kind.INVALID_PATH);
      assertKind(() -> adapter.lanceLocation(illegal), Kind.INVALID_PATH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/abs", "a//b", "./a", "a/../b", "..", "a\\b", "a\u0001b", "d/x#9"})
    void listAndDeletePrefixRefuseAnIllegalDirectory(String illegal) {
      assertKind(() -> adapter.list(illegal), Kind.INVALID_PATH);
      assertKind(() -> adapter.deletePrefix(illegal), Kind.INVALID_PATH);
    }

    @Test
    void refusedWritesLeaveNothingBehind() throws Exception {
      for (String illegal : List.of("../x", "a//b", "a/../b")) {
        assertKind(() -> put(illegal, "x"), Kind.INVALID_PATH);
      }
      assertThat(list("")).isEmpty();
      assertThat(list("a")).isEmpty();
    }

    @Test
    void legalButUnusualNamesAreAccepted() throws Exception {
      List<String> legal = List.of("x#", "x#12a", "#1/b", "a.b", "...", "a..b", "-", "_");
      Set<String> written = new HashSet<>();
      for (String path : legal) {
        put("dir/" + path, path);
        written.add("dir/" + path);
      }
      for (String path : legal) {
        assertThat(adapter.readText("dir/" + path)).isEqualTo(path);
      }
      assertThat(list("dir")).contains("dir/x#", "dir/x#12a", "dir/a.b", "dir/...", "dir/a..b", "dir/-", "dir/_");
      assertThat(written).hasSize(legal.size());
    }

    @Test
    void lanceLocationsOfDistinctPathsAreDistinctUrisNamingThePath() throws Exception {
      LanceLocation one = adapter.lanceLocation("tables/nodes.lance");
      LanceLocation two = adapter.lanceLocation("tables/edges.lance");
      assertThat(one.uri()).isNotBlank().contains("tables/nodes.lance").isNotEqualTo(two.uri());
      assertThat(one.uri()).startsWith(adapter.capabilities().scheme() + ":");
      assertThat(one.storageOptions()).isNotNull();
    }
  }
}
