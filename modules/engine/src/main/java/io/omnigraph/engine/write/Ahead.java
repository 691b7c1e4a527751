package io.omnigraph.engine.write;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Work a write starts on a second thread inside its effect window and joins at the step that
 * needs it (docs/write-protocol.md, "Durability"): writing and syncing a sidecar's bytes while the
 * token is checked or the tables are synced, writing the publish's files while the tables are
 * committed ({@link PublishAhead}). The result is a resource: one never taken is closed (discarded)
 * when this closes, after the thread finished (it may use handles the writer closes next).
 *
 * @param <T> the result
 */
final class Ahead<T extends AutoCloseable> implements AutoCloseable {
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

  /** Starts {@code task} on a second thread. */
  static <T extends AutoCloseable> Ahead<T> start(Callable<T> task) {
    return new Ahead<>(POOL.submit(task));
  }

  /**
   * Waits for the result and hands it over (the caller closes it).
   *
   * @throws RuntimeException the task's own failure, as it was thrown
   */
  T take() {
    if (taken) {
      throw new IllegalStateException("taken twice");
    }
    taken = true;
    return await(pending);
  }

  /** Waits for the task and closes its result unless it was taken; a failed task has nothing to close. */
  @Override
  public void close() {
    if (!taken) {
      taken = true;
      T t;
      try {
        t = await(pending);
      } catch (RuntimeException | Error e) {
        return; // nothing was produced; the step that needed it was never reached
      }
      try {
        t.close();
      } catch (Exception e) {
        throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
      }
    }
  }

  /** Waits without giving up on interruption (the task may use the write's handles), then re-interrupts. */
  static <T> T await(Future<T> f) {
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
          throw new IllegalStateException(c);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
