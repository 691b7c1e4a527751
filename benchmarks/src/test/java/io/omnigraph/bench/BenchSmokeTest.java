package io.omnigraph.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fast check that both sides of every scenario run (the real benchmark runs only with -Pbench). */
class BenchSmokeTest {
  @TempDir Path dir;

  @Test
  void everyScenarioRunsOnBothSides() throws Exception {
    for (String scenario : new String[] {"overwrite", "merge"}) {
      for (String impl : new String[] {"engine", "raw"}) {
        BenchChild.Measurement m = BenchChild.run(impl, scenario, 300, dir.resolve(scenario + "-" + impl), false);
        assertThat(m.nanos()).as(impl + " " + scenario).isPositive();
      }
    }
  }

  @Test
  void medianOfEvenAndOddCounts() {
    assertThat(LoadBenchmark.median(new double[] {3, 1, 2})).isEqualTo(2);
    assertThat(LoadBenchmark.median(new double[] {4, 1, 2, 3})).isEqualTo(2.5);
  }
}
