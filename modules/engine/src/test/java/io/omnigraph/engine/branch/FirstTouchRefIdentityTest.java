package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.TestSeams;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.table.LanceFilter;
import io.omnigraph.engine.table.NativeBranch;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The confirmed sidecar of a first-touch write binds the native identifier of the table ref it
 * created ({@code confirmed_branch_identifier}; docs/sidecar-format.md, docs/recovery.md "First-touch
 * forks"), and recovery acts on that ref only while it still carries it: a ref deleted and re-created
 * after the confirmation — untouched, or even carrying a commit with the write's own pre-minted
 * transaction id at {@code source_fork_version + 1} — is never rolled forward onto and never
 * removed; the open refuses with {@link RecoveryRequiredException} and the sidecar stays. Real Lance
 * on local disk; the replacement is made with native branch calls, as a foreign tool would.
 */
class FirstTouchRefIdentityTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  static void add(Graph g, String branch, String name) {
    g.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name, "age", 30)),
        MutationOptions.defaults().withBranch(branch));
  }

  static String export(Graph g, String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  static List<Path> sidecars(Path root) throws Exception {
    try (var files = Files.list(root.resolve("__recovery"))) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).toList();
    }
  }

  /** The one pending sidecar's effect that forked a ref ({@code source_fork_version} set). */
  static JsonNode forkEffect(Path root) throws Exception {
    List<Path> files = sidecars(root);
    assertThat(files).hasSize(1);
    JsonNode s = JSON.readTree(Files.readString(files.get(0)));
    JsonNode payload = s.has("protocol_v3") ? s.get("protocol_v3") : s.get("protocol_v4");
    for (JsonNode e : payload.get("effects")) {
      if (e.has("source_fork_version")) {
        return e;
      }
    }
    throw new AssertionError("no first-touch effect in " + s);
  }

  /**
   * Graph {@code name}: ada written first-touch on {@code dev} (main holds zed), halted after the
   * confirmation; returns the Person table's main location.
   */
  LanceLocation confirmedFirstTouchMutation(String name) {
    Path root = dir.resolve(name);
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      add(g, "main", "zed");
      g.createBranch("dev", null);
      try (var armed = Failpoints.arm(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, FailAction.error())) {
        assertThatThrownBy(() -> add(g, "dev", "ada")).isInstanceOf(RecoveryRequiredException.class);
      }
      return new LanceLocation(root.resolve(TestSeams.tablePath(g, "node:Person")).toUri().toString(), Map.of());
    }
  }

  /** Deletes ref {@code ref} of {@code table} and creates it again from main at {@code version}. */
  static NativeBranch recreate(TableStore tables, LanceLocation table, String ref, long version) {
    tables.writer().deleteBranch(table, ref);
    return tables.writer().createBranch(table, ref, null, version);
  }

  @Test
  void theConfirmationBindsTheCreatedRefAndAnUnchangedRefIsRolledForward() throws Exception {
    LanceLocation table = confirmedFirstTouchMutation("g");
    Path root = dir.resolve("g");
    JsonNode effect = forkEffect(root);
    try (TableStore tables = new TableStore()) {
      assertThat(effect.get("confirmed_branch_identifier").asText())
          .isEqualTo(tables.reader().branch(table, "dev").orElseThrow().identifierText());
    }
    try (Graph g = Omnigraph.open(root.toString())) {
      assertThat(export(g, "dev")).contains("ada", "zed");
      assertThat(g.recoveries()).extracting(RecoveryRecord::kind).containsExactly("RolledForward");
      assertThat(sidecars(root)).isEmpty();
    }
  }

  @Test
  void aRefDeletedAndRecreatedUntouchedAfterTheConfirmationIsNeitherRolledForwardOntoNorRemoved() throws Exception {
    LanceLocation table = confirmedFirstTouchMutation("g");
    Path root = dir.resolve("g");
    JsonNode effect = forkEffect(root);
    NativeBranch replaced;
    try (TableStore tables = new TableStore()) {
      replaced = recreate(tables, table, "dev", effect.get("source_fork_version").asLong());
    }
    assertThat(replaced.identifierText()).isNotEqualTo(effect.get("confirmed_branch_identifier").asText());
    assertThatThrownBy(() -> Omnigraph.open(root.toString())).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining("not the one this write created and confirmed");
    assertThat(sidecars(root)).hasSize(1);
    try (TableStore tables = new TableStore()) {
      assertThat(tables.reader().branch(table, "dev")).contains(replaced); // not removed
    }
  }

  /**
   * The planned transaction at {@code source_fork_version + 1} alone does not prove ownership: a
   * re-created ref whose first commit carries the write's pre-minted id is still not the ref the
   * write confirmed.
   */
  @Test
  void aRecreatedRefCarryingThePlannedTransactionIdIsNotRolledForwardOnto() throws Exception {
    LanceLocation table = confirmedFirstTouchMutation("g");
    Path root = dir.resolve("g");
    JsonNode effect = forkEffect(root);
    long version = effect.get("source_fork_version").asLong();
    String uuid = effect.get("planned_transaction").get("uuid").asText();
    try (TableStore tables = new TableStore()) {
      recreate(tables, table, "dev", version);
      try (TableSnapshot s = tables.reader().openAt(TableReader.branchLocation(table, "dev"), version)) {
        StagedWrite d = tables.writer().stageDelete(s, "node:Person", LanceFilter.in("id", List.of("zed")))
            .orElseThrow();
        tables.writer().commitStagedAndOpen(s, new StagedWrite(d.tableKey(), d.location(), d.readVersion(), uuid,
            d.kind(), d.rowsWritten(), d.ids(), d.operation(), d.properties())).close();
      }
    }
    assertThatThrownBy(() -> Omnigraph.open(root.toString())).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining("not the one this write created and confirmed");
    assertThat(sidecars(root)).hasSize(1);
  }

  /** The same for a merge into a lazy target table: its confirmation binds the fork it made before its chunks. */
  @Test
  void aMergesConfirmationBindsItsForkAndARecreatedRefIsRefused() throws Exception {
    Path root = dir.resolve("m");
    LanceLocation table;
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      add(g, "main", "ada");
      g.createBranch("s", null);
      g.createBranch("t", null);
      add(g, "s", "bob");
      g.mutate(MutationGraph.QUERIES, "add_note", QueryParams.of(Map.of("text", "hi")),
          MutationOptions.defaults().withBranch("t"));
      try (var armed = Failpoints.arm(Failpoints.MERGE_AFTER_CONFIRM, FailAction.error())) {
        assertThatThrownBy(() -> g.merge("s", "t", MergeOptions.defaults()))
            .isInstanceOf(RecoveryRequiredException.class);
      }
      table = new LanceLocation(root.resolve(TestSeams.tablePath(g, "node:Person")).toUri().toString(), Map.of());
    }
    JsonNode effect = forkEffect(root);
    try (TableStore tables = new TableStore()) {
      assertThat(effect.get("confirmed_branch_identifier").asText())
          .isEqualTo(tables.reader().branch(table, "t").orElseThrow().identifierText());
      recreate(tables, table, "t", effect.get("source_fork_version").asLong());
    }
    assertThatThrownBy(() -> Omnigraph.open(root.toString())).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining("not the one this write created and confirmed");
    assertThat(sidecars(root)).hasSize(1);
    try (TableStore tables = new TableStore()) {
      assertThat(tables.reader().branch(table, "t")).isPresent();
    }
  }
}
