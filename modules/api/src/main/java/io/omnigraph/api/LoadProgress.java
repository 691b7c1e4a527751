package io.omnigraph.api;

import java.time.Duration;
import java.util.Objects;

/**
 * A snapshot of a running load, passed to {@link LoadProgressListener}.
 *
 * @param rowsRead input rows (NDJSON lines with data) read so far
 * @param elapsed time since the load started (start-up included: resolving the branch head,
 *     opening tables, waiting for the first input bytes)
 * @param finished {@code true} for the final report, sent once after the load committed
 * @param sinceFirstRow time since the first input row was read; the rate is measured over this, so
 *     it excludes start-up (zero before the first row)
 */
public record LoadProgress(long rowsRead, Duration elapsed, boolean finished, Duration sinceFirstRow) {
  public LoadProgress {
    Objects.requireNonNull(elapsed, "elapsed");
    Objects.requireNonNull(sinceFirstRow, "sinceFirstRow");
  }

  /** A report whose rate is measured over the whole {@code elapsed} time (no start-up to exclude). */
  public LoadProgress(long rowsRead, Duration elapsed, boolean finished) {
    this(rowsRead, elapsed, finished, elapsed);
  }

  /** @return rows per second since the first row was read, start-up excluded (0 before any time has passed) */
  public double rowsPerSecond() {
    double seconds = sinceFirstRow.toNanos() / 1e9;
    return seconds <= 0 ? 0 : rowsRead / seconds;
  }
}
