package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The publish's files written ahead (docs/write-protocol.md, "7. Publish"; write/PublishAhead):
 * while a write commits its tables, another thread writes its {@code __manifest} rows' fragment and
 * the head row's deletion file from a predicted row count per table. An insert, an update, a
 * delete and a merge load each commit the files written ahead (the prediction held) and publish
 * Lance's own row count; a wrong prediction is never published: the files written ahead are
 * discarded (deleted: no unreferenced file is left in {@code __manifest}) and the publish writes
 * the true count. A failure of the writing ahead is counted (and logged at WARNING), never fails the
 * write: the publish writes its own files.
 */
class PublishAheadTest {
  private static final String Q = MutationGraph.QUERIES;

  @TempDir Path dir;

  @Test
  void insertUpdateDeleteAndLoadCommitTheFilesWrittenAhead() throws IOException {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      LanceGraph lg = (LanceGraph) g;
      GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("ada", 36) + PeopleGraph.person("bob", 40));
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      int[] files = manifestFiles(lg);
      mutate(g, "add_person", Map.of("name", "cy", "age", 3));
      assertPublishedCount(lg, 3);
      mutate(g, "set_age", Map.of("name", "ada", "age", 37));
      assertPublishedCount(lg, 3);
      mutate(g, "remove_person", Map.of("name", "bob"));
      assertPublishedCount(lg, 2);
      GraphIo.load(g, LoadMode.MERGE, PeopleGraph.person("cy", 30) + PeopleGraph.person("di", 5));
      assertPublishedCount(lg, 3);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).as("publishes that used the files written ahead")
          .isEqualTo(4);
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).isZero();
      int[] after = manifestFiles(lg);
      assertThat(after[0] - files[0]).as("new __manifest data files (one per publish)").isEqualTo(4);
      assertThat(after[1] - files[1]).as("new __manifest deletion files (one per publish)").isEqualTo(4);
    }
  }

  @Test
  void aWrongPredictionIsDiscardedAndTheCommittedCountIsPublished() throws IOException {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      LanceGraph lg = (LanceGraph) g;
      GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("ada", 36));
      mutate(g, "add_person", Map.of("name", "bob", "age", 40)); // the head row now sits in a publish's fragment
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      int[] files = manifestFiles(lg);
      TestSeams.publishAheadRowCountSkew(1);
      try {
        mutate(g, "add_person", Map.of("name", "cy", "age", 3));
      } finally {
        TestSeams.publishAheadRowCountSkew(0);
      }
      assertPublishedCount(lg, 3);
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).isEqualTo(1);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).isZero();
      int[] after = manifestFiles(lg);
      assertThat(after[0] - files[0]).as("new __manifest data files: the publish's own, none left unreferenced")
          .isEqualTo(1);
      assertThat(after[1] - files[1]).as("new __manifest deletion files").isEqualTo(1);
    }
  }

  @Test
  void aFailureOfWritingAheadIsCountedAndThePublishWritesItsOwnFiles() throws IOException {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      LanceGraph lg = (LanceGraph) g;
      GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("ada", 36));
      long committed = ManifestPublisher.writtenAheadCommitted();
      long failures = TestSeams.publishAheadFailures();
      int[] files = manifestFiles(lg);
      try (Failpoints.Armed a = Failpoints.arm(Failpoints.PUBLISH_WRITE_AHEAD, FailAction.error())) {
        mutate(g, "add_person", Map.of("name", "bob", "age", 40));
      }
      assertPublishedCount(lg, 2);
      assertThat(TestSeams.publishAheadFailures() - failures).as("failures of writing ahead, counted (and logged at WARNING)")
          .isEqualTo(1);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).isZero();
      int[] after = manifestFiles(lg);
      assertThat(after[0] - files[0]).as("new __manifest data files: the publish's own").isEqualTo(1);
    }
  }

  private static void mutate(Graph g, String name, Map<String, ?> params) {
    g.mutate(Q, name, QueryParams.of(params), MutationOptions.defaults());
  }

  /**
   * The row count of {@code node:Person} published on storage (read by a second handle, not the
   * writer's state folded in memory) equals {@code expected} and Lance's count at that version.
   */
  private static void assertPublishedCount(LanceGraph lg, long expected) {
    try (Graph other = Omnigraph.open(lg.root().uri())) {
      LanceGraph reader = (LanceGraph) other;
      ManifestState state = reader.state();
      TableEntry e = state.table("node:Person").orElseThrow();
      try (TableSnapshot s = reader.tables().reader().openAt(reader.root().lance(e.path()), e.version())) {
        assertThat(reader.tables().reader().countRows(s)).as("Lance's row count").isEqualTo(expected);
      }
      assertThat(e.rowCount()).as("published row count").isEqualTo(expected);
    }
  }

  /** @return the number of files in {@code __manifest/data} and in {@code __manifest/_deletions} */
  static int[] manifestFiles(LanceGraph lg) throws IOException {
    Path manifest = Path.of(java.net.URI.create(lg.root().lance("__manifest").uri()));
    return new int[] {count(manifest.resolve("data")), count(manifest.resolve("_deletions"))};
  }

  private static int count(Path d) throws IOException {
    if (!Files.isDirectory(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(d)) {
      return (int) s.count();
    }
  }
}
