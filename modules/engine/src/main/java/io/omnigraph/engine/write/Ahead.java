package io.omnigraph.engine.write;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Work a write starts on a second thread inside its effect window and joins at the step that
 * needs it (docs/write-protocol.md, "Durability"): writing and syncing a sidecar's bytes while the
 * token is checked or the tables are synced, writing the publish's files while the tables are
 * committed ({@link PublishAhead}). The result is a resource: one never taken is closed (discarded)
 * when this closes, after the thread finished (it may use handles the writer closes next).
 *
 * <p>A task that failed is never silent: {@link #take} rethrows its failure; when the result was
 * never taken (the write stopped before the step that needed it, so its own failure is the one the
 * caller sees), {@link #close} rethrows an {@link Error} (try-with-resources adds it to the write's
 * failure as suppressed) and logs a {@link RuntimeException} at WARNING and counts it
 * ({@link #untakenFailures()}).
 *
 * @param <T> the result
 */
public final class Ahead<T extends AutoCloseable> implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Ahead.class.getName());
  private static final AtomicLong UNTAKEN_FAILURES = new AtomicLong();

  /** Daemon threads, created when needed and ended when idle. */
  static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "omnigraph-write-ahead");
    t.setDaemon(true);
    return t;
  });

  private final Future<T> pending;
  private boolean taken;

  private Ahead(Future<T> pending) {
    this.pending = pending;
  }

  /** Nothing started: {@link #take} and {@link #takeOrNull} give {@code null}, {@link #close} does nothing. */
  private static final Ahead<?> NONE = new Ahead<>(null);
  private static final AtomicLong OPTIONAL_FAILURES = new AtomicLong();

  /** Starts {@code task} on a second thread (a write's, or a merge's: {@code branch/MergeAhead}). */
  public static <T extends AutoCloseable> Ahead<T> start(Callable<T> task) {
    return new Ahead<>(POOL.submit(task));
  }

  /** @return nothing started */
  @SuppressWarnings("unchecked")
  public static <T extends AutoCloseable> Ahead<T> none() {
    return (Ahead<T>) NONE;
  }

  /**
   * Waits for the result and hands it over (the caller closes it).
   *
   * @return the result, or {@code null} when nothing was started
   * @throws RuntimeException the task's own failure, as it was thrown ({@link Error} likewise)
   */
  public T take() {
    if (pending == null) {
      return null;
    }
    if (taken) {
      throw new IllegalStateException("taken twice");
    }
    taken = true;
    return await(pending);
  }

  /**
   * {@link #take} for optional work, which the caller can do without (a merge's publish files
   * written ahead: the publish writes its own and reports its own failures): a
   * {@link RuntimeException} of the task is logged at WARNING, counted ({@link #optionalFailures()})
   * and gives {@code null}; an {@link Error} is rethrown.
   *
   * @param what what the task did, for the log
   */
  public T takeOrNull(String what) {
    try {
      return take();
    } catch (RuntimeException e) {
      OPTIONAL_FAILURES.incrementAndGet();
      LOG.log(System.Logger.Level.WARNING, what + " failed; the caller goes on without it", e);
      return null;
    }
  }

  /** @return how many optional tasks failed when taken with {@link #takeOrNull} (process-wide) */
  public static long optionalFailures() {
    return OPTIONAL_FAILURES.get();
  }

  /** Waits for the task and closes its result unless it was taken; a failed task has nothing to close. */
  @Override
  public void close() {
    if (pending != null && !taken) {
      taken = true;
      T t;
      try {
        t = await(pending);
      } catch (RuntimeException e) {
        // Nothing was produced and the step that needed it was never reached: the write fails (or
        // stopped) for its own reason, which the caller sees; this one is logged, never dropped.
        UNTAKEN_FAILURES.incrementAndGet();
        LOG.log(System.Logger.Level.WARNING, "work started ahead of a write failed after the write stopped needing it", e);
        return;
      }
      try {
        t.close();
      } catch (Exception e) {
        throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
      }
    }
  }

  /** @return how many tasks whose result was never taken failed with a {@link RuntimeException} (process-wide) */
  static long untakenFailures() {
    return UNTAKEN_FAILURES.get();
  }

  /**
   * Waits for {@code f} without giving up on interruption (the task may use handles its caller
   * closes next), then re-interrupts. Shared by every join of work started on a second thread (the
   * write's work ahead, the table store started while a graph's schema compiles).
   *
   * @return the task's result
   * @throws RuntimeException the task's own failure, as it was thrown ({@link Error} likewise); a
   *     checked failure is wrapped in an {@link IllegalStateException}
   */
  public static <T> T await(Future<T> f) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return f.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (c instanceof RuntimeException re) {
            throw re;
          }
          if (c instanceof Error err) {
            throw err;
          }
          throw new IllegalStateException("work started on a second thread failed", c);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
