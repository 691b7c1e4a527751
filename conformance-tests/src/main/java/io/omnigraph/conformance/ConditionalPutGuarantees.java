package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * IfAbsent and IfMatch are atomic compare-and-set operations, also under contention.
 *
 * <p>The tests of the contract group {@code ConditionalPut}, bound by {@link StorageAdapterContract.ConditionalPut}.
 */
abstract class ConditionalPutGuarantees extends ContractGroup {

  /** How long each put is held in the conditional-write races, so that every writer's check comes before any write. */
  static final Duration RACE_DELAY = Duration.ofMillis(150);

  ConditionalPutGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  /**
   * Holds every put for {@link #RACE_DELAY}, so that all racing writers make their checks before
   * any write lands: a check-then-write loses the race on every run, not by luck. Without a fault
   * controller (allowed only outside strict mode) the race runs unheld.
   */
  private void holdEveryPutDuringTheRace() {
    binding().faults().ifPresent(f -> f.delayEveryPut(RACE_DELAY));
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
