package io.omnigraph.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An injected error (not a crash) at each write-path failpoint: before the first table commit the
 * write fails with the storage failure and the graph is untouched and writable; after a table commit
 * it fails with {@link RecoveryRequiredException} naming the operation (the effect is durable but
 * unpublished); after the manifest commit the write is durable.
 */
class InjectedWriteErrorTest {
  @TempDir Path dir;

  @AfterEach
  void disarm() {
    Failpoints.disarmAll();
  }

  private Graph base(String name) {
    Graph g = Omnigraph.init(dir.resolve(name).toString(), PeopleGraph.SCHEMA);
    GraphIo.load(g, LoadMode.OVERWRITE, CrashWrites.BASE);
    return g;
  }

  @Test
  void anErrorBeforeTheFirstTableCommitLeavesTheGraphUntouchedAndWritable() {
    for (String f : List.of(Failpoints.WRITE_POST_STAGE_PRE_EFFECT, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT,
        Failpoints.TABLE_COMMIT_BEFORE)) {
      try (Graph g = base(f.replace('.', '_'))) {
        String before = GraphIo.export(g);
        List<String> commits = GraphIo.commitIds(g);
        Throwable t;
        try (Failpoints.Armed a = Failpoints.arm(f, FailAction.error(), 1)) {
          t = catchThrowable(() -> GraphIo.load(g, CrashWrites.MERGE3.mode(), CrashWrites.MERGE3.ndjson()));
          assertThat(a.fired()).as(f).isEqualTo(1);
        }
        assertThat(t).as(f).isInstanceOf(StorageFailureException.class);
        assertThat(Failpoints.injectedBy(t)).contains(f);
        assertThat(GraphIo.export(g)).as(f).isEqualTo(before);
        assertThat(GraphIo.commitIds(g)).as(f).isEqualTo(commits);
        GraphIo.load(g, LoadMode.MERGE, CrashWrites.FOLLOW_UP);
        assertThat(GraphIo.commitIds(g)).as(f).hasSize(commits.size() + 1);
      }
    }
  }

  @Test
  void anErrorAfterATableCommitIsRecoveryRequiredNamingTheOperation() {
    for (String f : List.of(Failpoints.TABLE_COMMIT_AFTER, Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH,
        Failpoints.PUBLISH_BEFORE)) {
      try (Graph g = base(f.replace('.', '_'))) {
        List<String> commits = GraphIo.commitIds(g);
        Throwable t;
        try (Failpoints.Armed a = Failpoints.arm(f, FailAction.error(), 1)) {
          t = catchThrowable(() -> GraphIo.load(g, CrashWrites.MERGE3.mode(), CrashWrites.MERGE3.ndjson()));
          assertThat(a.fired()).as(f).isEqualTo(1);
        }
        assertThat(t).as(f).isInstanceOf(RecoveryRequiredException.class).hasMessageContaining("recovery required");
        assertThat(((OmnigraphException) t).code()).isEqualTo("recovery_required");
        assertThat(Failpoints.injectedBy(t)).contains(f);
        assertThat(GraphIo.commitIds(g)).as(f).isEqualTo(commits);
      }
    }
  }

  @Test
  void anErrorAfterTheManifestCommitLeavesTheWriteDurable() {
    try (Graph g = base("after")) {
      GraphModel after = GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(g))
          .apply(CrashWrites.MERGE3.mode(), CrashWrites.MERGE3.ndjson());
      List<String> commits = GraphIo.commitIds(g);
      Throwable t;
      try (Failpoints.Armed a = Failpoints.arm(Failpoints.PUBLISH_AFTER, FailAction.error(), 1)) {
        t = catchThrowable(() -> GraphIo.load(g, CrashWrites.MERGE3.mode(), CrashWrites.MERGE3.ndjson()));
      }
      assertThat(t).isInstanceOf(OmnigraphException.class);
      assertThat(Failpoints.injectedBy(t)).contains(Failpoints.PUBLISH_AFTER);
      try (Graph again = Omnigraph.open(g.uri())) {
        assertThat(GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(again))).isEqualTo(after);
        assertThat(GraphIo.commitIds(again)).hasSize(commits.size() + 1);
      }
    }
  }
}
