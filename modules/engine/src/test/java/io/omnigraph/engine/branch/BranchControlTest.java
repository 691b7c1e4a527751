package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.QueryParams;
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

/** Branch control on real Lance on local disk (docs/branches.md). */
class BranchControlTest {
  @TempDir Path dir;
  Graph graph;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  static String rule(Throwable t) {
    return ((ErrorDetail.Validation) ((OmnigraphException) t).detail().orElseThrow()).rule();
  }

  String mainHead() {
    return graph.commits().get(0).id();
  }

  void addPerson(String name) {
    graph.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name, "age", 30)),
        MutationOptions.defaults());
  }

  String export(String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void onlyMainExistsAfterInit() {
    assertThat(graph.branches()).containsExactly(new BranchInfo("main", mainHead(), null));
  }

  @Test
  void createForksAtMainsHeadAndListsTheBranch() {
    addPerson("ada");
    String head = mainHead();
    BranchInfo b = graph.createBranch("feature/x", null);
    assertThat(b).isEqualTo(new BranchInfo("feature/x", head, "main"));
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main", "feature/x");
    assertThat(graph.branches().get(1).head()).isEqualTo(head);
    // The branch sees main's data and lineage as of the fork, and not what main does afterwards.
    addPerson("bob");
    assertThat(export("feature/x")).contains("ada").doesNotContain("bob");
    assertThat(export("main")).contains("ada", "bob");
    assertThat(graph.commits("feature/x")).extracting(c -> c.id()).first().isEqualTo(head);
    assertThat(graph.commits("feature/x")).hasSize(graph.commits().size() - 1);
  }

  @Test
  void createFromACommitForksThere() {
    addPerson("ada");
    String first = mainHead();
    addPerson("bob");
    BranchInfo b = graph.createBranch("old", first);
    assertThat(b.head()).isEqualTo(first);
    assertThat(export("old")).contains("ada").doesNotContain("bob");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.exportCommit(out, first);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(export("old"));
  }

  @Test
  void createFromABranchForksAtItsHead() {
    graph.createBranch("a", null);
    BranchInfo b = graph.createBranch("b", "a");
    assertThat(b.parent()).isEqualTo("a");
    assertThat(b.head()).isEqualTo(mainHead());
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main", "a", "b");
  }

  @Test
  void invalidNamesAreRefusedBeforeAnyEffect() {
    for (String bad : List.of("", "/a", "a/", "a//b", ".a", "-a", "a/../b", "a b", "a\\b", "é", "a.lock", "x".repeat(201))) {
      assertThatThrownBy(() -> graph.createBranch(bad, null)).as(bad).isInstanceOf(InvalidInputException.class)
          .satisfies(t -> assertThat(rule(t)).isEqualTo(BranchNames.INVALID_BRANCH_NAME));
    }
    assertThat(graph.branches()).hasSize(1);
    assertThat(dir.resolve("g/__manifest/tree")).doesNotExist();
  }

  @Test
  void aTakenNameOrAPathAncestorOrDescendantIsRefused() {
    graph.createBranch("a/b", null);
    assertThatThrownBy(() -> graph.createBranch("a/b", null)).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo(BranchNames.BRANCH_EXISTS));
    assertThatThrownBy(() -> graph.createBranch("main", null)).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo(BranchNames.BRANCH_EXISTS));
    assertThatThrownBy(() -> graph.createBranch("a", null)).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo(BranchNames.BRANCH_PATH_OVERLAP))
        .hasMessageContaining("ancestor");
    assertThatThrownBy(() -> graph.createBranch("a/b/c", null)).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo(BranchNames.BRANCH_PATH_OVERLAP))
        .hasMessageContaining("descendant");
    assertThatThrownBy(() -> graph.createBranch("main/x", null)).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo(BranchNames.BRANCH_PATH_OVERLAP));
    graph.createBranch("a/c", null); // a sibling is fine
    graph.createBranch("ab", null); // a name prefix that is no path prefix is fine
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main", "a/b", "a/c", "ab");
  }

  @Test
  void anUnknownFromIsNotFound() {
    assertThatThrownBy(() -> graph.createBranch("x", "nope")).isInstanceOf(NotFoundException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo("unknown_branch"));
    assertThatThrownBy(() -> graph.createBranch("x", "01JAAAAAAAAAAAAAAAAAAAAAAA")).isInstanceOf(NotFoundException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo("unknown_commit"));
    assertThat(graph.branches()).hasSize(1);
  }

  @Test
  void deleteRemovesTheBranchAndItsTree() {
    graph.createBranch("tmp", null);
    graph.deleteBranch("tmp");
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main");
    assertThat(dir.resolve("g/__manifest/tree/tmp")).doesNotExist();
    assertThatThrownBy(() -> export("tmp")).isInstanceOf(NotFoundException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo("unknown_branch"));
    // The name is free again, and a re-created branch is a new branch.
    graph.createBranch("tmp", null);
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main", "tmp");
  }

  @Test
  void deleteRefusesMainAnUnknownNameAndABranchWithChildren() {
    assertThatThrownBy(() -> graph.deleteBranch("main")).isInstanceOf(InvalidInputException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo("cannot_delete_main"));
    assertThatThrownBy(() -> graph.deleteBranch("nope")).isInstanceOf(NotFoundException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo("unknown_branch"));
    graph.createBranch("p", null);
    graph.createBranch("c", "p");
    assertThatThrownBy(() -> graph.deleteBranch("p")).isInstanceOf(ConflictException.class)
        .satisfies(t -> assertThat(rule(t)).isEqualTo("branch_has_children"));
    graph.deleteBranch("c");
    graph.deleteBranch("p");
    assertThat(graph.branches()).hasSize(1);
  }

  @Test
  void aCreateInterruptedAfterItsCloneIsReclaimedByTheNextCreate() throws Exception {
    // A tree under the name without Lance's contents record: what a create that died between its
    // clone and its record leaves. Forge it by copying a real branch's tree, then deleting that branch.
    graph.createBranch("donor", null);
    Path donor = dir.resolve("g/__manifest/tree/donor");
    Path orphan = dir.resolve("g/__manifest/tree/x");
    copy(donor, orphan);
    graph.deleteBranch("donor");
    assertThat(graph.branches()).extracting(BranchInfo::name).containsExactly("main");
    assertThat(orphan).exists();
    addPerson("ada");
    BranchInfo b = graph.createBranch("x", null);
    assertThat(b.head()).isEqualTo(mainHead());
    assertThat(export("x")).contains("ada");
  }

  @Test
  void aCommitOnAnotherBranchIsFoundByCommitLookups() {
    addPerson("ada");
    String c = mainHead();
    graph.createBranch("dev", null);
    assertThat(graph.commit(c)).isPresent();
    assertThat(graph.commit("01JAAAAAAAAAAAAAAAAAAAAAAA")).isEmpty();
  }

  static void copy(Path from, Path to) throws Exception {
    try (var s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  @SuppressWarnings("unused")
  private static void load(Graph g, String ndjson) {
    GraphIo.load(g, LoadMode.MERGE, ndjson);
  }
}
