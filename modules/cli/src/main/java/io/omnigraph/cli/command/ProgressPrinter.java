package io.omnigraph.cli.command;

import io.omnigraph.api.LoadProgress;
import io.omnigraph.api.LoadProgressListener;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * Prints load progress (rows, rows/s) on stderr, but only once a load has run for a second: short
 * loads stay quiet. At most one line per second; on a terminal the line is redrawn in place.
 */
final class ProgressPrinter implements LoadProgressListener {
  static final Duration QUIET_FOR = Duration.ofSeconds(1);

  private final PrintWriter err;
  private final boolean interactive;
  private Duration lastPrinted;

  ProgressPrinter(PrintWriter err, boolean interactive) {
    this.err = err;
    this.interactive = interactive;
  }

  @Override
  public void onProgress(LoadProgress p) {
    if (p.elapsed().compareTo(QUIET_FOR) < 0) {
      return;
    }
    if (!p.finished() && lastPrinted != null && p.elapsed().minus(lastPrinted).compareTo(QUIET_FOR) < 0) {
      return;
    }
    lastPrinted = p.elapsed();
    String line = String.format(Locale.ROOT, "%s %,d rows, %,.0f rows/s, %.1fs",
        p.finished() ? "loaded" : "loading", p.rowsRead(), p.rowsPerSecond(), p.elapsed().toMillis() / 1000.0);
    if (interactive) {
      // Carriage return, the line, then "erase to end of line" in case the previous one was longer.
      err.print("\r" + line + "\u001b[K" + (p.finished() ? "\n" : ""));
    } else {
      err.println(line);
    }
    err.flush();
  }
}
