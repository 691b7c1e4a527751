package io.omnigraph.engine;

import static io.omnigraph.engine.RecoveryWrites.MORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.InterruptedWrite.StopAt;
import io.omnigraph.engine.manifest.PublisherSeams;
import io.omnigraph.engine.recovery.RecoveryAudit;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write path's side of recovery on real Lance: every load arms, confirms and deletes a v9
 * sidecar through GraphWrite; the write-entry barrier heals a confirmed-but-unpublished write
 * in-process (roll-forward only) and refuses writes while an intent needs a rollback.
 */
class WriteRecoveryTest {
  @TempDir Path dir;
  String uri;

  @BeforeEach
  void init() {
    uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, RecoveryWrites.BEFORE);
    }
  }

  List<String> sidecarFiles() throws IOException {
    Path d = dir.resolve("g").resolve(RecoverySidecar.DIR);
    if (!Files.isDirectory(d)) {
      return List.of();
    }
    try (var s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).toList();
    }
  }

  @Test
  void aLoadConfirmsItsSidecarBeforePublishingAndDeletesItAfter() throws IOException {
    List<String> seen = new ArrayList<>();
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      PublisherSeams.beforeMerge(g.publisher(), () -> {
        try {
          for (String f : sidecarFiles()) {
            seen.add(Files.readString(dir.resolve("g").resolve(RecoverySidecar.DIR).resolve(f)));
          }
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      GraphIo.load(g, LoadMode.MERGE, RecoveryWrites.WRITE);
    }
    assertThat(seen).singleElement().satisfies(body -> {
      assertThat(body).contains("\"schema_version\" : 9", "\"writer_kind\" : \"Load\"",
          "\"effect_phase\" : \"EffectsConfirmed\"", "\"node:Person\"", "\"node:Company\"");
    });
    assertThat(sidecarFiles()).isEmpty();
  }

  @Test
  void aFailedPublishLeavesAConfirmedSidecarThatTheNextWriteHealsWithoutReopening() throws IOException {
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      PublisherSeams.beforeMerge(g.publisher(), () -> {
        throw new StorageFailureException("injected manifest failure", null);
      });
      assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, RecoveryWrites.WRITE))
          .isInstanceOf(RecoveryRequiredException.class).hasMessageContaining("not published");
      assertThat(sidecarFiles()).hasSize(1);
      PublisherSeams.beforeMerge(g.publisher(), () -> { });
      GraphIo.load(g, LoadMode.MERGE, MORE);
      assertThat(g.commits()).hasSize(4);
      assertThat(GraphIo.export(g)).contains("\"age\":37", "initech", "\"cy\"");
      assertThat(g.recovery().audit().list()).singleElement()
          .satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward));
    }
    assertThat(sidecarFiles()).isEmpty();
  }

  @Test
  void anIntentThatNeedsARollbackRefusesWritesUntilTheGraphIsReopened() throws IOException {
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      InterruptedWrite w = InterruptedWrite.run(g, RecoveryWrites.WRITE, "svc", StopAt.AFTER_FIRST_COMMIT);
      assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, MORE))
          .isInstanceOf(RecoveryRequiredException.class)
          .hasMessageContaining("omnigraph repair")
          .satisfies(e -> {
            RecoveryRequiredException r = (RecoveryRequiredException) e;
            assertThat(r.kind().httpStatus()).isEqualTo(503);
            assertThat(r.detail()).contains(new ErrorDetail.RecoveryRequired(w.sidecar.operationId()));
          });
    }
    try (Graph g = Omnigraph.open(uri)) {
      GraphIo.load(g, LoadMode.MERGE, MORE);
      assertThat(GraphIo.export(g)).contains("\"cy\"").doesNotContain("initech");
    }
    assertThat(sidecarFiles()).isEmpty();
  }

  @Test
  void aStaleSidecarOfAPublishedWriteIsFinalizedByTheNextWrite() throws IOException {
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      InterruptedWrite.run(g, RecoveryWrites.WRITE, "svc", StopAt.AFTER_PUBLISH);
      GraphIo.load(g, LoadMode.MERGE, MORE);
      assertThat(g.recovery().audit().list()).singleElement()
          .satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward));
      assertThat(g.commits()).hasSize(4);
    }
    assertThat(sidecarFiles()).isEmpty();
  }
}
