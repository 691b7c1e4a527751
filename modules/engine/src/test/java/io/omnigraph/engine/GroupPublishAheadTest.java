package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group commit's publish files written ahead (docs/concurrency.md, "Group commit"; write/
 * GroupCommitBatch, write/PublishAhead): while the batch's chains commit, another thread writes the
 * {@code __manifest} fragment and head-row deletion file of the batch's one publish from each link's
 * predicted version and row count (links after the first re-based on the link before). The publish
 * commits them only when they are exactly its own; a wrong prediction, or a batch that stops before
 * its effects, discards them, and no unreferenced file is left in {@code __manifest}.
 *
 * <p>Each test forms one batch deterministically: writer A commits alone and holds its effect window
 * (a failpoint before its sidecar is armed) until B, C and D are queued; they were prepared against the
 * head before A's commit, so the next round re-prepares them and commits them as one batch of three.
 */
class GroupPublishAheadTest {
  private static final String PERSON = "node:Person";

  @TempDir Path dir;

  @AfterEach
  void restore() {
    TestSeams.publishAheadRowCountSkew(0);
    Failpoints.disarmAll();
  }

  @Test
  void aBatchCommitsItsPublishFilesWrittenAheadAndPublishesEachMembersCount() throws Exception {
    try (Graph g = graph()) {
      LanceGraph lg = (LanceGraph) g;
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      long[] counts = GraphWrite.groupCommitCounts();
      int[] files = PublishAheadTest.manifestFiles(lg);
      List<Object> out = batchOfThree(g, () -> { }, () -> { });
      assertThat(out).allMatch(String.class::isInstance);
      long[] after = GraphWrite.groupCommitCounts();
      assertThat(after[0] - counts[0]).as("batches").isEqualTo(1);
      assertThat(after[1] - counts[1]).as("members in batches").isEqualTo(3);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed)
          .as("publishes that committed files written ahead: A's and the batch's").isEqualTo(2);
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).isZero();
      int[] now = PublishAheadTest.manifestFiles(lg);
      assertThat(now[0] - files[0]).as("new __manifest data files (one per publish)").isEqualTo(2);
      assertThat(now[1] - files[1]).as("new __manifest deletion files (one per publish)").isEqualTo(2);
      assertEveryCommitPublishesLancesCount(lg, 4);
    }
  }

  @Test
  void aBatchWhosePredictionIsWrongDiscardsItsFilesAndPublishesTheCommittedCounts() throws Exception {
    try (Graph g = graph()) {
      LanceGraph lg = (LanceGraph) g;
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      int[] files = PublishAheadTest.manifestFiles(lg);
      // From A's prediction on, every predicted row count (each link of the batch's chain) is one too many.
      List<Object> out = batchOfThree(g, () -> TestSeams.publishAheadRowCountSkew(1), () -> { });
      assertThat(out).allMatch(String.class::isInstance);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).as("files written ahead committed").isZero();
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).as("A's and the batch's, discarded")
          .isEqualTo(2);
      int[] now = PublishAheadTest.manifestFiles(lg);
      assertThat(now[0] - files[0]).as("new __manifest data files: each publish's own, none unreferenced")
          .isEqualTo(2);
      assertThat(now[1] - files[1]).as("new __manifest deletion files").isEqualTo(2);
      assertEveryCommitPublishesLancesCount(lg, 4);
    }
  }

  @Test
  void aBatchStoppedBeforeItsEffectsDiscardsItsFilesWrittenAhead() throws Exception {
    try (Graph g = graph()) {
      LanceGraph lg = (LanceGraph) g;
      long committed = ManifestPublisher.writtenAheadCommitted();
      long discarded = ManifestPublisher.writtenAheadDiscarded();
      int[] files = PublishAheadTest.manifestFiles(lg);
      List<String> before = GraphIo.commitIds(g);
      List<Object> out;
      // The batch fails where it passes the point before its effects (A passed it first).
      out = batchOfThree(g, () -> { }, () -> {
        throw new StorageFailureException("injected: the batch stops before its effects", null);
      });
      assertThat(out.get(0)).as("A").isInstanceOf(String.class);
      assertThat(out.subList(1, 4)).as("every member of the batch fails with the batch's typed failure")
          .allMatch(OmnigraphException.class::isInstance);
      assertThat(GraphIo.commitIds(g)).hasSize(before.size() + 1);
      assertThat(ManifestPublisher.writtenAheadCommitted() - committed).as("A's").isEqualTo(1);
      assertThat(ManifestPublisher.writtenAheadDiscarded() - discarded).as("the batch's").isEqualTo(1);
      int[] now = PublishAheadTest.manifestFiles(lg);
      assertThat(now[0] - files[0]).as("new __manifest data files: A's only").isEqualTo(1);
      assertThat(now[1] - files[1]).as("new __manifest deletion files: A's only").isEqualTo(1);
      assertEveryCommitPublishesLancesCount(lg, 1);
    }
  }

  private Graph graph() {
    Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA);
    ((LanceGraph) g).maintenance(new io.omnigraph.api.MaintenancePolicy(false, 16, 16));
    GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
    g.mutate(GroupCommitTest.GQ, "add", QueryParams.of(Map.of("name", "warm")), MutationOptions.defaults());
    return g;
  }

  /**
   * A commits alone, holding its window before its sidecar is armed (so the others' write-entry
   * barrier lists nothing) until B, C and D are queued; {@code whileHeld} runs then, and
   * {@code later} at every later pass of that point (the batch's).
   *
   * @return per writer A, B, C, D: its commit id, or its failure
   */
  private static List<Object> batchOfThree(Graph g, Runnable whileHeld, Runnable later) throws Exception {
    PreparedMutation add = g.prepareMutation(GroupCommitTest.GQ, "add");
    CountDownLatch inWindow = new CountDownLatch(1);
    AtomicInteger hits = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (Failpoints.Armed held = Failpoints.arm(Failpoints.WRITE_POST_STAGE_PRE_EFFECT, new FailAction.Call(() -> {
      if (hits.incrementAndGet() > 1) {
        later.run();
        return;
      }
      inWindow.countDown();
      TestSeams.awaitGroupQueue(g, 3);
      whileHeld.run();
    }))) {
      List<Future<Object>> writers = new ArrayList<>();
      writers.add(pool.submit(() -> mutate(g, add, "pa-a")));
      assertThat(inWindow.await(1, TimeUnit.MINUTES)).as("A in its window").isTrue();
      for (String k : List.of("pa-b", "pa-c", "pa-d")) {
        writers.add(pool.submit(() -> mutate(g, add, k)));
      }
      List<Object> out = new ArrayList<>();
      for (Future<Object> f : writers) {
        out.add(f.get(2, TimeUnit.MINUTES));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static Object mutate(Graph g, PreparedMutation add, String name) {
    try {
      return g.mutate(add, QueryParams.of(Map.of("name", name)), MutationOptions.defaults()).commitId();
    } catch (OmnigraphException e) {
      return e;
    }
  }

  /**
   * For each of the newest {@code n} commits, read by a second handle: the Person row count
   * published at that commit equals Lance's count at the version it pins, one more than its parent's.
   */
  private static void assertEveryCommitPublishesLancesCount(LanceGraph lg, int n) {
    try (Graph other = Omnigraph.open(lg.root().uri())) {
      LanceGraph reader = (LanceGraph) other;
      List<CommitInfo> history = other.commits();
      for (int k = n - 1; k >= 0; k--) {
        long published;
        long lance;
        long parent;
        try (GraphSnapshot s = reader.snapshots().resolve(GraphRef.commit(history.get(k).id()));
            GraphSnapshot p = reader.snapshots().resolve(GraphRef.commit(history.get(k + 1).id()))) {
          published = s.entry(PERSON).rowCount();
          lance = reader.tables().reader().countRows(s.table(PERSON));
          parent = p.entry(PERSON).rowCount();
        }
        assertThat(published).as("published Person count at " + history.get(k).id()).isEqualTo(lance);
        assertThat(published).as("one row more than its parent").isEqualTo(parent + 1);
      }
    }
  }
}
