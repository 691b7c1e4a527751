package io.omnigraph.engine.branch;

import static io.omnigraph.engine.branch.ProvenInsertMergeTest.SCHEMA;
import static io.omnigraph.engine.branch.ProvenInsertMergeTest.export;
import static io.omnigraph.engine.branch.ProvenInsertMergeTest.load;
import static io.omnigraph.engine.branch.ProvenInsertMergeTest.mutate;
import static io.omnigraph.engine.branch.ProvenInsertMergeTest.people;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.write.Ahead;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge writes its publish's {@code __manifest} files ahead, while its chain commits
 * (docs/branches.md, "Effects"; {@link MergeAhead}): the publish commits exactly those files when
 * the predicted rows are the real ones, and a merge that fails before its publish leaves them
 * unreferenced and discarded, with recovery deciding as before.
 */
class MergeAheadTest {
  @TempDir Path dir;

  @Test
  void aProvenMergesPublishCommitsTheFilesWrittenAheadOfIt() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      ProvenInsertMergeTest.bulkOnBranch(g);
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(r.tables().get("node:Person").route()).isEqualTo("proven_insert");
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).isEqualTo(1);
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).isZero();
      assertThat(export(g, "main")).isEqualTo(export(g, "f"));
    }
  }

  @Test
  void anOrderedMergesRowCountsArePredictedToo() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      load(g, "main", LoadMode.MERGE, people(0, 6));
      g.createBranch("f", null);
      load(g, "f", LoadMode.APPEND, people(6, 3));
      mutate(g, "f", "set_age", Map.of("name", "p1", "age", 77));
      mutate(g, "f", "remove", Map.of("name", "p2"));
      load(g, "main", LoadMode.APPEND, people(20, 1)); // main moved on: a real three-way merge
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      MergeResult.TableMerge people = r.tables().get("node:Person");
      assertThat(people.route()).isEqualTo("ordered");
      assertThat(people.inserted()).isEqualTo(3);
      assertThat(people.updated()).isEqualTo(1);
      assertThat(people.deleted()).isEqualTo(1);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).isEqualTo(1);
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).isZero();
      assertThat(export(g, "main")).contains("\"p8\"").contains("\"name\":\"p1\",\"age\":77").doesNotContain("\"p2\"")
          .contains("\"p20\"");
    }
  }

  @Test
  void aFailureWritingAheadFailsOnlyTheWritingAhead() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      ProvenInsertMergeTest.bulkOnBranch(g);
      long committed = ManifestPublisher.writtenAheadCommitted();
      long failures = Ahead.optionalFailures();
      try (var armed = Failpoints.arm(Failpoints.PUBLISH_WRITE_AHEAD, FailAction.error())) {
        MergeResult r = g.merge("f", "main", MergeOptions.defaults());
        assertThat(r.tables().get("node:Person").inserted()).isEqualTo(24);
      }
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).isZero();
      assertThat(Ahead.optionalFailures() - failures).as("logged and counted, never dropped").isEqualTo(1);
      assertThat(g.recoveries()).isEmpty();
      assertThat(export(g, "main")).isEqualTo(export(g, "f"));
    }
  }

  @Test
  void aMergeThatFailsBeforeItsPublishDiscardsTheFilesAndRecoveryStillPublishesIt() {
    Path root = dir.resolve("g");
    String f;
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      ProvenInsertMergeTest.bulkOnBranch(g);
      f = export(g, "f");
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      try (var armed = Failpoints.arm(Failpoints.MERGE_BEFORE_PUBLISH, FailAction.error())) {
        assertThatThrownBy(() -> g.merge("f", "main", MergeOptions.defaults()))
            .isInstanceOf(RecoveryRequiredException.class);
      }
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).isEqualTo(1);
    }
    try (Graph g = Omnigraph.open(root.toString())) {
      // confirmed before the failure: recovery rolls the merge forward and publishes it itself
      assertThat(g.recoveries()).extracting(RecoveryRecord::kind).containsExactly("RolledForward");
      assertThat(export(g, "main")).isEqualTo(f);
    }
  }
}
