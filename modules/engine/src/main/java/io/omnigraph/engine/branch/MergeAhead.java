package io.omnigraph.engine.branch;

import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.write.Ahead;

/**
 * Work a merge does on a second thread while its own thread arms, commits and syncs
 * (docs/branches.md, "Merge", "Effects"): the publish's {@code __manifest} files written ahead
 * ({@link ManifestPublisher#writeAhead}; unreferenced until the publish commits them, discarded
 * when the publish's rows differ from the predicted ones) and the confirmation's bytes written
 * while the chain is synced ({@link io.omnigraph.engine.recovery.WriteIntent#prepareConfirm}). The
 * protocol's order is unchanged: nothing is armed, committed, confirmed or published here. Both
 * run through a write's {@link Ahead}, so a merge's failures on the second thread are reported
 * exactly as a write's (never dropped).
 */
final class MergeAhead {
  private MergeAhead() {
  }

  /**
   * Starts writing the publish files of {@code predicted} against {@code base}, when the publish
   * would take the addressed route (only the head row replaced). The caller takes them with
   * {@link Ahead#takeOrNull}: a failure to write them ahead is not the merge's.
   *
   * @return the pending files, or {@link Ahead#none()}
   */
  static Ahead<ManifestPublisher.WrittenAhead> publish(ManifestPublisher publisher,
      ManifestPublisher.PublishRequest predicted, ManifestPublisher.Base base) {
    long head = publisher.headRowAddress(predicted, base); // on this thread: it may read the manifest
    if (head < 0) {
      return Ahead.none();
    }
    return Ahead.start(() -> {
      Failpoints.hit(Failpoints.PUBLISH_WRITE_AHEAD);
      return publisher.writeAhead(predicted, base, head).orElse(null);
    });
  }
}
