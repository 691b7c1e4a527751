package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.conformance.FaultController.Operation;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * {@code putNonDurable} and {@code deleteNonDurable} keep every promise of {@code put} and
 * {@code delete} except durability against power loss: the same visibility to readers and
 * listings, the same atomic conditions (also under a held race), the same version tokens, the same
 * failure kinds. (Durability itself is not observable without cutting the power; what must hold
 * while the process lives is.)
 *
 * <p>The tests of the contract group {@code NonDurableWrite}, bound by
 * {@link StorageAdapterContract.NonDurableWrite}.
 */
abstract class NonDurableWriteGuarantees extends ContractGroup {

  NonDurableWriteGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void aNonDurablePutIsReadListedAndVersionedLikeAPut() throws Exception {
    String v1 = adapter.putNonDurable("dir/lease", utf8("1"), WriteCondition.overwrite());
    assertThat(adapter.readIfExists("dir/lease").orElseThrow()).isEqualTo(new StoredObject(utf8("1"), v1));
    assertThat(adapter.exists("dir/lease")).isTrue();
    assertThat(list("dir")).containsExactly("dir/lease");
    String v2 = adapter.putNonDurable("dir/lease", utf8("2"), WriteCondition.overwrite());
    assertThat(v2).isNotEqualTo(v1);
    assertThat(adapter.readIfExists("dir/lease").orElseThrow()).isEqualTo(new StoredObject(utf8("2"), v2));
  }

  @Test
  void nonDurableConditionsAreTheConditionsOfAPut() throws Exception {
    String v1 = adapter.putNonDurable("dir/lease", utf8("1"), WriteCondition.ifAbsent());
    StorageException absent = storageFailure(
        () -> adapter.putNonDurable("dir/lease", utf8("x"), WriteCondition.ifAbsent()));
    assertThat(absent.kind()).isEqualTo(Kind.PRECONDITION_FAILED);
    assertThat(absent.path()).isEqualTo("dir/lease");
    String v2 = adapter.putNonDurable("dir/lease", utf8("2"), WriteCondition.ifMatch(v1));
    assertKind(() -> adapter.putNonDurable("dir/lease", utf8("y"), WriteCondition.ifMatch(v1)), Kind.PRECONDITION_FAILED);
    assertKind(() -> adapter.putNonDurable("dir/none", utf8("z"), WriteCondition.ifMatch(v2)), Kind.PRECONDITION_FAILED);
    assertThat(adapter.readIfExists("dir/lease").orElseThrow()).isEqualTo(new StoredObject(utf8("2"), v2));
    assertThat(adapter.exists("dir/none")).isFalse();
    // a version token of a non-durable put is a token of put, and the other way round
    String v3 = adapter.put("dir/lease", utf8("3"), WriteCondition.ifMatch(v2));
    adapter.putNonDurable("dir/lease", utf8("4"), WriteCondition.ifMatch(v3));
    assertThat(adapter.readText("dir/lease")).isEqualTo("4");
  }

  @Test
  void sixteenConcurrentNonDurableIfAbsentWritersHaveExactlyOneWinner() throws Exception {
    faults().delayEveryPut(ConditionalPutGuarantees.RACE_DELAY);
    int writers = 16;
    CyclicBarrier start = new CyclicBarrier(writers);
    List<Outcome<String>> outcomes = runConcurrently(writers, writers, i -> {
      start.await();
      adapter.putNonDurable("race/lease", utf8("writer-" + i), WriteCondition.ifAbsent());
      return "writer-" + i;
    });
    List<String> winners = outcomes.stream().filter(Outcome::succeeded).map(Outcome::value).toList();
    assertThat(winners).hasSize(1);
    assertFailuresAreAll(outcomes, Kind.PRECONDITION_FAILED);
    assertThat(adapter.readText("race/lease")).isEqualTo(winners.get(0));
  }

  @Test
  void aNonDurableDeleteIsGoneAtOnceAndIdempotent() throws Exception {
    put("dir/sidecar", "1");
    put("dir/keep", "2");
    adapter.deleteNonDurable("dir/sidecar");
    assertThat(adapter.exists("dir/sidecar")).isFalse();
    assertThat(adapter.readTextIfExists("dir/sidecar")).isEmpty();
    assertThat(list("dir")).containsExactly("dir/keep");
    adapter.deleteNonDurable("dir/sidecar");
    adapter.deleteNonDurable("nowhere/never");
    adapter.put("dir/sidecar", utf8("again"), WriteCondition.ifAbsent());
    assertThat(adapter.readText("dir/sidecar")).isEqualTo("again");
  }

  @Test
  void aRefusedNonDurablePutOrDeleteIsPermissionAndChangesNothing() throws Exception {
    put("dir/lease", "held");
    faults().denyNext(Operation.PUT);
    assertKind(() -> adapter.putNonDurable("dir/lease", utf8("x"), WriteCondition.overwrite()), Kind.PERMISSION);
    faults().denyNext(Operation.DELETE);
    assertKind(() -> adapter.deleteNonDurable("dir/lease"), Kind.PERMISSION);
    assertThat(adapter.readText("dir/lease")).isEqualTo("held");
  }

  @Test
  void aFailedNonDurablePutLeavesTheOldObjectAndALostResponseIsOutcomeUnknown() throws Exception {
    put("dir/lease", "old");
    faults().failNextPut();
    StorageException failed = storageFailure(
        () -> adapter.putNonDurable("dir/lease", utf8("new"), WriteCondition.overwrite()));
    assertThat(failed.kind()).isIn(Kind.TRANSIENT, Kind.PERMANENT, Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.readText("dir/lease")).isEqualTo("old");
    faults().applyNextPutThenFail();
    assertKind(() -> adapter.putNonDurable("dir/lease", utf8("newer"), WriteCondition.overwrite()), Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.readText("dir/lease")).isEqualTo("newer");
  }
}
