package io.omnigraph.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.bench.ReadBenchChild.QueryStats;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read benchmark at 300 persons, in this JVM: each system builds its store, answers the six
 * questions, and all give the same rows (the real benchmark runs only with -Pbench-read). By
 * default OmniGraph on disk and Kùzu (about 25 s); Neo4j's embedded start-up alone takes a minute on
 * a loaded machine, so the full set runs with {@code -Dbench.read.smoke=omnigraph,kuzu,neo4j,omnigraph-s3}.
 */
class ReadBenchSmokeTest {
  @TempDir Path dir;

  @Test
  void everySystemGivesTheSameAnswers() throws Exception {
    ReadBenchData data = new ReadBenchData(300);
    Map<String, List<QueryStats>> bySystem = new LinkedHashMap<>();
    for (String system : System.getProperty("bench.read.smoke", "omnigraph,kuzu").split(",")) {
      long t0 = System.nanoTime();
      Path d = dir.resolve(system);
      if (!system.equals("omnigraph-s3")) {
        try (ReadSystems.ReadSystem s = ReadSystems.create(system)) {
          s.prepare(data, d);
        }
      }
      bySystem.put(system, ReadBenchChild.measure(system, data, d, 3));
      System.out.printf(java.util.Locale.ROOT, "read smoke: %s %.1f s%n", system, (System.nanoTime() - t0) / 1e9);
    }
    assertThat(bySystem).hasSizeGreaterThan(1);
    List<QueryStats> reference = bySystem.values().iterator().next();
    assertThat(reference).extracting(QueryStats::query).containsExactlyElementsOf(ReadSystems.QUERIES);
    // 300 persons: 30 have no employer; each point lookup finds one person; the top 10 companies.
    assertThat(reference.get(0).rows()).isEqualTo(3);
    assertThat(reference.get(4).rows()).isEqualTo(30);
    assertThat(reference.get(5).rows()).isEqualTo(3 * 30);
    for (Map.Entry<String, List<QueryStats>> e : bySystem.entrySet()) {
      for (int q = 0; q < reference.size(); q++) {
        QueryStats want = reference.get(q);
        QueryStats got = e.getValue().get(q);
        assertThat(got.rows() + "/" + got.checksum()).as(e.getKey() + " " + want.query())
            .isEqualTo(want.rows() + "/" + want.checksum());
      }
    }
  }
}
