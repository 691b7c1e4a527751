package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.LoadProgress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Progress appears only for loads past one second, at most once a second, plus the final line. */
class ProgressPrinterTest {

  private final StringWriter err = new StringWriter();
  private final ProgressPrinter printer = new ProgressPrinter(new PrintWriter(err, true), false);

  private void report(long rows, long millis, boolean finished) {
    printer.onProgress(new LoadProgress(rows, Duration.ofMillis(millis), finished));
  }

  @Test
  void aLoadUnderASecondPrintsNothing() {
    report(100, 200, false);
    report(500, 900, true);

    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aLongLoadPrintsRowsAndRateAtMostOnceASecondAndAFinalLine() {
    report(1_000, 500, false);
    report(5_000, 1_200, false);
    report(6_000, 1_700, false);
    report(11_000, 2_300, false);
    report(12_000, 2_400, true);

    assertThat(err.toString().lines().toList()).containsExactly(
        "loading 5,000 rows, 4,167 rows/s, 1.2s",
        "loading 11,000 rows, 4,783 rows/s, 2.3s",
        "loaded 12,000 rows, 5,000 rows/s, 2.4s");
  }

  @Test
  void theRateLeavesOutTheStartUpBeforeTheFirstRow() {
    // 3 s since the load started, the first row read after 1 s: 10,000 rows in 2 s of reading
    printer.onProgress(new LoadProgress(10_000, Duration.ofMillis(3_000), true, Duration.ofMillis(2_000)));

    assertThat(err.toString().lines().toList()).containsExactly("loaded 10,000 rows, 5,000 rows/s, 3.0s");
  }

  @Test
  void onATerminalTheLineIsRedrawnInPlace() {
    StringWriter tty = new StringWriter();
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(tty, true), true);
    p.onProgress(new LoadProgress(5_000, Duration.ofMillis(1_000), false));
    p.onProgress(new LoadProgress(9_000, Duration.ofMillis(2_000), true));

    assertThat(tty.toString()).isEqualTo("\rloading 5,000 rows, 5,000 rows/s, 1.0s\u001b[K\rloaded 9,000 rows, 4,500 rows/s, 2.0s\u001b[K\n");
  }
}
