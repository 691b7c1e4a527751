package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress on stderr for a load that runs over a second, end to end through {@code omnigraph load}
 * reading stdin: the input stalls between two halves, so the load lasts longer than
 * {@link ProgressPrinter#QUIET_FOR} however fast the machine is.
 */
class LoadProgressTest {
  static final int ROWS = 2_000;

  @TempDir Path tmp;
  String graph;

  @BeforeEach
  void initGraph() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), KnowsGraph.SCHEMA);
    graph = tmp.resolve("graph").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph);
    assertThat(init.exitCode()).as(init.err()).isZero();
  }

  @Test
  void aLoadOverASecondReportsRowsAndRateOnStderr() {
    CliRun run = CliRun.withStdin(stallingInput(), "load", "--mode", "overwrite", "--data", "-", graph);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).containsPattern("loaded " + String.format(java.util.Locale.ROOT, "%,d", ROWS)
        + " rows, [0-9,]+ rows/s, [0-9]+\\.[0-9]s");
    assertThat(run.out()).contains("loaded " + ROWS + " rows (overwrite)");
  }

  @Test
  void quietSuppressesProgressButNotTheResult() {
    CliRun run = CliRun.withStdin(stallingInput(), "load", "--mode", "overwrite", "--data", "-", graph, "--quiet");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).contains("loaded " + ROWS + " rows (overwrite)");
  }

  /** {@link #ROWS} Person lines, with a pause of 1.5 s after the first half. */
  private static InputStream stallingInput() {
    return new SequenceInputStream(lines(0, ROWS / 2), new SequenceInputStream(stall(), lines(ROWS / 2, ROWS)));
  }

  private static InputStream lines(int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < to; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":").append(i % 90).append("}}\n");
    }
    return new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** An empty stream whose first read blocks for 1.5 s. */
  private static InputStream stall() {
    return new InputStream() {
      @Override
      public int read() {
        try {
          Thread.sleep(1_500);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return -1;
      }
    };
  }
}
