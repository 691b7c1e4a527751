package io.omnigraph.engine.branch;

import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Work a merge does on a second thread while its own thread arms, commits and syncs
 * (docs/branches.md, "Merge", "Effects"): the publish's {@code __manifest} files written ahead
 * ({@link ManifestPublisher#writeAhead}; unreferenced until the publish commits them, discarded
 * when the publish's rows differ from the predicted ones) and the confirmation's bytes written
 * while the chain is synced ({@link io.omnigraph.engine.recovery.WriteIntent#prepareConfirm}). The
 * protocol's order is unchanged: nothing is armed, committed, confirmed or published here.
 *
 * @param <T> the result (closed unless taken)
 */
final class MergeAhead<T extends AutoCloseable> implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(MergeAhead.class.getName());

  /** Daemon threads, created when needed and ended when idle. */
  private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "omnigraph-merge-ahead");
    t.setDaemon(true);
    return t;
  });

  /** Nothing started. */
  private static final MergeAhead<?> NONE = new MergeAhead<>(null);

  /** @return nothing started: {@link #take} gives {@code null} */
  @SuppressWarnings("unchecked")
  static <T extends AutoCloseable> MergeAhead<T> none() {
    return (MergeAhead<T>) NONE;
  }

  private final Future<T> pending;
  private boolean taken;

  private MergeAhead(Future<T> pending) {
    this.pending = pending;
  }

  /** Starts {@code task} on a second thread. */
  static <T extends AutoCloseable> MergeAhead<T> start(Callable<T> task) {
    return new MergeAhead<>(POOL.submit(task));
  }

  /**
   * Starts writing the publish files of {@code predicted} against {@code base}, when the publish
   * would take the addressed route (only the head row replaced).
   */
  static MergeAhead<ManifestPublisher.WrittenAhead> publish(ManifestPublisher publisher,
      ManifestPublisher.PublishRequest predicted, ManifestPublisher.Base base) {
    long head = publisher.headRowAddress(predicted, base); // on this thread: it may read the manifest
    if (head < 0) {
      return none();
    }
    return start(() -> {
      Failpoints.hit(Failpoints.PUBLISH_WRITE_AHEAD);
      return publisher.writeAhead(predicted, base, head).orElse(null);
    });
  }

  /**
   * Waits for the result and hands it over (the caller closes it).
   *
   * @return the result, or {@code null} when nothing was started
   * @throws RuntimeException the task's own failure, as it was thrown
   */
  T take() {
    if (pending == null || taken) {
      return null;
    }
    taken = true;
    return await(pending);
  }

  /**
   * {@link #take} for the publish files: a failure to write them ahead is not the merge's (the
   * publish writes its own files and reports its own failures).
   */
  T takeOrNull() {
    try {
      return take();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "writing the merge's publish ahead failed; the publish writes its own"
          + " files", e);
      return null;
    }
  }

  /** Waits for the task and closes its result unless it was taken; a failed task has nothing to close. */
  @Override
  public void close() {
    if (pending == null || taken) {
      return;
    }
    taken = true;
    T t;
    try {
      t = await(pending);
    } catch (RuntimeException | Error e) {
      return; // nothing was produced
    }
    if (t != null) {
      try {
        t.close();
      } catch (Exception e) {
        throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
      }
    }
  }

  /** Waits without giving up on interruption (the task uses the merge's handles), then re-interrupts. */
  private static <T> T await(Future<T> f) {
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
