package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeOutcome;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Graph.merge} on real Lance on local disk (docs/branches.md, "Merge"). */
class BranchMergeTest {
  @TempDir Path dir;
  Graph graph;
  Path root;

  @BeforeEach
  void init() {
    root = dir.resolve("g");
    graph = Omnigraph.init(root.toString(), SCHEMA);
    BranchMerge.chunkRows = 8192;
  }

  @AfterEach
  void close() {
    BranchMerge.chunkRows = 8192;
    BranchMerge.chunkBytes = io.omnigraph.engine.write.KeyedWrites.MAX_BYTES;
    BranchMerge.provenInsert = true;
    BranchMerge.adoptFiles = true;
    if (graph != null) {
      graph.close();
    }
  }

  void run(String branch, String query, Map<String, Object> params) {
    graph.mutate(MutationGraph.QUERIES, query, QueryParams.of(params), MutationOptions.defaults().withBranch(branch));
  }

  void add(String branch, String name, int age) {
    run(branch, "add_person", Map.of("name", name, "age", age));
  }

  void load(String branch, LoadMode mode, String ndjson) {
    graph.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withBranch(branch));
  }

  String export(String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  String head(String branch) {
    return graph.commits(branch).get(0).id();
  }

  List<ErrorDetail.MergeConflict> conflictsOf(Runnable merge) {
    ConflictException e = org.junit.jupiter.api.Assertions.assertThrows(ConflictException.class, merge::run);
    assertThat(e.detail()).containsInstanceOf(ErrorDetail.MergeConflicts.class);
    return ((ErrorDetail.MergeConflicts) e.detail().orElseThrow()).conflicts();
  }

  List<Path> sidecars() {
    Path d = root.resolve("__recovery");
    if (!Files.exists(d)) {
      return List.of();
    }
    try (var s = Files.list(d)) {
      return s.filter(p -> p.toString().endsWith(".json")).toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  MergeResult merge(String source, String target) {
    return graph.merge(source, target, MergeOptions.defaults());
  }

  @Test
  void aSourceWithNothingNewIsAlreadyUpToDateAndWritesNothing() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    String before = head("main");
    MergeResult r = merge("f", "main");
    assertThat(r.outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
    assertThat(r.commitId()).isEqualTo(before);
    assertThat(head("main")).isEqualTo(before);
    assertThat(r.tables()).isEmpty();
  }

  @Test
  void aTargetWithoutOwnCommitsFastForwardsToTheSourceContents() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    add("f", "bob", 40);
    String mainHead = head("main");
    String fHead = head("f");
    MergeResult r = merge("f", null);
    assertThat(r.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(r.baseCommitId()).isEqualTo(mainHead);
    assertThat(r.sourceCommitId()).isEqualTo(fHead);
    assertThat(export("main")).isEqualTo(export("f"));
    CommitInfo c = graph.commit(r.commitId()).orElseThrow();
    assertThat(c.parents()).containsExactly(mainHead, fHead);
    // f wrote Person on its own ref (an all-new, certified insert): main adopts the rows onto its
    // own ref by the proven-insert route (ProvenInsertMergeTest)
    assertThat(r.tables().get("node:Person").route()).isEqualTo("proven_insert");
    assertThat(r.tables().get("node:Person").inserted()).isEqualTo(1);
    // merging again: the source head is now in main's history
    assertThat(merge("f", "main").outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
  }

  @Test
  void aTableTheTargetNeverTouchedMovesByPointerWithoutWritingRows() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    add("main", "bob", 40); // main advances Person on main's ref; f never wrote Person
    MergeResult r = merge("main", "f");
    assertThat(r.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    MergeResult.TableMerge t = r.tables().get("node:Person");
    assertThat(t.route()).isEqualTo("pointer");
    assertThat(t.transactions()).isZero();
    assertThat(t.inserted()).isEqualTo(1);
    assertThat(export("f")).isEqualTo(export("main"));
  }

  @Test
  void changesOnBothSidesMergeIntoACommitWithTwoParents() {
    add("main", "ada", 30);
    add("main", "cy", 50);
    graph.createBranch("f", null);
    add("f", "bob", 40);
    run("f", "set_age", Map.of("name", "ada", "age", 31));
    run("main", "remove_person", Map.of("name", "cy")); // distinct rows: no conflict
    add("main", "dee", 20);
    String mainHead = head("main");
    String fHead = head("f");
    MergeResult r = merge("f", "main");
    assertThat(r.outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(graph.commit(r.commitId()).orElseThrow().parents()).containsExactly(mainHead, fHead);
    String merged = export("main");
    assertThat(merged).contains("\"bob\"").contains("\"dee\"").doesNotContain("\"cy\"");
    assertThat(merged).contains("\"age\":31");
    MergeResult.TableMerge t = r.tables().get("node:Person");
    assertThat(t.inserted()).isEqualTo(1);
    assertThat(t.updated()).isEqualTo(1);
    assertThat(t.deleted()).isZero();
    assertThat(merge("f", "main").outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
  }

  @Test
  void aRowDeletedOnTheSourceAndUntouchedOnTheTargetIsDeleted() {
    add("main", "ada", 30);
    add("main", "cy", 50);
    graph.createBranch("f", null);
    run("f", "remove_person", Map.of("name", "cy"));
    add("main", "dee", 20);
    MergeResult r = merge("f", "main");
    assertThat(r.tables().get("node:Person").deleted()).isEqualTo(1);
    assertThat(export("main")).doesNotContain("\"cy\"").contains("\"dee\"");
  }

  @Test
  void identicalChangesOnBothSidesAreNeverAConflict() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    run("f", "set_age", Map.of("name", "ada", "age", 44));
    run("main", "set_age", Map.of("name", "ada", "age", 44));
    add("f", "bob", 40);
    add("main", "bob", 40); // the same keyed insert on both sides
    MergeResult r = merge("f", "main");
    assertThat(r.outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(r.tables()).doesNotContainKey("node:Person"); // nothing to write
  }

  @Test
  void divergentChangesAreTypedConflictsWithTheThreeValuesAndWriteNothing() {
    add("main", "ada", 30);
    add("main", "cy", 50);
    graph.createBranch("f", null);
    run("f", "set_age", Map.of("name", "ada", "age", 31));
    run("main", "set_age", Map.of("name", "ada", "age", 32));
    run("f", "remove_person", Map.of("name", "cy"));
    run("main", "set_age", Map.of("name", "cy", "age", 51));
    add("f", "eve", 1);
    add("main", "eve", 2);
    String before = export("main");
    List<CommitInfo> commitsBefore = graph.commits("main");
    List<ErrorDetail.MergeConflict> cs = conflictsOf(() -> merge("f", "main"));
    Map<String, ErrorDetail.MergeConflict> byId = new HashMap<>();
    cs.forEach(c -> byId.put(c.entityId(), c));
    assertThat(cs).hasSize(3);
    ErrorDetail.MergeConflict ada = byId.values().stream().filter(c -> c.base() != null && c.base().contains("ada"))
        .findFirst().orElseThrow();
    assertThat(ada.kind()).isEqualTo("divergent_update");
    assertThat(ada.entityKind()).isEqualTo("node");
    assertThat(ada.typeName()).isEqualTo("Person");
    assertThat(ada.base()).contains("\"age\":30");
    assertThat(ada.source()).contains("\"age\":31");
    assertThat(ada.target()).contains("\"age\":32");
    assertThat(cs).extracting(ErrorDetail.MergeConflict::kind)
        .containsExactlyInAnyOrder("divergent_update", "delete_vs_update", "divergent_insert");
    ErrorDetail.MergeConflict cy = cs.stream().filter(c -> c.kind().equals("delete_vs_update")).findFirst().orElseThrow();
    assertThat(cy.source()).isEqualTo("null");
    ErrorDetail.MergeConflict eve = cs.stream().filter(c -> c.kind().equals("divergent_insert")).findFirst()
        .orElseThrow();
    assertThat(eve.base()).isEqualTo("null");
    assertThat(export("main")).isEqualTo(before);
    assertThat(graph.commits("main")).isEqualTo(commitsBefore);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aMergeThatWouldOrphanAnEdgeIsAConflict() {
    add("main", "ada", 30);
    add("main", "bob", 40);
    graph.createBranch("f", null);
    run("f", "remove_person", Map.of("name", "bob"));
    run("main", "know", Map.of("a", "ada", "b", "bob"));
    List<ErrorDetail.MergeConflict> cs = conflictsOf(() -> merge("f", "main"));
    assertThat(cs).extracting(ErrorDetail.MergeConflict::kind).containsExactly("orphan_edge");
    assertThat(cs.get(0).typeName()).isEqualTo("Knows");
  }

  @Test
  void aMergeThatWouldBreakUniqueIsAConflict() {
    add("main", "ada", 30);
    add("main", "bob", 40);
    graph.createBranch("f", null);
    run("f", "set_email", Map.of("name", "ada", "email", "x@y.z"));
    run("main", "set_email", Map.of("name", "bob", "email", "x@y.z"));
    List<ErrorDetail.MergeConflict> cs = conflictsOf(() -> merge("f", "main"));
    assertThat(cs).extracting(ErrorDetail.MergeConflict::kind).containsExactly("unique_violation");
  }

  @Test
  void aMergeThatWouldBreakCardIsAConflict() {
    run("main", "hire", Map.of("name", "ada", "company", "acme"));
    run("main", "remove_works_at", Map.of("name", "ada"));
    run("main", "hire", Map.of("name", "bob", "company", "globex"));
    graph.createBranch("f", null);
    run("f", "join", Map.of("name", "ada", "company", "acme"));
    run("main", "join", Map.of("name", "ada", "company", "globex"));
    List<ErrorDetail.MergeConflict> cs = conflictsOf(() -> merge("f", "main"));
    assertThat(cs).extracting(ErrorDetail.MergeConflict::kind).containsExactly("cardinality_violation");
    assertThat(cs.get(0).entityId()).isEqualTo("ada");
  }

  @Test
  void rowsAreWrittenInBoundedChunksOfOneChainUnderOnePublish() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      rows.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\"}}\n");
    }
    load("f", LoadMode.APPEND, rows.toString());
    run("f", "remove_person", Map.of("name", "ada"));
    add("main", "zed", 9);
    BranchMerge.chunkRows = 2;
    int commitsBefore = graph.commits("main").size();
    MergeResult r = merge("f", "main");
    MergeResult.TableMerge t = r.tables().get("node:Person");
    assertThat(t.inserted()).isEqualTo(5);
    assertThat(t.deleted()).isEqualTo(1);
    assertThat(t.transactions()).isEqualTo(3 + 1); // ceil(5 / 2) insert chunks, one delete chunk
    assertThat(graph.commits("main")).hasSize(commitsBefore + 1);
    assertThat(export("main")).contains("\"p4\"").contains("\"zed\"").doesNotContain("\"ada\"");
  }

  @Test
  void aChainOverTheTransactionLimitIsRefusedBeforeAnyEffect() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < BranchMerge.MAX_TRANSACTIONS_PER_TABLE + 1; i++) {
      rows.append("{\"type\":\"Note\",\"data\":{\"id\":\"n").append(i).append("\",\"text\":\"t\"}}\n");
    }
    load("f", LoadMode.APPEND, rows.toString());
    add("main", "zed", 9);
    BranchMerge.chunkRows = 1;
    BranchMerge.adoptFiles = false; // re-staged rows (as on object stores): one chunk a row
    String before = export("main");
    assertThatThrownBy(() -> merge("f", "main")).isInstanceOfSatisfying(ResourceLimitException.class, e ->
        assertThat(e.detail().orElseThrow()).isEqualTo(new ErrorDetail.ResourceLimit(
            "branch-merge transactions for node:Note", 1024, 1025)));
    assertThat(export("main")).isEqualTo(before);
    assertThat(graph.recoveries()).isEmpty();
  }

  static String notes(int count, int textChars, String prefix) {
    StringBuilder rows = new StringBuilder();
    String text = "x".repeat(textChars);
    for (int i = 0; i < count; i++) {
      rows.append("{\"type\":\"Note\",\"data\":{\"id\":\"").append(prefix).append(i)
          .append("\",\"text\":\"").append(text).append("\"}}\n");
    }
    return rows.toString();
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "proven-insert route allowed: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void chunksAreCutAtTheByteCapByActualBufferedSizeOnBothRoutes(boolean proven) {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    load("f", LoadMode.APPEND, notes(10, 20_000, "n"));
    add("main", "zed", 9);
    BranchMerge.provenInsert = proven;
    BranchMerge.adoptFiles = false; // the proven route re-stages rows (as on object stores)
    BranchMerge.chunkBytes = 64 * 1024; // each row buffers > 20,000 bytes: at most 3 rows a chunk
    MergeResult r = merge("f", "main");
    MergeResult.TableMerge t = r.tables().get("node:Note");
    assertThat(t.route()).isEqualTo(proven ? "proven_insert" : "ordered");
    assertThat(t.inserted()).isEqualTo(10);
    assertThat(t.transactions()).isBetween(4L, 10L);
    assertThat(export("main")).contains("\"n9\"");
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "proven-insert route allowed: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void aRowOverTheChunkByteCapIsRefusedBeforeAnyEffect(boolean proven) {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    load("f", LoadMode.APPEND, notes(2, 100, "small") + notes(1, 70_000, "big"));
    add("main", "zed", 9);
    BranchMerge.provenInsert = proven;
    BranchMerge.adoptFiles = false; // the proven route re-stages rows (as on object stores)
    BranchMerge.chunkBytes = 64 * 1024;
    String before = export("main");
    List<CommitInfo> commits = graph.commits("main");
    assertThatThrownBy(() -> merge("f", "main")).isInstanceOfSatisfying(ResourceLimitException.class, e -> {
      ErrorDetail.ResourceLimit d = (ErrorDetail.ResourceLimit) e.detail().orElseThrow();
      assertThat(d.resource()).isEqualTo("branch-merge row bytes for node:Note");
      assertThat(d.limit()).isEqualTo(64 * 1024);
      assertThat(d.actual()).isGreaterThan(70_000);
    });
    assertThat(export("main")).isEqualTo(before);
    assertThat(graph.commits("main")).isEqualTo(commits);
    graph.close();
    graph = Omnigraph.open(root.toString());
    assertThat(graph.recoveries()).as("no sidecar was armed: the open-time sweep found nothing").isEmpty();
  }

  @Test
  void anAdoptedIntervalBuffersNoRowSoOnlyItsLinksCount() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    // one append of 1,025 rows, one of them over the (lowered) chunk byte cap
    load("f", LoadMode.APPEND, notes(BranchMerge.MAX_TRANSACTIONS_PER_TABLE, 10, "n") + notes(1, 70_000, "big"));
    add("main", "zed", 9);
    BranchMerge.chunkRows = 1;
    BranchMerge.chunkBytes = 64 * 1024;
    MergeResult r = merge("f", "main");
    MergeResult.TableMerge t = r.tables().get("node:Note");
    assertThat(t.route()).isEqualTo("proven_insert");
    assertThat(t.inserted()).isEqualTo(BranchMerge.MAX_TRANSACTIONS_PER_TABLE + 1);
    assertThat(t.transactions()).isEqualTo(1); // the one link of f, adopted as it is
    assertThat(export("main")).contains("\"big0\"").contains("\"n1023\"");
  }

  @Test
  void theProductChunkCapsAreTheIssuesLimits() {
    assertThat(io.omnigraph.engine.write.KeyedWrites.MAX_ROWS).isEqualTo(8192);
    assertThat(io.omnigraph.engine.write.KeyedWrites.MAX_BYTES).isEqualTo(32L * 1024 * 1024);
    assertThat(BranchMerge.MAX_TRANSACTIONS_PER_TABLE).isEqualTo(1024);
  }

  @Test
  void aFailureAfterAChunkCommitIsRecoveryRequiredAndRecoveryCompensatesIt() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    add("f", "bob", 40);
    add("f", "cy", 41);
    add("main", "zed", 9);
    BranchMerge.chunkRows = 1;
    String before = export("main");
    try (var armed = Failpoints.arm(Failpoints.MERGE_AFTER_CHUNK_COMMIT, FailAction.error())) {
      assertThatThrownBy(() -> merge("f", "main")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.close();
    graph = Omnigraph.open(root.toString());
    assertThat(export("main")).isEqualTo(before);
    List<RecoveryRecord> rec = graph.recoveries();
    assertThat(rec).hasSize(1);
    assertThat(rec.get(0).kind()).isEqualTo("RolledBack");
    assertThat(rec.get(0).writerKind()).isEqualTo("BranchMerge");
    // the graph is writable again and the same merge now succeeds
    assertThat(merge("f", "main").outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(export("main")).contains("\"bob\"").contains("\"cy\"").contains("\"zed\"");
  }

  @Test
  void aFailureAfterConfirmIsRolledForwardAsTheMergeCommit() {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    add("f", "bob", 40);
    add("main", "zed", 9);
    String mainHead = head("main");
    String fHead = head("f");
    try (var armed = Failpoints.arm(Failpoints.MERGE_AFTER_CONFIRM, FailAction.error())) {
      assertThatThrownBy(() -> merge("f", "main")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.close();
    graph = Omnigraph.open(root.toString());
    assertThat(graph.recoveries()).extracting(RecoveryRecord::kind).containsExactly("RolledForward");
    assertThat(export("main")).contains("\"bob\"").contains("\"zed\"");
    assertThat(graph.commits("main").get(0).parents()).containsExactly(mainHead, fHead);
    assertThat(merge("f", "main").outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
  }

  /**
   * A confirmed, complete merge is rolled forward only while the target authority it captured still
   * holds (docs/branches.md, "Merge recovery"): here the sidecar's captured head of {@code main} is
   * made another commit's — as when the target moved after the merge confirmed — and the sweep
   * compensates instead: the chain is restored and the rollback commit published.
   */
  @Test
  void aConfirmedMergeWhoseCapturedTargetHeadNoLongerHoldsIsCompensatedNotRolledForward() throws Exception {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    add("f", "bob", 40);
    add("main", "zed", 9);
    String before = export("main");
    String mainHead = head("main");
    String fHead = head("f");
    try (var armed = Failpoints.arm(Failpoints.MERGE_AFTER_CONFIRM, FailAction.error())) {
      assertThatThrownBy(() -> merge("f", "main")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.close();
    graph = null;
    assertThat(sidecars()).hasSize(1);
    Path sidecar = sidecars().get(0);
    var json = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(Files.readString(sidecar));
    var authority = (com.fasterxml.jackson.databind.node.ObjectNode) json.path("protocol_v4").path("authority");
    assertThat(authority.path("graph_head").asText()).isEqualTo(mainHead);
    assertThat(json.path("protocol_v4").path("effect_phase").asText()).isEqualTo("EffectsConfirmed");
    authority.put("graph_head", fHead);
    Files.writeString(sidecar, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json));
    graph = Omnigraph.open(root.toString());
    assertThat(graph.recoveries()).extracting(RecoveryRecord::kind).containsExactly("RolledBack");
    assertThat(export("main")).isEqualTo(before);
    assertThat(sidecars()).isEmpty();
  }

  /**
   * Recovery accepts only a contiguous prefix of the merge's pre-minted chain (docs/branches.md,
   * "Merge recovery"): a foreign commit on top of the first chunk (here a Restore to an older version,
   * which is not the compensation a dead sweep would have left) is neither adopted nor undone; the
   * open refuses and the sidecar stays.
   */
  @Test
  void aForeignCommitAfterTheChainsFirstChunkIsRefusedAndTheSidecarKept() throws Exception {
    add("main", "ada", 30);
    graph.createBranch("f", null);
    add("f", "bob", 40);
    add("f", "cy", 41);
    add("main", "zed", 9);
    BranchMerge.chunkRows = 1;
    try (var armed = Failpoints.arm(Failpoints.MERGE_AFTER_CHUNK_COMMIT, FailAction.error())) {
      assertThatThrownBy(() -> merge("f", "main")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.close();
    graph = null;
    assertThat(sidecars()).hasSize(1);
    Path sidecar = sidecars().get(0);
    var pin = JSON.readTree(Files.readString(sidecar)).path("tables").get(0);
    long expected = pin.path("expected_version").asLong();
    assertThat(expected).isGreaterThan(1);
    try (io.omnigraph.engine.table.TableStore tables = new io.omnigraph.engine.table.TableStore();
        var head = tables.reader().openLatest(
            new io.omnigraph.api.storage.LanceLocation(pin.path("table_path").asText(), Map.of()))) {
      assertThat(head.version()).as("the first chunk landed").isEqualTo(expected + 1);
      tables.writer().restore(head, pin.path("table_key").asText(), expected - 1);
    }
    assertThatThrownBy(() -> Omnigraph.open(root.toString())).isInstanceOf(RecoveryRequiredException.class)
        .hasMessageContaining("non-contiguous or foreign chain");
    assertThat(sidecars()).containsExactly(sidecar);
  }

  static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  @Test
  void argumentsAreCheckedBeforeAnything() {
    graph.createBranch("f", null);
    assertThatThrownBy(() -> merge("f", "f")).isInstanceOfSatisfying(InvalidInputException.class, e ->
        assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).rule()).isEqualTo("merge_same_branch"));
    assertThatThrownBy(() -> merge("nope", "main")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> merge("f", "nope")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void deleteSourceBranchDeletesItAfterTheMerge() {
    graph.createBranch("f", null);
    add("f", "bob", 40);
    MergeResult r = graph.merge("f", "main", MergeOptions.defaults().withDeleteSourceBranch(true));
    assertThat(r.sourceDeleted()).isTrue();
    assertThat(graph.branches()).extracting(b -> b.name()).containsExactly("main");
    assertThat(export("main")).contains("\"bob\"");
  }

  static final String KEYED_EDGES = """
      node Author {
        name: String @key
      }
      node Book {
        isbn: String @key
      }
      edge Wrote: Author -> Book {
        role: String?
        @key(src, dst)
      }
      """;

  @Test
  void theSameKeyedEdgeInsertedOnBothSidesConvergesToOneRow() {
    graph.close();
    root = dir.resolve("keyed");
    graph = Omnigraph.init(root.toString(), KEYED_EDGES);
    load("main", LoadMode.MERGE, "{\"type\":\"Author\",\"data\":{\"name\":\"okafor\"}}\n"
        + "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-1\"}}\n{\"type\":\"Book\",\"data\":{\"isbn\":\"978-2\"}}\n");
    graph.createBranch("f", null);
    String wrote = "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"role\":\"author\"}}\n";
    load("f", LoadMode.MERGE, wrote);
    load("main", LoadMode.MERGE, wrote);
    MergeResult r = merge("f", "main");
    assertThat(r.outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(export("main").lines().filter(l -> l.contains("\"Wrote\""))).hasSize(1);
    // the same relationship with different values on the two sides is recognised as one row in conflict
    load("f", LoadMode.MERGE, "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-2\",\"data\":{\"role\":\"a\"}}\n");
    load("main", LoadMode.MERGE, "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-2\",\"data\":{\"role\":\"b\"}}\n");
    List<ErrorDetail.MergeConflict> cs = conflictsOf(() -> merge("f", "main"));
    assertThat(cs).extracting(ErrorDetail.MergeConflict::kind).containsExactly("divergent_insert");
    assertThat(cs.get(0).entityKind()).isEqualTo("edge");
    assertThat(cs.get(0).typeName()).isEqualTo("Wrote");
  }
}
