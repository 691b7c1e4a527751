package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit's leader alone in its queue starts writing its Armed sidecar's bytes when it enters
 * the effect window (docs/concurrency.md, "Group commit"): a lone writer's insert uses them (fails
 * when the leader never starts them, or never hands them over), and a round that batches or
 * re-prepares discards them, leaving nothing in {@code __recovery/}, not even a temp file (fails
 * when a discarded one is not closed).
 */
class GroupCommitEarlyArmTest {
  @TempDir Path dir;

  @Test
  void aLoneWriterUsesTheSidecarBytesStartedAtTheWindowsEntryAndOthersAreDiscarded() throws Exception {
    Path root = dir.resolve("g");
    // (a lone leader's ticket alone in the round: its bytes are used; a stale one re-prepares: discarded)
    try (Graph g = Omnigraph.init(root.toString(), PeopleGraph.SCHEMA)) {
      ((LanceGraph) g).maintenance(new io.omnigraph.api.MaintenancePolicy(false, 16, 16));
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      PreparedMutation add = g.prepareMutation(GroupCommitTest.GQ, "add");

      long[] before = GraphWrite.groupCommitCounts();
      for (int i = 0; i < 3; i++) {
        g.mutate(add, QueryParams.of(Map.of("name", "lone-" + i)), MutationOptions.defaults());
      }
      long[] lone = GraphWrite.groupCommitCounts();
      assertThat(lone[2] - before[2]).as("lone inserts that used the sidecar bytes started at the window's entry")
          .isEqualTo(3);
      assertThat(lone[3] - before[3]).as("discarded").isZero();
      assertThat(recoveryFiles(root)).as("files in __recovery/ after lone writes").isEmpty();

      // A lone writer whose preparation went stale (another handle published after it prepared):
      // its leader starts the bytes for the stale attempt, re-prepares, and discards them.
      try (Graph other = Omnigraph.open(root.toString())) {
        int[] once = {0};
        TestSeams.beforeEffectWindow(g, () -> {
          if (once[0]++ == 0) {
            other.mutate(GroupCommitTest.GQ, "add", QueryParams.of(Map.of("name", "other")), MutationOptions.defaults());
          }
        });
        g.mutate(add, QueryParams.of(Map.of("name", "stale")), MutationOptions.defaults());
        TestSeams.beforeEffectWindow(g, () -> { });
      }
      long[] stale = GraphWrite.groupCommitCounts();
      assertThat(stale[3] - lone[3]).as("discarded: the stale attempt's").isEqualTo(1);
      assertThat(stale[2] - lone[2]).as("used: only by the other handle's lone write (the re-prepared attempt"
          + " did not get the stale bytes)").isEqualTo(1);
      assertThat(recoveryFiles(root)).as("files in __recovery/ after a discard").isEmpty();

      // Eight threads: the leader is often not alone when it enters, or its round batches others.
      int threads = 8;
      CyclicBarrier start = new CyclicBarrier(threads);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          futures.add(pool.submit(() -> {
            start.await();
            for (int i = 0; i < 3; i++) {
              g.mutate(add, QueryParams.of(Map.of("name", "many-" + thread + "-" + i)), MutationOptions.defaults());
            }
            return null;
          }));
        }
        for (Future<?> f : futures) {
          f.get(5, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      long[] many = GraphWrite.groupCommitCounts();
      System.out.println("early sidecar bytes with 8 threads: used " + (many[2] - stale[2]) + ", discarded "
          + (many[3] - stale[3]));
      assertThat(recoveryFiles(root)).as("files in __recovery/ after batched writes (discarded bytes removed)")
          .isEmpty();
      String export = GraphIo.export(g);
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < 3; i++) {
          assertThat(export).contains("\"name\":\"many-" + t + "-" + i + "\"");
        }
      }
    }
  }

  /** Every file below {@code __recovery/}, temp names included. */
  private static List<String> recoveryFiles(Path root) throws IOException {
    Path rec = root.resolve("__recovery");
    if (!Files.exists(rec)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(rec)) {
      return s.filter(Files::isRegularFile).map(p -> rec.relativize(p).toString())
          .filter(n -> !n.startsWith(".omnigraph-lock")).toList();
    }
  }
}
