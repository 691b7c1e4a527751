package io.omnigraph.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.RecoveryOutcome;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recovery sweep in one process racing a live writer in another (docs/recovery.md, "Sweep
 * modes": the sweep runs under the write lease): the writer's sidecar is armed and its first table commit has landed, unconfirmed, when the
 * sweep starts. Classified at that instant the intent would be rolled back; because the sweep takes
 * the same effect window (gate + cross-process {@code WriteLease}) as every write, it waits until
 * the writer has published and deleted its sidecar, and then finds nothing to do.
 */
class SweepRacesLiveWriterTest {
  /** How long the child sits between its first table commit and the rest of its write. */
  static final long STALL_MILLIS = 6_000;

  @TempDir Path tmp;

  @Test
  void anOpenTimeSweepWaitsForALiveWriterInAnotherProcessInsteadOfRollingItBack() throws Exception {
    runRace(false);
  }

  @Test
  void repairWaitsForALiveWriterInAnotherProcessInsteadOfRollingItBack() throws Exception {
    runRace(true);
  }

  private void runRace(boolean repair) throws Exception {
    String uri = tmp.resolve("g").toString();
    GraphModel before;
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, CrashWrites.BASE);
      before = GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(g));
    }
    CrashWrites.Writer w = CrashWrites.MERGE3;
    GraphModel after = before.copy().apply(w.mode(), w.ndjson());
    Path input = Files.writeString(tmp.resolve("input.ndjson"), w.ndjson());
    Map<String, String> props = Map.of(Failpoints.SYSTEM_PROPERTY,
        Failpoints.TABLE_COMMIT_AFTER + "=delay:" + STALL_MILLIS + "@1");
    try (ChildJvm.Running child = CrashWriter.child(props, List.of(uri, "load", w.mode().wireName(), input.toString()))
        .startLogged(tmp.resolve("children"))) {
      List<String> pending = awaitSidecar(uri, child);
      // The first table commit lands right after the sidecar is armed; give it time, well inside the stall.
      Thread.sleep(1_000);
      assertThat(child.process().isAlive()).as("the writer is still inside its write").isTrue();
      assertThat(CrashWrites.sidecars(uri, Map.of())).as("its intent is still pending").isEqualTo(pending);

      long t0 = System.nanoTime();
      List<RecoveryOutcome> repaired = List.of();
      if (repair) {
        repaired = Omnigraph.repair(uri, io.omnigraph.api.OpenOptions.defaults(), false);
      } else {
        Omnigraph.open(uri).close();
      }
      long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

      ChildJvm.Result r = child.await(2, TimeUnit.MINUTES);
      assertThat(r.exitCode()).as("the writer finished its write:\n" + r.output()).isZero();
      assertThat(r.output()).contains("committed ");
      // The sweep could only proceed once the writer left its effect window.
      assertThat(waitedMillis).as("the sweep waited for the writer's lease").isGreaterThan(STALL_MILLIS / 2);
      assertThat(repaired).as("nothing was left to repair").isEmpty();
    }
    try (Graph g = Omnigraph.open(uri)) {
      assertThat(GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(g)))
          .as("the live write was published, not rolled back").isEqualTo(after);
      assertThat(g.recoveries()).as("no recovery happened").isEmpty();
      assertThat(g.commits().get(0).actor()).isEqualTo("crash-writer");
    }
    assertThat(CrashWrites.sidecars(uri, Map.of())).isEmpty();
  }

  private static List<String> awaitSidecar(String uri, ChildJvm.Running child) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      List<String> s = CrashWrites.sidecars(uri, Map.of());
      if (!s.isEmpty()) {
        return s;
      }
      if (!child.process().isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("the writer never armed a sidecar:\n" + child.output());
      }
      Thread.sleep(5);
    }
  }

}
