package io.omnigraph.engine.table;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs one independent piece of table work per table on up to {@value #THREADS} threads — the
 * calling thread and one helper — instead of one after the other: the creation of a graph's empty
 * tables at init, the index builds of {@code ensure-indices} (docs/indexes.md). Each piece touches
 * only its own table's files and commits nothing another piece reads, so the order they run in does
 * not matter; the result is the same list, in the same order, as a sequential loop would return.
 *
 * <p>Failures: every piece runs to its end (no piece is still writing when this returns or
 * throws); then the first failure in list order is thrown as raised, the others added to it as
 * suppressed. An interrupt of the calling thread does not abandon the helper: it is waited for,
 * and the interrupt re-asserted.
 */
public final class PerTable {
  /** Pieces in flight at once: a load process's usual budget is the machine's two cores. */
  public static final int THREADS = 2;

  private PerTable() {}

  /**
   * @param items one entry per table
   * @param work the work of one table
   * @return {@code work} of each item, in the order of {@code items}
   */
  public static <T, R> List<R> map(List<T> items, Function<T, R> work) {
    int n = items.size();
    List<FutureTask<R>> tasks = new ArrayList<>(n);
    for (T item : items) {
      tasks.add(new FutureTask<>(() -> work.apply(item)));
    }
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      for (int i; (i = next.getAndIncrement()) < n; ) {
        tasks.get(i).run(); // a FutureTask keeps its own failure
      }
    };
    Thread helper = null;
    if (n > 1 && Runtime.getRuntime().availableProcessors() > 1) {
      helper = new Thread(worker, "omnigraph-per-table");
      helper.setDaemon(true);
      helper.start();
    }
    worker.run();
    if (helper != null) {
      boolean interrupted = false;
      while (true) {
        try {
          helper.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    List<R> out = new ArrayList<>(n);
    Throwable failure = null;
    for (FutureTask<R> t : tasks) {
      try {
        out.add(t.get()); // every task has run: get() returns at once
      } catch (ExecutionException e) {
        if (failure == null) {
          failure = e.getCause();
        } else {
          failure.addSuppressed(e.getCause());
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("a finished task cannot be interrupted", e);
      }
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    if (failure != null) {
      throw new IllegalStateException("table work failed", failure);
    }
    return out;
  }
}
