package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many writers in one process (issue 18 item 3, docs/concurrency.md "Progress"): 8 threads, each
 * inserting 1-row mutations on its own keys through one shared handle and through a second handle
 * of the same root, all at once. Every mutation must succeed (no ConflictException: a stale
 * attempt re-prepares under the process write gate), be its own graph commit (distinct commit ids,
 * each in the history, one new commit per mutation apart from automatic maintenance) and its row
 * must be in the graph (no lost commit).
 *
 * <p>Not a timing test: the threads start together at a barrier, so their preparations overlap
 * and most first attempts go stale; how often is up to the scheduler, what must hold is not.
 */
class ManyWritersTest {
  static final int THREADS = 8;
  static final int PER_THREAD = 4;

  @TempDir Path dir;

  @Test
  void eightThreadsOfOneProcessEachCommitEveryInsertOnce() throws Exception {
    String uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, MutationGraph.SCHEMA); Graph second = Omnigraph.open(uri)) {
      int before = userCommits(g).size();
      CyclicBarrier start = new CyclicBarrier(THREADS);
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<List<MutationResult>>> futures = new ArrayList<>();
      try {
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          Graph handle = t % 2 == 0 ? g : second;
          futures.add(pool.submit(() -> {
            List<MutationResult> mine = new ArrayList<>();
            start.await(3, TimeUnit.MINUTES);
            for (int i = 0; i < PER_THREAD; i++) {
              mine.add(handle.mutate(MutationGraph.QUERIES, "add_person",
                  QueryParams.of(Map.of("name", "w" + thread + "-" + i)), MutationOptions.defaults()));
            }
            return mine;
          }));
        }
        List<MutationResult> results = new ArrayList<>();
        for (Future<List<MutationResult>> f : futures) {
          results.addAll(f.get(5, TimeUnit.MINUTES)); // a ConflictException fails the test here
        }
        Set<String> ids = new HashSet<>();
        for (MutationResult r : results) {
          assertThat(r.commitId()).isNotNull();
          assertThat(r.affectedNodes()).isEqualTo(1);
          ids.add(r.commitId());
        }
        assertThat(ids).as("each mutation its own commit").hasSize(THREADS * PER_THREAD);
        List<CommitInfo> after = userCommits(g);
        assertThat(after).hasSize(before + THREADS * PER_THREAD);
        assertThat(after).extracting(CommitInfo::id).containsAll(ids);
        String export = GraphIo.export(g);
        for (int t = 0; t < THREADS; t++) {
          for (int i = 0; i < PER_THREAD; i++) {
            assertThat(export).contains("\"name\":\"w" + t + "-" + i + "\"");
          }
        }
      } finally {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(3, TimeUnit.MINUTES)).isTrue();
      }
    }
    // And after a fresh open (the commits are published, not just visible in memory).
    try (Graph reopened = Omnigraph.open(uri)) {
      String export = GraphIo.export(reopened);
      for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < PER_THREAD; i++) {
          assertThat(export).contains("\"name\":\"w" + t + "-" + i + "\"");
        }
      }
    }
  }

  private static List<CommitInfo> userCommits(Graph g) {
    return g.commits().stream().filter(c -> !MaintenancePolicy.COMMIT_ACTOR.equals(c.actor())).toList();
  }
}
