package io.omnigraph.engine.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Work started ahead of a write on a second thread (write/Ahead; docs/write-protocol.md,
 * "Durability"): a failure of the task is never silent — {@link Ahead#take} rethrows it, an
 * untaken {@link Error} is rethrown by {@link Ahead#close}, an untaken runtime failure is logged at
 * WARNING and counted; optional work's runtime failure ({@link Ahead#takeOrNull}) is logged and
 * counted, its {@link Error} rethrown — and {@link Ahead#await}, the one join shared with the engine's table-store
 * start, keeps waiting through an interrupt and re-interrupts.
 */
class AheadTest {
  /** A resource that counts its closes. */
  private record Res(AtomicInteger closes) implements AutoCloseable {
    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  private static final class TaskError extends Error {
    TaskError() {
      super("the task ahead failed with an Error");
    }
  }

  @Test
  void anUntakenErrorIsRethrownByClose() {
    TaskError error = new TaskError();
    Ahead<Res> ahead = Ahead.start(() -> {
      throw error;
    });
    assertThatThrownBy(ahead::close).isSameAs(error);
  }

  @Test
  void anUntakenRuntimeFailureIsCountedNotThrown() {
    IllegalStateException failure = new IllegalStateException("sidecar bytes could not be written");
    try {
      long before = Ahead.untakenFailures();
      Ahead<Res> ahead = Ahead.start(() -> {
        throw failure;
      });
      ahead.close(); // the write stopped for its own reason: this failure does not replace it
      assertThat(Ahead.untakenFailures() - before).isEqualTo(1);
    } catch (RuntimeException e) {
      throw new AssertionError("an untaken runtime failure must not replace the write's own outcome", e);
    }
  }

  @Test
  void takeRethrowsTheTaskFailureAsThrownAndAnUntakenResultIsClosed() {
    IllegalArgumentException failure = new IllegalArgumentException("bad");
    try (Ahead<Res> failing = Ahead.start(() -> {
      throw failure;
    })) {
      assertThatThrownBy(failing::take).isSameAs(failure);
    }
    AtomicInteger closes = new AtomicInteger();
    Ahead<Res> untaken = Ahead.start(() -> new Res(closes));
    untaken.close();
    assertThat(closes).hasValue(1);
    Ahead<Res> taken = Ahead.start(() -> new Res(closes));
    try (Res r = taken.take()) {
      taken.close(); // taken: the caller owns it
      assertThat(closes).hasValue(1);
    }
    assertThat(closes).hasValue(2);
  }

  @Test
  void optionalWorkLogsAndCountsARuntimeFailureButRethrowsAnError() {
    long before = Ahead.optionalFailures();
    try (Ahead<Res> failing = Ahead.start(() -> {
      throw new IllegalStateException("publish files could not be written ahead");
    })) {
      assertThat(failing.takeOrNull("writing ahead")).isNull();
    }
    assertThat(Ahead.optionalFailures() - before).isEqualTo(1);
    TaskError error = new TaskError();
    try (Ahead<Res> erring = Ahead.start(() -> {
      throw error;
    })) {
      assertThatThrownBy(() -> erring.takeOrNull("writing ahead")).isSameAs(error);
    }
    assertThat(Ahead.optionalFailures() - before).isEqualTo(1);
    try (Ahead<Res> none = Ahead.none()) {
      assertThat(none.take()).isNull();
      assertThat(none.takeOrNull("nothing")).isNull();
    }
  }

  @Test
  void awaitWrapsACheckedFailureAndKeepsWaitingThroughAnInterrupt() throws Exception {
    FutureTask<String> checked = new FutureTask<>(() -> {
      throw new IOException("disk");
    });
    checked.run();
    assertThatThrownBy(() -> Ahead.await(checked)).isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(IOException.class);

    CountDownLatch waiting = new CountDownLatch(1);
    FutureTask<String> slow = new FutureTask<>(() -> {
      waiting.await();
      return "done";
    });
    Thread t = new Thread(slow);
    t.start();
    Thread.currentThread().interrupt();
    Thread releaser = new Thread(() -> {
      try {
        Thread.sleep(100); // most likely after await() met the interrupt; either order must return "done"
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      waiting.countDown();
    });
    releaser.start();
    try {
      assertThat(Ahead.await(slow)).isEqualTo("done");
      assertThat(Thread.interrupted()).as("the interrupt is restored").isTrue();
    } finally {
      Thread.interrupted();
      t.join();
      releaser.join();
    }
  }
}
