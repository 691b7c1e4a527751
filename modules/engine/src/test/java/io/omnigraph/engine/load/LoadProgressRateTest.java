package io.omnigraph.engine.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadProgress;
import io.omnigraph.api.Omnigraph;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load progress rate excludes start-up (issue 17 item 5, docs/cli.md "load"): it is measured
 * from the first input row, not from the start of the load. No timing bound is asserted: the input
 * withholds its first byte for a known pause, and the report must not count that pause.
 */
class LoadProgressRateTest {
  static final long PAUSE_MILLIS = 300;

  @TempDir Path tmp;

  /** Delivers nothing for {@link #PAUSE_MILLIS} on its first read (a slow pipe, a start-up), then the rows. */
  static final class SlowStart extends InputStream {
    private final InputStream rows;
    private boolean paused;

    SlowStart(String ndjson) {
      rows = new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8));
    }

    private void pauseOnce() throws IOException {
      if (!paused) {
        paused = true;
        try {
          Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
      }
    }

    @Override
    public int read() throws IOException {
      pauseOnce();
      return rows.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      pauseOnce();
      return rows.read(b, off, len);
    }
  }

  @Test
  void theRateIsMeasuredFromTheFirstRowSoAPauseBeforeItIsNotCounted() {
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      ndjson.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\"}}\n");
    }
    List<LoadProgress> reports = new ArrayList<>();
    try (Graph g = Omnigraph.init(tmp.resolve("g").toString(), "node Person {\n  name: String @key\n}\n")) {
      g.load(LoadMode.MERGE, new SlowStart(ndjson.toString()), LoadOptions.defaults().withProgress(reports::add));
    }

    LoadProgress last = reports.get(reports.size() - 1);
    assertThat(last.finished()).isTrue();
    assertThat(last.rowsRead()).isEqualTo(2000);
    // the pause happened before the first row: elapsed has it, the rate's clock does not
    assertThat(last.elapsed().minus(last.sinceFirstRow())).isGreaterThanOrEqualTo(Duration.ofMillis(PAUSE_MILLIS));
    assertThat(last.rowsPerSecond()).isEqualTo(2000 / (last.sinceFirstRow().toNanos() / 1e9));
  }

  @Test
  void aReportWithoutAFirstRowTimeMeasuresOverTheWholeTime() {
    assertThat(new LoadProgress(1000, Duration.ofSeconds(4), false).rowsPerSecond()).isEqualTo(250.0);
    assertThat(new LoadProgress(1000, Duration.ofSeconds(4), false, Duration.ofSeconds(2)).rowsPerSecond()).isEqualTo(500.0);
    assertThat(new LoadProgress(0, Duration.ofSeconds(4), false, Duration.ZERO).rowsPerSecond()).isZero();
  }
}
