package io.omnigraph.engine.write;

import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.TableIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes a write's {@code __manifest} publish files while the write commits and confirms its
 * tables (docs/write-protocol.md, "7. Publish"): inside the effect window, right after the token is
 * revalidated, the publish's rows are known except each table's row count after its commit, which
 * is predicted from the staged Lance operation (the published count, plus the rows of new
 * fragments, minus the rows of removed fragments and of new deletions). A second thread writes the
 * rows' fragment and the head row's deletion file against the window's manifest base
 * ({@link ManifestPublisher#writeAhead}); the publish commits them only when its first attempt has
 * exactly that base and exactly those rows (a wrong prediction, a retried publish: the files are
 * discarded and the publish writes its own), so the commit is the one it always was. Nothing is
 * committed, synced or made visible ahead: those files stay unreferenced until the publish.
 *
 * <p>A failure of writing ahead does not fail the write (the publish writes its own files and
 * reports its own failures), but it is never silent: it is logged at WARNING and counted
 * ({@link #failures()}); an {@link Error} is rethrown.
 *
 * <p>Not used for first-touch tables (a branch's lazy forks) or operations whose row count is not
 * predicted from the operation (an index build).
 */
final class PublishAhead implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(PublishAhead.class.getName());

  /** Test seam (set by reflection, never in production): added to every predicted row count. */
  private static volatile long rowCountSkew;

  private static final AtomicLong FAILURES = new AtomicLong();

  /** Nothing written ahead. */
  static final PublishAhead NONE = new PublishAhead(null);

  private final Future<Optional<ManifestPublisher.WrittenAhead>> pending;
  private boolean taken;

  private PublishAhead(Future<Optional<ManifestPublisher.WrittenAhead>> pending) {
    this.pending = pending;
  }

  /**
   * Starts writing the publish files of {@code intent} on {@code base}, when every row can be
   * predicted.
   *
   * @return the pending write, or {@link #NONE}
   */
  static PublishAhead start(ManifestPublisher publisher, GraphWrite.Intent intent, ManifestPublisher.Base base,
      String commitId, long createdAtMicros) {
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (GraphWrite.TableEffect e : intent.effects()) {
      if (e.firstTouch() != null) {
        return NONE;
      }
      OptionalLong rows = e.staged().rowsAfter(e.published().rowCount(), e.snapshot());
      if (rows.isEmpty()) {
        return NONE;
      }
      rows = OptionalLong.of(rows.getAsLong() + rowCountSkew);
      expected.put(e.spec().tableKey(), e.published().version());
      updates.add(new ManifestPublisher.TableUpdate(
          new TableIdentity(e.spec().stableTableId(), e.spec().tableIncarnationId()), e.spec().tableKey(),
          e.published().version() + 1, rows.getAsLong(), e.snapshot().location().uri(),
          io.omnigraph.engine.manifest.GraphBranch.toColumn(intent.branch())));
    }
    if (updates.isEmpty()) {
      return NONE;
    }
    return start(publisher, new ManifestPublisher.PublishRequest(intent.branch(), updates, expected,
        intent.expectedHead(),
        new ManifestPublisher.LineageIntent(commitId, intent.actorId(), intent.message(), createdAtMicros)), base);
  }

  /**
   * The predicted row count of a table after committing {@code staged} on a version holding
   * {@code rowsBefore} rows, when the operation alone tells it (a group commit predicts each link of
   * a table's chain from the one before: docs/concurrency.md, "Group commit").
   *
   * @return the count, or empty when it is not predicted from the operation
   */
  static OptionalLong rowsAfter(io.omnigraph.engine.table.StagedWrite staged, long rowsBefore,
      io.omnigraph.engine.table.TableSnapshot snapshot) {
    OptionalLong rows = staged.rowsAfter(rowsBefore, snapshot);
    return rows.isEmpty() ? rows : OptionalLong.of(rows.getAsLong() + rowCountSkew);
  }

  /**
   * Starts writing the files of {@code request}'s first publish attempt on {@code base}, a request
   * built from predicted table versions and row counts (a group commit's, whose publish then
   * commits them only when the batch's real request is exactly this one).
   *
   * @return the pending write, or {@link #NONE} when the publish would not take the addressed route
   */
  static PublishAhead start(ManifestPublisher publisher, ManifestPublisher.PublishRequest request,
      ManifestPublisher.Base base) {
    long head = publisher.headRowAddress(request, base); // on this thread: it may read the manifest
    if (head < 0) {
      return NONE;
    }
    return new PublishAhead(Ahead.POOL.submit(() -> {
      Failpoints.hit(Failpoints.PUBLISH_WRITE_AHEAD);
      return publisher.writeAhead(request, base, head);
    }));
  }

  /** @return how many publishes written ahead failed (process-wide); each was logged at WARNING */
  static long failures() {
    return FAILURES.get();
  }

  /**
   * Waits for the files written ahead and hands them to the caller (who passes them to the
   * publish, which consumes them).
   *
   * @return the files, or {@code null} when nothing was written ahead (or writing failed: the
   *     publish writes its own files and reports any failure of its own)
   */
  ManifestPublisher.WrittenAhead take() {
    if (pending == null || taken) {
      return null;
    }
    taken = true;
    return await();
  }

  /** Discards the files unless they were taken (waits for the writing thread first). */
  @Override
  public void close() {
    if (pending != null && !taken) {
      taken = true;
      ManifestPublisher.WrittenAhead w = await();
      if (w != null) {
        w.close();
      }
    }
  }

  private ManifestPublisher.WrittenAhead await() {
    try {
      return Ahead.await(pending).orElse(null);
    } catch (RuntimeException e) {
      // Not a failure of the write: the publish writes its own files and reports its own failures.
      FAILURES.incrementAndGet();
      LOG.log(System.Logger.Level.WARNING, "writing the publish ahead failed; the publish writes its own files", e);
      return null;
    }
  }
}
