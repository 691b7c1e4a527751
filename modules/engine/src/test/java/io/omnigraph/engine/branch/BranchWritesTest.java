package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loads and mutations on a branch, on real Lance on local disk (docs/branches.md, "Writes on a branch"). */
class BranchWritesTest {
  @TempDir Path dir;
  Graph graph;
  Path root;

  @BeforeEach
  void init() {
    root = dir.resolve("g");
    graph = Omnigraph.init(root.toString(), SCHEMA);
  }

  @AfterEach
  void close() {
    if (graph != null) {
      graph.close();
    }
  }

  void add(String branch, String name) {
    graph.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name, "age", 30)),
        MutationOptions.defaults().withBranch(branch));
  }

  String export(String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  Path personTable() throws Exception {
    try (var s = Files.list(root.resolve("nodes"))) {
      return s.filter(p -> {
        try (var d = Files.list(p.resolve("_versions"))) {
          return true;
        } catch (Exception e) {
          return false;
        }
      }).findFirst().orElseThrow();
    }
  }

  @Test
  void aMutationOnABranchChangesOnlyThatBranchAndForksOnlyTheTableItWrites() throws Exception {
    add("main", "ada");
    String fork = graph.commits().get(0).id();
    graph.createBranch("dev", null);
    add("dev", "bob");
    assertThat(export("dev")).contains("ada", "bob");
    assertThat(export("main")).contains("ada").doesNotContain("bob");
    List<CommitInfo> dev = graph.commits("dev");
    assertThat(dev.get(0).parents()).containsExactly(fork);
    assertThat(graph.commits().get(0).id()).isEqualTo(fork);
    assertThat(graph.branches().get(1).head()).isEqualTo(dev.get(0).id());
    // Only the written table has a ref named after the branch.
    long forked = 0;
    for (String kind : List.of("nodes", "edges")) {
      try (var s = Files.list(root.resolve(kind))) {
        forked += s.filter(p -> Files.exists(p.resolve("tree/dev"))).count();
      }
    }
    assertThat(forked).isEqualTo(1);
    // A second write on the branch writes its own ref, and main still moves on its own.
    add("dev", "cyd");
    add("main", "dan");
    assertThat(export("dev")).contains("ada", "bob", "cyd").doesNotContain("dan");
    assertThat(export("main")).contains("ada", "dan").doesNotContain("bob", "cyd");
    assertThat(graph.commit(dev.get(0).id())).isPresent();
  }

  @Test
  void aLoadOnABranchAndABranchOfThatBranch() {
    graph.createBranch("dev", null);
    GraphIo.load(graph, LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"ada\"}}\n",
        LoadOptions.defaults().withBranch("dev"));
    graph.createBranch("dev2", "dev");
    GraphIo.load(graph, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"eve\"}}\n",
        LoadOptions.defaults().withBranch("dev2"));
    assertThat(export("dev2")).contains("ada", "eve");
    assertThat(export("dev")).contains("ada").doesNotContain("eve");
    assertThat(export("main")).doesNotContain("ada", "eve");
    // An update on the branch of a branch leaves its parent as it was.
    graph.mutate(MutationGraph.QUERIES, "set_age", QueryParams.of(Map.of("name", "ada", "age", 77)),
        MutationOptions.defaults().withBranch("dev2"));
    assertThat(export("dev2")).contains("77");
    assertThat(export("dev")).doesNotContain("77");
  }

  /** Read queries take a branch or a commit (issue 14 item 2; docs/branches.md, "Writes on a branch"). */
  @Test
  void aReadQueryReadsTheBranchHeadOrTheCommitItIsGiven() {
    add("main", "ada");
    String fork = graph.commits().get(0).id();
    graph.createBranch("dev", null);
    add("dev", "bob");
    add("main", "cyd");
    String devHead = graph.commits("dev").get(0).id();
    assertThat(names(QueryOptions.onBranch("dev"))).containsExactly("ada", "bob");
    assertThat(names(QueryOptions.defaults())).containsExactly("ada", "cyd");
    assertThat(names(QueryOptions.onBranch("main"))).containsExactly("ada", "cyd");
    assertThat(names(QueryOptions.atCommit(devHead))).as("a commit made on dev").containsExactly("ada", "bob");
    assertThat(names(QueryOptions.atCommit(fork))).containsExactly("ada");
    assertThatThrownBy(() -> names(QueryOptions.onBranch("nope"))).isInstanceOf(NotFoundException.class);
  }

  List<String> names(QueryOptions at) {
    String q = "query q() { match { $p: Person } return { $p.name } order { $p.name } }";
    try (QueryResult r = graph.query(q, "q", QueryParams.none(), at)) {
      return r.jsonRows().stream().map(row -> row.replaceAll(".*:\"(.*)\"}", "$1")).toList();
    }
  }

  @Test
  void aWriteToAnUnknownBranchIsNotFound() {
    assertThatThrownBy(() -> add("nope", "ada")).isInstanceOf(NotFoundException.class)
        .satisfies(t -> assertThat(((ErrorDetail.Validation) ((OmnigraphException) t).detail().orElseThrow()).rule())
            .isEqualTo("unknown_branch"));
    assertThatThrownBy(() -> add("a b", "ada")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void aBranchDeletedAndRecreatedBetweenPrepareAndPublishIsReadSetChanged() {
    graph.createBranch("dev", null);
    add("dev", "ada");
    io.omnigraph.engine.TestSeams.beforeEffectWindow(graph, () -> {
      graph.deleteBranch("dev");
      graph.createBranch("dev", null);
    });
    assertThatThrownBy(() -> add("dev", "bob")).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(((ErrorDetail.ReadSetConflict) ((OmnigraphException) t).detail().orElseThrow())
            .member()).isEqualTo("branch_identifier:dev"));
    io.omnigraph.engine.TestSeams.beforeEffectWindow(graph, () -> { });
    // Nothing of the refused write is visible on the re-created branch.
    assertThat(export("dev")).doesNotContain("ada", "bob");
  }

  @Test
  void anInterruptedBranchWriteIsRolledBackOnTheBranchByTheNextOpen() {
    graph.createBranch("dev", null);
    add("dev", "ada");
    try (var armed = Failpoints.arm(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, FailAction.error())) {
      assertThatThrownBy(() -> add("dev", "bob")).isInstanceOf(RecoveryRequiredException.class);
    }
    // Confirmed before the failure: the next write's entry barrier rolls it forward on the branch.
    add("dev", "cyd");
    assertThat(export("dev")).contains("ada", "bob", "cyd");
    assertThat(export("main")).doesNotContain("ada", "bob", "cyd");
    try (var armed = Failpoints.arm(Failpoints.TABLE_COMMIT_AFTER, FailAction.error())) {
      assertThatThrownBy(() -> add("dev", "dan")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.close();
    graph = Omnigraph.open(root.toString());
    assertThat(export("dev")).contains("ada", "bob", "cyd").doesNotContain("dan");
    assertThat(graph.recoveries()).extracting(RecoveryRecord::kind).containsExactly("RolledForward", "RolledBack");
    add("dev", "eve");
    assertThat(export("dev")).contains("eve");
  }

  @Test
  void deletingABranchWithAPendingWriteOrphansItAndTheNextOpenAuditsTheDiscard() {
    graph.createBranch("dev", null);
    try (var armed = Failpoints.arm(Failpoints.TABLE_COMMIT_AFTER, FailAction.error())) {
      assertThatThrownBy(() -> add("dev", "ada")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.deleteBranch("dev");
    graph.close();
    graph = Omnigraph.open(root.toString());
    assertThat(graph.recoveries()).extracting(RecoveryRecord::kind).containsExactly("OrphanDiscarded");
    try (var files = Files.list(root.resolve("__recovery"))) {
      assertThat(files.filter(f -> f.getFileName().toString().endsWith(".json")).toList()).isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    add("main", "bob");
    assertThat(export("main")).contains("bob").doesNotContain("ada");
  }

  @Test
  void aForkOntoATreeAnotherRefOverlapsIsATypedConflictAndTouchesNothing() {
    graph.createBranch("dev", null);
    // A ref of the Person table that no graph branch made, inside the path the fork of dev would reclaim.
    String path = io.omnigraph.engine.TestSeams.tablePath(graph, "node:Person");
    io.omnigraph.api.storage.LanceLocation table = new io.omnigraph.api.storage.LanceLocation(
        root.resolve(path).toUri().toString(), Map.of());
    try (io.omnigraph.engine.table.TableStore tables = new io.omnigraph.engine.table.TableStore()) {
      tables.writer().createBranch(table, "dev/x", null, tables.reader().latestVersionOf(table));
    }
    assertThatThrownBy(() -> add("dev", "ada")).isInstanceOfSatisfying(ConflictException.class, e ->
        assertThat(e.detail()).contains(new ErrorDetail.Validation(null, null, "branch",
            io.omnigraph.engine.table.TableFork.UNOWNED_FORK_RULE)));
    assertThat(root.resolve(path).resolve("tree/dev/x")).exists();
    try (io.omnigraph.engine.table.TableStore tables = new io.omnigraph.engine.table.TableStore()) {
      assertThat(tables.reader().branches(table)).extracting(io.omnigraph.engine.table.NativeBranch::name)
          .containsExactly("dev/x");
    }
    assertThat(graph.commits("dev")).hasSize(graph.commits().size());
    add("main", "bob");
    assertThat(export("main")).contains("bob");
  }

  @Test
  void aForkLeftWithAnOrphanDiscardedCommitIsReplacedWhenTheBranchIsCreatedAgain() {
    graph.createBranch("dev", null);
    // The write forks Person on dev and commits there, then fails before publishing; deleting dev
    // orphans it (the fork's ref keeps that commit: dev's manifest never named the ref).
    try (var armed = Failpoints.arm(Failpoints.TABLE_COMMIT_AFTER, FailAction.error())) {
      assertThatThrownBy(() -> add("dev", "ada")).isInstanceOf(RecoveryRequiredException.class);
    }
    graph.deleteBranch("dev");
    graph.close();
    graph = Omnigraph.open(root.toString());
    assertThat(graph.recoveries()).extracting(RecoveryRecord::kind).containsExactly("OrphanDiscarded");
    // Same name, same fork point: the leftover ref has the exact parent but a commit past it.
    graph.createBranch("dev", null);
    add("dev", "bob");
    assertThat(export("dev")).contains("bob").doesNotContain("ada");
    assertThat(export("main")).doesNotContain("ada", "bob");
  }

  /** Whether the Person table has anything of the ref {@code tree/<branch>}: its contents record or its tree. */
  boolean personForked(String branch) throws Exception {
    Path t = personTable();
    return Files.exists(t.resolve("tree/" + branch)) || Files.exists(t.resolve("_refs/branches/" + branch + ".json"));
  }

  List<String> sidecars() throws Exception {
    if (!Files.exists(root.resolve("__recovery"))) {
      return List.of();
    }
    try (var files = Files.list(root.resolve("__recovery"))) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".json")).toList();
    }
  }

  /**
   * Sidecar-before-ref (docs/branches.md, "Lazy table forks"): a first-touch write forks only after
   * its sidecar is armed, so a write refused before arming — here the sidecar put itself fails —
   * leaves no ref behind; and a write that fails after its fork but before any table commit removes
   * the fork before it withdraws the sidecar.
   */
  @Test
  void aFirstTouchForkIsCreatedOnlyUnderTheArmedSidecarAndRemovedWhenTheWriteEndsEffectFree() throws Exception {
    graph.createBranch("dev", null);
    for (String f : List.of(Failpoints.SIDECAR_WRITE, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT,
        Failpoints.TABLE_FORK_POST_NATIVE, Failpoints.TABLE_COMMIT_BEFORE)) {
      try (var armed = Failpoints.arm(f, FailAction.error())) {
        assertThatThrownBy(() -> add("dev", "ada")).as(f).isInstanceOf(OmnigraphException.class)
            .satisfies(t -> assertThat(Failpoints.injectedBy(t)).contains(f));
        assertThat(armed.fired()).as(f).isEqualTo(1);
      }
      assertThat(personForked("dev")).as(f + ": a fork is left").isFalse();
      assertThat(sidecars()).as(f).isEmpty();
      assertThat(graph.commits("dev")).as(f).hasSize(graph.commits().size());
    }
    add("dev", "ada");
    assertThat(export("dev")).contains("ada");
    assertThat(personForked("dev")).isTrue();
  }

  /** A strict insert's key conflict on a first-touch table is found while preparing: no sidecar is armed, nothing forked. */
  @Test
  void aFirstTouchKeyConflictIsReportedBeforeArmingAndForksNothing() throws Exception {
    add("main", "ada");
    graph.createBranch("dev", null);
    // Were the conflict found only after arming, the sidecar put would fail first.
    try (var armed = Failpoints.arm(Failpoints.SIDECAR_WRITE, FailAction.error())) {
      assertThatThrownBy(() -> GraphIo.load(graph, LoadMode.APPEND,
          "{\"type\":\"Person\",\"data\":{\"name\":\"ada\"}}\n", LoadOptions.defaults().withBranch("dev")))
          .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail().orElseThrow()).isInstanceOf(ErrorDetail.KeyConflict.class));
      assertThat(armed.fired()).isZero();
    }
    assertThat(personForked("dev")).isFalse();
  }

  /** Updates and deletes on a first-touch table stage on the fork made after arming and leave the parent as it was. */
  @Test
  void anUpdateAndADeleteOnAFirstTouchTableLandOnTheBranchOnly() throws Exception {
    add("main", "ada");
    add("main", "bob");
    graph.createBranch("dev", null);
    graph.createBranch("dev2", null);
    graph.mutate(MutationGraph.QUERIES, "set_age", QueryParams.of(Map.of("name", "ada", "age", 77)),
        MutationOptions.defaults().withBranch("dev"));
    graph.mutate(MutationGraph.QUERIES, "remove_person", QueryParams.of(Map.of("name", "bob")),
        MutationOptions.defaults().withBranch("dev2"));
    // A delete that matches no committed row stages nothing and forks nothing.
    graph.createBranch("dev3", null);
    graph.mutate(MutationGraph.QUERIES, "remove_person", QueryParams.of(Map.of("name", "nobody")),
        MutationOptions.defaults().withBranch("dev3"));
    assertThat(personForked("dev3")).isFalse();
    assertThat(export("dev")).contains("77", "bob");
    assertThat(export("dev2")).contains("ada").doesNotContain("bob");
    assertThat(export("main")).contains("ada", "bob").doesNotContain("77");
    assertThat(personForked("dev")).isTrue();
    assertThat(personForked("dev2")).isTrue();
    assertThat(sidecars()).isEmpty();
  }

  /**
   * A merge into a branch whose table is still the parent's forks that table only after its
   * BranchMerge sidecar is armed and names the fork; recovery of both shapes — merge failed before
   * the fork, and after it with nothing committed — removes the fork and discards the sidecar.
   */
  @Test
  void aMergeIntoALazyTargetTableForksOnlyUnderItsSidecarAndRecoveryRemovesTheUntouchedFork() throws Exception {
    add("main", "ada");
    graph.createBranch("s", null);
    graph.createBranch("t", null);
    add("s", "bob");
    // t has a commit of its own (so the merge is no fast-forward), and its Person table is still main's.
    graph.mutate(MutationGraph.QUERIES, "add_note", QueryParams.of(Map.of("text", "hi")),
        MutationOptions.defaults().withBranch("t"));
    for (String f : List.of(Failpoints.MERGE_AFTER_ARM, Failpoints.TABLE_FORK_POST_NATIVE)) {
      try (var armed = Failpoints.arm(f, FailAction.error())) {
        assertThatThrownBy(() -> graph.merge("s", "t", io.omnigraph.api.MergeOptions.defaults())).as(f)
            .isInstanceOf(RecoveryRequiredException.class);
      }
      assertThat(sidecars()).as(f).hasSize(1);
      assertThat(Files.readString(root.resolve("__recovery").resolve(sidecars().get(0)))).as(f)
          .contains("\"source_fork_version\"");
      assertThat(personForked("t")).as(f).isEqualTo(f.equals(Failpoints.TABLE_FORK_POST_NATIVE));
      graph.close();
      graph = Omnigraph.open(root.toString());
      assertThat(sidecars()).as(f).isEmpty();
      assertThat(personForked("t")).as(f + ": the fork is left").isFalse();
      assertThat(export("t")).as(f).contains("ada").doesNotContain("bob");
    }
    graph.merge("s", "t", io.omnigraph.api.MergeOptions.defaults());
    assertThat(export("t")).contains("ada", "bob");
    assertThat(personForked("t")).isTrue();
  }
}
