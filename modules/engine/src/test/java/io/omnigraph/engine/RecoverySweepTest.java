package io.omnigraph.engine;

import static io.omnigraph.engine.RecoveryWrites.BEFORE;
import static io.omnigraph.engine.RecoveryWrites.WRITE;
import static io.omnigraph.engine.TableDrift.assertNoDrift;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.InterruptedWrite.StopAt;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.recovery.RecoveryAudit;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.recovery.TableClassification;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open-time recovery sweep on real Lance datasets on local disk. Each test leaves a root as a
 * process that died at one point of the write protocol would ({@link InterruptedWrite}), reopens
 * it, and checks the graph equals exactly the state before or after the write, that no sidecar
 * remains, and what the audit says.
 */
class RecoverySweepTest {
  @TempDir Path dir;
  String uri;
  String exportBefore;
  String exportAfter;

  @BeforeEach
  void init() {
    uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, BEFORE);
      exportBefore = GraphIo.export(g);
    }
    // The reference result of the same write done normally, in a sibling root.
    try (Graph g = Omnigraph.init(dir.resolve("ref").toString(), PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, BEFORE);
      GraphIo.load(g, LoadMode.MERGE, WRITE);
      exportAfter = GraphIo.export(g);
    }
  }

  InterruptedWrite crash(StopAt stop) {
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      return InterruptedWrite.run(g, WRITE, "svc-ingest", stop);
    }
  }

  Path recoveryDir() {
    return dir.resolve("g").resolve(RecoverySidecar.DIR);
  }

  List<String> sidecarFiles() throws IOException {
    if (!Files.isDirectory(recoveryDir())) {
      return List.of();
    }
    try (var s = Files.list(recoveryDir())) {
      // Only sidecars: the fs adapter keeps hidden lock/temp names (name#digits) next to them.
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
    }
  }

  List<RecoveryAudit.Row> audit() {
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      return g.recovery().audit().list();
    }
  }

  /** Manifest pin == Lance HEAD for every table: no residual drift. */

  /** Commits a Lance Restore on a pinned table directly, as another process (or a dead sweep) would have. */
  void restoreBehindTheEngine(RecoverySidecar.TablePin pin, long toVersion) {
    try (io.omnigraph.engine.table.TableStore tables = new io.omnigraph.engine.table.TableStore()) {
      var location = new io.omnigraph.api.storage.LanceLocation(pin.tablePath(), Map.of());
      try (TableSnapshot head = tables.reader().openLatest(location)) {
        tables.writer().restore(head, pin.tableKey(), toVersion);
      }
    }
  }

  @Test
  void crashAfterArmBeforeAnyCommitIsDiscardedWithoutAuditOrCommit() throws IOException {
    crash(StopAt.AFTER_ARM);
    assertThat(sidecarFiles()).hasSize(1);
    try (Graph g = Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportBefore);
      assertThat(g.commits()).hasSize(2);
    }
    assertThat(sidecarFiles()).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void crashAfterFirstTableCommitRollsBackToTheStateBefore() throws IOException {
    InterruptedWrite w = crash(StopAt.AFTER_FIRST_COMMIT);
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportBefore);
      assertNoDrift(g);
      CommitInfo head = g.commits().get(0);
      assertThat(head.id()).isEqualTo(w.sidecar.protocol().rollbackGraphCommitId());
      assertThat(head.actor()).isEqualTo(RecoverySidecar.RECOVERY_ACTOR);
      assertThat(g.recoveries()).singleElement().satisfies(r -> {
        assertThat(r.kind()).isEqualTo("RolledBack");
        assertThat(r.graphCommitId()).isEqualTo(head.id());
        assertThat(r.forActor()).isEqualTo("svc-ingest");
        assertThat(r.operationId()).isEqualTo(w.sidecar.operationId());
      });
    }
    assertThat(sidecarFiles()).isEmpty();
    List<RecoveryAudit.Row> rows = audit();
    assertThat(rows).hasSize(1);
    RecoveryAudit.Row row = rows.get(0);
    assertThat(row.kind()).isEqualTo(RecoveryAudit.Kind.RolledBack);
    assertThat(row.operationId()).isEqualTo(w.sidecar.operationId());
    assertThat(row.recoveryForActor()).isEqualTo("svc-ingest");
    assertThat(row.writerKind()).isEqualTo("Load");
    RecoverySidecar.TablePin first = w.sidecar.tables().get(0);
    assertThat(row.outcomes()).containsExactly(new RecoverySidecar.TableOutcome(first.tableKey(),
        first.expectedVersion() + 1, first.expectedVersion()));
  }

  @Test
  void crashAfterAllCommitsBeforeConfirmationRollsBack() throws IOException {
    crash(StopAt.AFTER_ALL_COMMITS);
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportBefore);
      assertNoDrift(g);
    }
    assertThat(sidecarFiles()).isEmpty();
    assertThat(audit()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledBack);
      assertThat(r.outcomes()).hasSize(2);
    });
  }

  @Test
  void crashAfterConfirmationRollsForwardWithTheOriginalCommitAndActor() throws IOException {
    InterruptedWrite w = crash(StopAt.AFTER_CONFIRM);
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportAfter);
      assertNoDrift(g);
      CommitInfo head = g.commits().get(0);
      assertThat(head.id()).isEqualTo(w.commitId);
      assertThat(head.actor()).isEqualTo("svc-ingest");
      assertThat(head.message()).isEqualTo("interrupted");
    }
    assertThat(sidecarFiles()).isEmpty();
    assertThat(audit()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward);
      assertThat(r.graphCommitId()).isEqualTo(w.commitId);
      assertThat(r.outcomes()).allSatisfy(o -> assertThat(o.toVersion()).isEqualTo(o.fromVersion() + 1));
    });
  }

  @Test
  void aFailedAuditAppendKeepsTheSidecarAndTheNextOpenRecordsExactlyOneRow() throws IOException {
    InterruptedWrite w = crash(StopAt.AFTER_CONFIRM);
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.AUDIT_APPEND, FailAction.error())) {
      assertThatThrownBy(() -> Omnigraph.open(uri).close())
          .satisfies(e -> assertThat(Failpoints.injectedBy(e)).contains(Failpoints.AUDIT_APPEND));
      assertThat(a.fired()).isEqualTo(1);
    }
    // The roll forward published before the audit append failed; the sidecar stays for the audit.
    assertThat(sidecarFiles()).containsExactly(w.sidecar.operationId() + ".json");
    try (Graph g = Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportAfter);
      assertThat(g.commits()).hasSize(3);
      assertThat(g.commits().get(0).id()).isEqualTo(w.commitId);
    }
    assertThat(sidecarFiles()).isEmpty();
    try (Graph g = Omnigraph.open(uri)) {
      assertThat(g.commits()).hasSize(3);
    }
    assertThat(audit()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward);
      assertThat(r.graphCommitId()).isEqualTo(w.commitId);
    });
  }

  @Test
  void staleSidecarAfterPublishIsAuditedOnceAsRolledForwardAndDeleted() throws IOException {
    InterruptedWrite w = crash(StopAt.AFTER_PUBLISH);
    Path file = recoveryDir().resolve(w.sidecar.operationId() + ".json");
    String body = Files.readString(file);
    try (Graph g = Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportAfter);
      assertThat(g.commits()).hasSize(3);
    }
    assertThat(sidecarFiles()).isEmpty();
    // The same sidecar again (as if the delete after the audit append had failed): still one row.
    Files.writeString(file, body);
    try (Graph g = Omnigraph.open(uri)) {
      assertThat(g.commits()).hasSize(3);
    }
    assertThat(sidecarFiles()).isEmpty();
    assertThat(audit()).singleElement().satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward));
  }

  @Test
  void restoreThatLandedBeforeTheCrashIsNotRepeated() throws IOException {
    InterruptedWrite w = crash(StopAt.AFTER_FIRST_COMMIT);
    RecoverySidecar.TablePin pin = w.sidecar.tables().get(0);
    // An earlier sweep restored the table, then died before publishing.
    restoreBehindTheEngine(pin, pin.expectedVersion());
    try (LanceGraph g = (LanceGraph) Omnigraph.open(uri)) {
      assertThat(GraphIo.export(g)).isEqualTo(exportBefore);
      assertNoDrift(g);
      assertThat(g.state().table(pin.tableKey()).orElseThrow().version()).isEqualTo(pin.expectedVersion() + 2);
    }
    assertThat(audit()).singleElement().satisfies(r -> assertThat(r.outcomes()).containsExactly(
        new RecoverySidecar.TableOutcome(pin.tableKey(), pin.expectedVersion() + 1, pin.expectedVersion())));
  }

  @Test
  void dryRunClassifiesAndChangesNothing() throws IOException {
    crash(StopAt.AFTER_FIRST_COMMIT);
    List<String> files = sidecarFiles();
    List<RecoverySweep.Outcome> outcomes = OmnigraphEngine.sweep(uri, OpenOptions.defaults(), true);
    assertThat(outcomes).singleElement().satisfies(o -> {
      assertThat(o.action()).isEqualTo(RecoverySweep.Action.PENDING);
      assertThat(o.decision()).isEqualTo(TableClassification.Decision.ROLL_BACK);
      assertThat(o.tables()).containsValues(TableClassification.INCOMPLETE_PHASE_B, TableClassification.NO_MOVEMENT);
    });
    assertThat(sidecarFiles()).isEqualTo(files);
    List<RecoverySweep.Outcome> done = OmnigraphEngine.sweep(uri, OpenOptions.defaults(), false);
    assertThat(done).singleElement().satisfies(o -> assertThat(o.action()).isEqualTo(RecoverySweep.Action.ROLLED_BACK));
    assertThat(sidecarFiles()).isEmpty();
  }

  @Test
  void corruptSidecarRefusesTheOpenNamesTheFileAndKeepsIt() throws IOException {
    Files.createDirectories(recoveryDir());
    Path bad = recoveryDir().resolve("01JZ8Q3V7K2M4N6P8R0T2W4Y6A.json");
    Files.writeString(bad, "{\"schema_version\": 9, \"operation_id\": ");
    assertThatThrownBy(() -> Omnigraph.open(uri)).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining(RecoverySidecar.DIR + "/01JZ8Q3V7K2M4N6P8R0T2W4Y6A.json").hasMessageContaining("not valid JSON")
        .satisfies(e -> assertThat(((RecoveryRequiredException) e).detail())
            .contains(new ErrorDetail.RecoveryRequired("01JZ8Q3V7K2M4N6P8R0T2W4Y6A")));
    assertThat(bad).exists();
  }

  @Test
  void preV9SidecarIsRefusedByName() throws IOException {
    Files.createDirectories(recoveryDir());
    Files.writeString(recoveryDir().resolve("01JZ8Q3V7K2M4N6P8R0T2W4Y6A.json"),
        "{\"schema_version\": 3, \"operation_id\": \"01JZ8Q3V7K2M4N6P8R0T2W4Y6A\", \"tables\": [{\"table_key\": \"node:Person\"}]}");
    assertThatThrownBy(() -> Omnigraph.open(uri)).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining("pre-v9").hasMessageContaining("identity");
  }

  @Test
  void foreignCommitOnAPinnedTableIsRefusedAndTheSidecarKept() throws IOException {
    InterruptedWrite w = crash(StopAt.AFTER_ARM);
    RecoverySidecar.TablePin pin = w.sidecar.tables().get(0);
    // Someone else's commit moved the table after the sidecar was armed.
    restoreBehindTheEngine(pin, 1);
    assertThatThrownBy(() -> Omnigraph.open(uri)).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining(w.sidecar.operationId()).hasMessageContaining("did not plan");
    assertThat(sidecarFiles()).containsExactly(w.sidecar.operationId() + ".json");
  }
}
