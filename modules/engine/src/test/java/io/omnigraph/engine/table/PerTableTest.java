package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.StorageFailureException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** PerTable: results in input order, every piece run to its end, the first failure thrown as raised. */
class PerTableTest {
  @Test
  void returnsTheResultsInInputOrderAndUsesASecondThread() {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    List<Integer> out = PerTable.map(List.of(1, 2, 3, 4, 5, 6), i -> {
      threads.add(Thread.currentThread().getName());
      try {
        Thread.sleep(20L * (7 - i)); // the first pieces take longest: completion order differs from input order
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      return i * 10;
    });
    assertThat(out).containsExactly(10, 20, 30, 40, 50, 60);
    if (Runtime.getRuntime().availableProcessors() > 1) {
      assertThat(threads).contains("omnigraph-per-table", Thread.currentThread().getName());
    }
  }

  @Test
  void aFailureIsThrownAsRaisedAfterEveryPieceHasFinished() {
    StorageFailureException first = new StorageFailureException("table 2 failed", null);
    StorageFailureException second = new StorageFailureException("table 4 failed", null);
    AtomicInteger finished = new AtomicInteger();
    assertThatThrownBy(() -> PerTable.map(List.of(1, 2, 3, 4, 5), i -> {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      if (i == 2) {
        throw first;
      }
      if (i == 4) {
        throw second;
      }
      finished.incrementAndGet();
      return i;
    })).isSameAs(first);
    assertThat(first.getSuppressed()).containsExactly(second);
    assertThat(finished).hasValue(3); // 1, 3 and 5 ran although 2 failed before them
  }
}
