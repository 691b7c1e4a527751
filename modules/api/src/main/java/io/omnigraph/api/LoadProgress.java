package io.omnigraph.api;

import java.time.Duration;

/**
 * A snapshot of a running load, passed to {@link LoadProgressListener}.
 *
 * @param rowsRead input rows (NDJSON lines with data) read so far
 * @param elapsed time since the load started
 * @param finished {@code true} for the final report, sent once after the load committed
 */
public record LoadProgress(long rowsRead, Duration elapsed, boolean finished) {
  /** @return rows per second since the start (0 before any time has passed) */
  public double rowsPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : rowsRead / seconds;
  }
}
