package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.write.WriteGates;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers of one process never starve one another (docs/concurrency.md, "Progress"): the first
 * attempt of an insert-only write prepares without the process's write gate, and a write whose
 * attempt went stale re-prepares under the gate, so no other writer of this process can publish
 * before it again.
 *
 * <p>The adversary is deterministic: every time the victim finishes preparing, a writer on another
 * thread of this process starts an insert and the victim waits until that insert has published — or
 * until it is queued on the write gate behind the victim, which can only happen when the victim
 * holds the gate. Without the gate on re-prepares every victim attempt goes stale and the victim
 * fails with a 409 after 32 re-prepares (checked by removing the {@code gate.lock()} in
 * {@code StaleAttempt.withReprepare}: this test then fails with that ConflictException).
 */
class WriterProgressTest {
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

  static MutationResult addPerson(Graph g, String name) {
    return g.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name)),
        MutationOptions.defaults());
  }

  @Test
  void aStaleInsertRepreparesUnderTheGateAndLandsWhileAnotherThreadKeepsWriting() throws Exception {
    LanceGraph lance = (LanceGraph) graph;
    ReentrantLock gate = WriteGates.of(lance.root());
    Thread victim = Thread.currentThread();
    AtomicReference<Thread> competitorThread = new AtomicReference<>();
    ExecutorService competitor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "competitor");
      competitorThread.set(t);
      return t;
    });
    AtomicInteger victimAttempts = new AtomicInteger();
    List<Future<MutationResult>> competing = new ArrayList<>();
    lance.beforeEffectWindow = () -> {
      if (Thread.currentThread() != victim) {
        return;
      }
      int attempt = victimAttempts.incrementAndGet();
      Future<MutationResult> f = competitor.submit(() -> addPerson(graph, "rival" + attempt));
      competing.add(f);
      // Wait until the rival published, or is queued behind this thread on the gate (a guard
      // bound against a hang, not a timing assertion).
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!f.isDone() && !(competitorThread.get() != null && gate.hasQueuedThread(competitorThread.get()))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("the rival neither published nor queued on the write gate");
        }
        Thread.onSpinWait();
      }
    };
    try {
      MutationResult mine = addPerson(graph, "victim");
      // One optimistic attempt went stale (the rival published first); the re-prepare held the gate.
      assertThat(victimAttempts.get()).isEqualTo(2);
      for (Future<MutationResult> f : competing) {
        f.get(3, TimeUnit.MINUTES);
      }
      assertThat(graph.commits()).extracting(c -> c.id()).contains(mine.commitId());
      String export = GraphIo.export(graph);
      assertThat(export).contains("\"name\":\"victim\"").contains("\"name\":\"rival1\"")
          .contains("\"name\":\"rival2\"");
    } finally {
      competitor.shutdown();
      assertThat(competitor.awaitTermination(3, TimeUnit.MINUTES)).isTrue();
    }
  }
}
