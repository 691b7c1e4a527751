package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.load;
import static io.omnigraph.testkit.graph.PeopleGraph.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optimistic concurrency of loads: another writer publishes between this load's preparation and
 * its effect window (through the {@code beforeEffectWindow} seam, with a second handle on the same
 * graph, as another process would).
 */
class LoadOccTest {
  @TempDir Path dir;
  Graph graph;
  Graph other;
  LanceGraph lance;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA);
    other = Omnigraph.open(dir.resolve("g").toString());
    lance = (LanceGraph) graph;
  }

  @AfterEach
  void close() {
    graph.close();
    other.close();
  }

  /** Runs {@code concurrent} on the other handle before the first {@code times} effect windows. */
  AtomicInteger interleave(int times, Runnable concurrent) {
    AtomicInteger attempts = new AtomicInteger();
    lance.beforeEffectWindow = () -> {
      if (attempts.incrementAndGet() <= times) {
        concurrent.run();
      }
    };
    return attempts;
  }

  String head() {
    return graph.commits().get(0).id();
  }

  @Test
  void appendReprepareAfterAnUnrelatedPublishAndBothRowsLandInOneChain() {
    AtomicInteger attempts = interleave(1, () -> GraphIo.load(other, LoadMode.APPEND, person("x", 1)));
    GraphIo.load(graph, LoadMode.APPEND, person("y", 2));
    assertThat(attempts.get()).isEqualTo(2);
    List<CommitInfo> commits = graph.commits();
    assertThat(commits).hasSize(3);
    assertThat(commits.get(0).parents()).containsExactly(commits.get(1).id());
    assertThat(commits.get(1).parents()).containsExactly(commits.get(2).id());
    assertThat(GraphIo.sortedLines(GraphIo.export(graph)))
        .anyMatch(l -> l.contains("\"x\"")).anyMatch(l -> l.contains("\"y\""));
  }

  @Test
  void appendOfAnIdAConcurrentWriterJustInsertedIsAKeyConflictNotAnUpsert() {
    interleave(1, () -> GraphIo.load(other, LoadMode.APPEND, person("x", 1)));
    assertThatThrownBy(() -> GraphIo.load(graph, LoadMode.APPEND, person("x", 99)))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.KeyConflict("node", "Person", List.of("x"))));
    assertThat(GraphIo.export(graph)).contains("\"age\":1").doesNotContain("99");
    assertThat(graph.commits()).hasSize(2);
  }

  @Test
  void mergeReprepareAfterAnUnrelatedPublish() {
    GraphIo.load(graph, LoadMode.APPEND, person("x", 1));
    AtomicInteger attempts = interleave(1, () -> GraphIo.load(other, LoadMode.MERGE, person("z", 3)));
    GraphIo.load(graph, LoadMode.MERGE, person("x", 10));
    assertThat(attempts.get()).isEqualTo(2);
    assertThat(GraphIo.export(graph)).contains("\"age\":10").contains("\"z\"");
  }

  @Test
  void overwriteAfterAConcurrentPublishIsReadSetChangedAndWritesNothing() {
    String before = head();
    interleave(1, () -> GraphIo.load(other, LoadMode.APPEND, person("x", 1)));
    assertThatThrownBy(() -> GraphIo.load(graph, LoadMode.OVERWRITE, person("o", 5)))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          ErrorDetail.ReadSetConflict d = (ErrorDetail.ReadSetConflict) e.detail().orElseThrow();
          assertThat(d.member()).isEqualTo("graph_head:main");
          assertThat(d.expected()).isEqualTo(before);
          assertThat(d.actual()).isEqualTo(other.commits().get(0).id()).isNotEqualTo(before);
        });
    assertThat(GraphIo.export(graph)).contains("\"x\"").doesNotContain("\"o\"");
    assertThat(graph.commits()).hasSize(2);
  }

  @Test
  void aStaleExpectedHeadIsPreconditionFailedAndTheCurrentOneSucceeds() {
    String genesis = head();
    GraphIo.load(graph, LoadMode.APPEND, person("x", 1));
    String current = head();
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, person("y", 2), LoadOptions.defaults().withExpectedHead(genesis)))
        .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.PreconditionFailure("main", genesis, current)));
    load(graph, LoadMode.APPEND, person("y", 2), LoadOptions.defaults().withExpectedHead(current));
    assertThat(graph.commits()).hasSize(3);
  }

  @Test
  void anExpectedHeadThatMovesBeforeTheEffectsIsPreconditionFailedNeverAReprepare() {
    String genesis = head();
    AtomicInteger attempts = interleave(1, () -> GraphIo.load(other, LoadMode.APPEND, person("x", 1)));
    assertThatThrownBy(() -> load(graph, LoadMode.APPEND, person("y", 2), LoadOptions.defaults().withExpectedHead(genesis)))
        .isInstanceOf(PreconditionFailedException.class);
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(GraphIo.export(graph)).doesNotContain("\"y\"");
  }

  @Test
  void reprepareIsBoundedWhenOtherWritersAlwaysWin() {
    AtomicInteger n = new AtomicInteger();
    AtomicInteger attempts = interleave(Integer.MAX_VALUE,
        () -> GraphIo.load(other, LoadMode.APPEND, person("w" + n.incrementAndGet(), 1)));
    assertThatThrownBy(() -> GraphIo.load(graph, LoadMode.APPEND, person("y", 2)))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.getMessage()).contains("re-prepared"));
    assertThat(attempts.get()).isEqualTo(io.omnigraph.engine.write.StaleAttempt.MAX_PRE_EFFECT_REPREPARES + 1);
    assertThat(GraphIo.export(graph)).doesNotContain("\"y\"");
  }
}
