package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.MUTATIONS;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A branch forks at a commit, has its own commits, loads, mutations, export and snapshot, leaves
 * main alone, and its mistakes are typed errors.
 *
 * <p>The tests of the graph contract group {@code Branch}, bound by {@link GraphContract.Branch}.
 */
abstract class BranchGuarantees extends GraphContractGroup {

  BranchGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void aBranchForksAtTheHeadAndHasItsOwnCommitsAndExport() {
    Graph g = create(SCHEMA);
    String first = g.load(LoadMode.APPEND, in(DATA), opts()).commitId();
    BranchInfo b = g.createBranch("feature/x", null);
    assertThat(b.name()).isEqualTo("feature/x");
    assertThat(b.head()).isEqualTo(first);
    assertThat(b.parent()).isEqualTo("main");
    assertThat(g.branches()).extracting(BranchInfo::name).containsExactly("main", "feature/x");
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "B")), mopts());
    assertThat(g.commits("feature/x")).extracting(CommitInfo::id).first().isEqualTo(first);
    assertThat(g.commits("main")).hasSize(3);
    ByteArrayOutputStream branch = new ByteArrayOutputStream();
    g.export(branch, "feature/x");
    ByteArrayOutputStream then = new ByteArrayOutputStream();
    g.exportCommit(then, first);
    assertThat(branch.toString(StandardCharsets.UTF_8)).isEqualTo(then.toString(StandardCharsets.UTF_8))
        .contains("A. Berg").isNotEqualTo(export(g));
    BranchInfo fromCommit = g.createBranch("old", first);
    assertThat(fromCommit.head()).isEqualTo(first);
    g.deleteBranch("feature/x");
    g.deleteBranch("old");
    assertThat(g.branches()).extracting(BranchInfo::name).containsExactly("main");
  }

  @Test
  public void branchesAreCreatedListedReadAndDeleted() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String head = g.commits().get(0).id();
    io.omnigraph.api.BranchInfo dev = g.createBranch("team/dev", null);
    assertThat(dev).isEqualTo(new io.omnigraph.api.BranchInfo("team/dev", head, "main"));
    assertThat(g.branches()).extracting(io.omnigraph.api.BranchInfo::name).containsExactly("main", "team/dev");
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "B")), mopts());
    assertThat(g.commits("team/dev")).extracting(CommitInfo::id).first().isEqualTo(head);
    ByteArrayOutputStream onDev = new ByteArrayOutputStream();
    g.export(onDev, "team/dev");
    ByteArrayOutputStream atHead = new ByteArrayOutputStream();
    g.exportCommit(atHead, head);
    assertThat(onDev.toString(StandardCharsets.UTF_8)).isEqualTo(atHead.toString(StandardCharsets.UTF_8))
        .contains("A. Berg");
    g.deleteBranch("team/dev");
    assertThat(g.branches()).extracting(io.omnigraph.api.BranchInfo::name).containsExactly("main");
  }

  @Test
  public void branchMistakesAreTypedErrors() {
    Graph g = create(SCHEMA);
    g.createBranch("dev", null);
    assertKind(catchThrowableOfType(ConflictException.class, () -> g.createBranch("dev", null)), 409, "conflict");
    assertKind(catchThrowableOfType(InvalidInputException.class, () -> g.createBranch("bad name!", null)), 400, "bad_request");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.createBranch("x", "no-such-ref")), 404, "not_found");
    assertKind(catchThrowableOfType(InvalidInputException.class, () -> g.deleteBranch("main")), 400, "bad_request");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.deleteBranch("nope")), 404, "not_found");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.commits("nope")), 404, "not_found");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.export(new ByteArrayOutputStream(), "nope")), 404,
        "not_found");
    assertKind(catchThrowableOfType(NotFoundException.class,
        () -> g.exportCommit(new ByteArrayOutputStream(), "01ZZZZZZZZZZZZZZZZZZZZZZZZ")), 404, "not_found");
    assertThat(g.branches()).extracting(BranchInfo::name).containsExactly("main", "dev");
  }

  @Test
  public void branchFailuresAreTyped() {
    Graph g = create(SCHEMA);
    assertKind(catchThrowableOfType(InvalidInputException.class, () -> g.createBranch("a b", null)), 400,
        "bad_request");
    g.createBranch("a/b", null);
    assertKind(catchThrowableOfType(ConflictException.class, () -> g.createBranch("a", null)), 409, "conflict");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.deleteBranch("nope")), 404, "not_found");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.commits("nope")), 404, "not_found");
    assertKind(catchThrowableOfType(InvalidInputException.class, () -> g.deleteBranch("main")), 400, "bad_request");
  }

  @Test
  public void aMutationOnABranchCommitsThereAndLeavesMainAlone() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String mainHead = g.commits().get(0).id();
    g.createBranch("dev", null);
    MutationResult r = g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "Dev Berg")),
        mopts().withBranch("dev"));
    assertThat(g.commits("dev").get(0).id()).isEqualTo(r.commitId());
    assertThat(g.commits().get(0).id()).isEqualTo(mainHead);
    ByteArrayOutputStream dev = new ByteArrayOutputStream();
    g.export(dev, "dev");
    assertThat(dev.toString(StandardCharsets.UTF_8)).contains("Dev Berg");
    assertThat(export(g)).doesNotContain("Dev Berg");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.mutate(MUTATIONS, "rename",
        QueryParams.of(Map.of("handle", "berg", "name", "x")), mopts().withBranch("nope"))), 404, "not_found");
  }

  @Test
  public void aLoadIntoABranchCommitsThereAndLeavesMainAlone() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String mainHead = g.commits().get(0).id();
    g.createBranch("dev", null);
    LoadResult r = g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"devi\",\"name\":\"On Dev\"}}\n"),
        opts().withBranch("dev").withMessage("into dev"));
    CommitInfo devHead = g.commits("dev").get(0);
    assertThat(devHead.id()).isEqualTo(r.commitId());
    assertThat(devHead.actor()).isEqualTo(actor());
    assertThat(devHead.message()).isEqualTo("into dev");
    assertThat(devHead.parents()).containsExactly(mainHead);
    assertThat(g.commits().get(0).id()).isEqualTo(mainHead);
    ByteArrayOutputStream dev = new ByteArrayOutputStream();
    g.export(dev, "dev");
    assertThat(dev.toString(StandardCharsets.UTF_8)).contains("On Dev");
    assertThat(export(g)).doesNotContain("On Dev");
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.load(LoadMode.MERGE, in(DATA),
        opts().withBranch("nope"))), 404, "not_found");
    assertThat(g.branches()).extracting(BranchInfo::name).containsExactly("main", "dev");
  }

  @Test
  public void theSnapshotDescribesEveryTableOfABranchHead() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    CommitInfo head = g.commits().get(0);
    io.omnigraph.api.SnapshotInfo main = g.snapshot(null);
    assertThat(main.branch()).isEqualTo("main");
    assertThat(main.commitId()).isEqualTo(head.id());
    assertThat(main.manifestVersion()).isEqualTo(head.manifestVersion());
    assertThat(main.internalSchemaVersion()).isPositive();
    assertThat(main.datasets()).extracting(io.omnigraph.api.SnapshotInfo.Dataset::tableKey)
        .containsExactly("edge:Wrote", "node:Author", "node:Book");
    assertThat(main.datasets()).extracting(io.omnigraph.api.SnapshotInfo.Dataset::entityCount).containsExactly(1L, 2L, 1L);
    for (io.omnigraph.api.SnapshotInfo.Dataset d : main.datasets()) {
      assertThat(d.version()).as(d.tableKey()).isEqualTo(head.tableVersions().get(d.tableKey()));
      assertThat(d.path()).as(d.tableKey()).isNotBlank();
      assertThat(d.nativeBranch()).as(d.tableKey()).isNull();
    }
    assertThat(main.datasets().get(1).entityKind()).isEqualTo("node");
    assertThat(main.datasets().get(1).typeName()).isEqualTo("Author");
    g.createBranch("dev", null);
    g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"devi\"}}\n"), opts().withBranch("dev"));
    io.omnigraph.api.SnapshotInfo dev = g.snapshot("dev");
    assertThat(dev.branch()).isEqualTo("dev");
    assertThat(dev.commitId()).isEqualTo(g.commits("dev").get(0).id());
    assertThat(dev.datasets()).extracting(io.omnigraph.api.SnapshotInfo.Dataset::entityCount).containsExactly(1L, 3L, 1L);
    assertThat(dev.datasets().get(1).nativeBranch()).isNotNull();
    assertThat(g.snapshot("main").datasets()).extracting(io.omnigraph.api.SnapshotInfo.Dataset::entityCount)
        .containsExactly(1L, 2L, 1L);
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.snapshot("nope")), 404, "not_found");
  }
}
