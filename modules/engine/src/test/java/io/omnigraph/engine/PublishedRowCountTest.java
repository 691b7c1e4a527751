package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row count a write publishes for each table (read from the handle its commit returned) is the
 * number of rows Lance holds at the published version, after every load mode.
 */
class PublishedRowCountTest {
  @TempDir Path dir;

  @Test
  void everyModePublishesTheRowCountOfTheVersionItCommitted() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA)) {
      LanceGraph lg = (LanceGraph) g;
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      assertPublishedCounts(lg, 2, 1, 1);
      GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("cy", 3) + PeopleGraph.person("di", 4));
      assertPublishedCounts(lg, 4, 1, 1);
      // One replaced row and one new row: the count grows by one.
      GraphIo.load(g, LoadMode.MERGE, PeopleGraph.person("cy", 30) + PeopleGraph.person("ed", 5));
      assertPublishedCounts(lg, 5, 1, 1);
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.person("solo", 1)
          + "{\"type\":\"Company\",\"data\":{\"title\":\"acme\"}}\n"
          + "{\"type\":\"Company\",\"data\":{\"title\":\"initech\"}}\n"
          + "{\"edge\":\"WorksAt\",\"from\":\"solo\",\"to\":\"initech\",\"data\":{}}\n");
      assertPublishedCounts(lg, 1, 2, 1);
    }
  }

  private static void assertPublishedCounts(LanceGraph lg, long people, long companies, long worksAt) {
    ManifestState state = lg.state();
    assertThat(published(lg, state, "node:Person")).isEqualTo(people);
    assertThat(published(lg, state, "node:Company")).isEqualTo(companies);
    assertThat(published(lg, state, "edge:WorksAt")).isEqualTo(worksAt);
  }

  /** @return the published row count, after checking it against Lance's count at that version */
  private static long published(LanceGraph lg, ManifestState state, String tableKey) {
    TableEntry e = state.table(tableKey).orElseThrow();
    try (TableSnapshot s = lg.tables().reader().openAt(lg.root().lance(e.path()), e.version())) {
      assertThat(e.rowCount()).as("published row count of %s", tableKey).isEqualTo(lg.tables().reader().countRows(s));
    }
    return e.rowCount();
  }
}
