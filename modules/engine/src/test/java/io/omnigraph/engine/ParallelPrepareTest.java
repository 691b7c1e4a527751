package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process-local write gate is not held across a mutation's preparation (docs/concurrency.md):
 * two threads of one JVM, on one handle, both finish preparing before either enters its effect
 * window — the {@code beforeEffectWindow} seam (after preparation) waits on a two-party barrier,
 * which only trips if both preparations run at once (with the gate held across preparation the
 * second thread could not prepare, and the barrier breaks after its guard time). Optimistic
 * concurrency still decides afterwards: of two insert-only mutations, the loser re-prepares and both
 * land in one chain; of two updates of one row, exactly one lands and the other is a 409
 * {@code read_set_conflict} on {@code graph_head:main}.
 */
class ParallelPrepareTest {
  @TempDir Path dir;
  Graph graph;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), MutationGraph.SCHEMA);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  /** Makes the first two arrivals after preparation meet; later ones (re-prepares) pass. */
  AtomicInteger meetAfterPrepare() {
    CyclicBarrier barrier = new CyclicBarrier(2);
    AtomicInteger arrivals = new AtomicInteger();
    TestSeams.beforeEffectWindow(graph, () -> {
      if (arrivals.incrementAndGet() <= 2) {
        try {
          barrier.await(120, TimeUnit.SECONDS); // a guard against a hang, not a timing assertion
        } catch (Exception e) {
          throw new AssertionError("the two mutations did not prepare at the same time", e);
        }
      }
    });
    return arrivals;
  }

  List<Future<MutationResult>> twice(String query, Map<String, ?> a, Map<String, ?> b) {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<MutationResult>> out = new ArrayList<>();
      for (Map<String, ?> p : List.of(a, b)) {
        out.add(pool.submit(() -> graph.mutate(MutationGraph.QUERIES, query, QueryParams.of(p),
            MutationOptions.defaults())));
      }
      return out;
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void twoInsertOnlyMutationsPrepareInParallelAndBothLandInOneChain() throws Exception {
    AtomicInteger arrivals = meetAfterPrepare();
    List<Future<MutationResult>> done = twice("add_person", Map.of("name", "ann"), Map.of("name", "ben"));
    String c1 = done.get(0).get(3, TimeUnit.MINUTES).commitId();
    String c2 = done.get(1).get(3, TimeUnit.MINUTES).commitId();
    // The loser saw the winner's publish inside its effect window and re-prepared once.
    assertThat(arrivals.get()).isEqualTo(3);
    List<CommitInfo> commits = graph.commits();
    assertThat(commits).hasSize(3);
    assertThat(List.of(commits.get(0).id(), commits.get(1).id())).containsExactlyInAnyOrder(c1, c2);
    assertThat(commits.get(0).parents()).containsExactly(commits.get(1).id());
    assertThat(GraphIo.export(graph)).contains("\"name\":\"ann\"").contains("\"name\":\"ben\"");
  }

  @Test
  void twoUpdatesPrepareInParallelAndTheCompareAndSetLetsExactlyOneLand() throws Exception {
    graph.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", "ann")), MutationOptions.defaults());
    String seed = graph.commits().get(0).id();
    meetAfterPrepare();
    List<Future<MutationResult>> done = twice("set_age", Map.of("name", "ann", "age", 30),
        Map.of("name", "ann", "age", 40));
    int landed = 0;
    List<Throwable> refused = new ArrayList<>();
    for (Future<MutationResult> f : done) {
      try {
        f.get(3, TimeUnit.MINUTES);
        landed++;
      } catch (java.util.concurrent.ExecutionException e) {
        refused.add(e.getCause());
      }
    }
    assertThat(landed).isEqualTo(1);
    assertThat(refused).hasSize(1);
    assertThat(refused.get(0)).isInstanceOf(ConflictException.class);
    ErrorDetail.ReadSetConflict d = (ErrorDetail.ReadSetConflict) ((ConflictException) refused.get(0)).detail()
        .orElseThrow();
    assertThat(d.member()).isEqualTo("graph_head:main");
    assertThat(d.expected()).isEqualTo(seed);
    assertThat(graph.commits()).hasSize(3);
  }
}
