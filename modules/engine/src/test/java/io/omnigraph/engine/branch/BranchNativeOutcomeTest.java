package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.table.NativeBranch;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A native branch create or delete whose call fails after Lance may have done it is classified by
 * fresh metadata (docs/branches.md, "Crash safety of create and delete"): the branch this call made
 * → the create succeeded; the name gone → the delete's effect happened; anything else → foreign,
 * typed conflict, and left exactly as it is. The failpoint before each native call runs the native
 * effect itself (through a second, independent table store) and then fails, as a call whose effect
 * landed but whose answer was lost would.
 */
class BranchNativeOutcomeTest {
  @TempDir Path dir;
  Graph graph;
  TableStore lance;
  LanceLocation manifest;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
    lance = new TableStore();
    manifest = new LanceLocation(dir.resolve("g/__manifest").toUri().toString(), Map.of());
  }

  @AfterEach
  void close() {
    graph.close();
    lance.close();
  }

  private void addPerson(String name) {
    graph.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name, "age", 30)),
        MutationOptions.defaults());
  }

  private String export(String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  private long manifestVersion() {
    try (TableSnapshot s = lance.reader().openLatest(manifest)) {
      return s.version();
    }
  }

  private NativeBranch nativeBranch(String name) {
    return lance.reader().branch(manifest, name).orElseThrow();
  }

  private static StorageFailureException lostAnswer(String what) {
    return new StorageFailureException("injected: the native " + what + " landed, then its call failed",
        new ErrorDetail.Storage(FailAction.Error.STORAGE_KIND, null));
  }

  @Test
  void aCreateThatLandedBeforeItsCallFailedIsThisCreatesBranch() {
    addPerson("ada");
    String head = graph.commits().get(0).id();
    long at = manifestVersion();
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.BRANCH_CREATE_PRE_NATIVE, FailAction.call(() -> {
      lance.writer().createBranch(manifest, "dev", null, at);
      throw lostAnswer("create");
    }), 1)) {
      BranchInfo b = graph.createBranch("dev", null);
      assertThat(b).isEqualTo(new BranchInfo("dev", head, "main"));
    }
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main", "dev");
    assertThat(export("dev")).contains("ada");
  }

  @Test
  void aBranchOfTheNameMadeElsewhereIsForeignRefusedAndLeftUntouched() {
    addPerson("ada");
    long earlier = manifestVersion();
    addPerson("bob");
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.BRANCH_CREATE_PRE_NATIVE, FailAction.call(() -> {
      // Someone else's create of the same name, from another fork point.
      lance.writer().createBranch(manifest, "dev", null, earlier);
      throw lostAnswer("create");
    }), 1)) {
      assertThatThrownBy(() -> graph.createBranch("dev", null)).isInstanceOf(ConflictException.class)
          .satisfies(e -> assertThat(BranchControlTest.rule(e)).isEqualTo(BranchNames.BRANCH_EXISTS));
    }
    NativeBranch foreign = nativeBranch("dev");
    assertThat(foreign.parentVersion()).isEqualTo(earlier);
    assertThat(export("dev")).contains("ada").doesNotContain("bob");
  }

  @Test
  void aDeleteThatLandedBeforeItsCallFailedIsTheDeletesEffect() {
    graph.createBranch("dev", null);
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.BRANCH_DELETE_PRE_NATIVE, FailAction.call(() -> {
      lance.writer().deleteBranch(manifest, "dev");
      throw lostAnswer("delete");
    }), 1)) {
      graph.deleteBranch("dev");
    }
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main");
    assertThat(lance.reader().branch(manifest, "dev")).isEmpty();
  }

  @Test
  void aBranchDeletedAndMadeAgainElsewhereDuringTheDeleteIsAConflictAndKept() {
    graph.createBranch("dev", null);
    NativeBranch mine = nativeBranch("dev");
    addPerson("ada");
    long later = manifestVersion();
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.BRANCH_DELETE_PRE_NATIVE, FailAction.call(() -> {
      lance.writer().deleteBranch(manifest, "dev");
      lance.writer().createBranch(manifest, "dev", null, later);
      throw lostAnswer("delete");
    }), 1)) {
      assertThatThrownBy(() -> graph.deleteBranch("dev")).isInstanceOf(ConflictException.class)
          .satisfies(e -> assertThat(((ConflictException) e).detail().orElseThrow())
              .isInstanceOf(ErrorDetail.ReadSetConflict.class));
    }
    NativeBranch theirs = nativeBranch("dev");
    assertThat(theirs.identifier()).isNotEqualTo(mine.identifier());
    assertThat(export("dev")).contains("ada");
  }
}
