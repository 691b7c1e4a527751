package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.MUTATIONS;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Commits are newest first, each can be looked up and names its branch; an export of chosen types
 * holds only those; a new graph has no recoveries; a closed handle refuses calls.
 *
 * <p>The tests of the graph contract group {@code HistoryAndHandle}, bound by {@link GraphContract.HistoryAndHandle}.
 */
abstract class HistoryAndHandleGuarantees extends GraphContractGroup {

  HistoryAndHandleGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void commitsAreNewestFirstAndEachCanBeLookedUp() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "B")), mopts());
    List<CommitInfo> commits = g.commits();
    assertThat(commits).hasSize(3);
    assertThat(commits.get(2).parents()).isEmpty();
    assertThat(commits.get(1).parents()).containsExactly(commits.get(2).id());
    assertThat(commits.get(0).parents()).containsExactly(commits.get(1).id());
    assertThat(commits.get(0).manifestVersion()).isGreaterThan(commits.get(1).manifestVersion());
    for (CommitInfo c : commits) {
      assertThat(g.commit(c.id())).contains(c);
    }
    assertThat(g.commit("01ZZZZZZZZZZZZZZZZZZZZZZZZ")).isEmpty();
  }

  @Test
  public void eachCommitNamesTheBranchItWasMadeOn() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String mainHead = g.commits().get(0).id();
    g.createBranch("dev", null);
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "Dev Berg")), mopts().withBranch("dev"));
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "okafor", "name", "Main Side")), mopts());
    List<CommitInfo> dev = g.commits("dev");
    assertThat(dev.get(0).branch()).isEqualTo("dev");
    assertThat(g.commit(dev.get(0).id())).map(CommitInfo::branch).contains("dev");
    // what dev inherited stays on main
    assertThat(dev).filteredOn(c -> c.id().equals(mainHead)).extracting(CommitInfo::branch).containsExactly("main");
    assertThat(g.commits()).extracting(CommitInfo::branch).containsOnly("main");
    io.omnigraph.api.MergeResult merged = g.merge("dev", null, io.omnigraph.api.MergeOptions.defaults().withActor(actor()));
    assertThat(g.commit(merged.commitId())).map(CommitInfo::branch).contains("main");
  }

  @Test
  public void anExportOfChosenTypesHoldsOnlyThoseAndAnUnknownTypeWritesNothing() {
    Graph g = create(SCHEMA);
    String genesis = g.commits().get(0).id();
    g.load(LoadMode.APPEND, in(DATA), opts());
    ByteArrayOutputStream some = new ByteArrayOutputStream();
    g.export(some, io.omnigraph.api.ExportOptions.defaults().withTypes(List.of("Wrote", "Book")));
    assertThat(some.toString(StandardCharsets.UTF_8).lines().toList()).hasSize(2)
        .satisfiesExactly(l -> assertThat(l).startsWith("{\"type\":\"Book\""), l -> assertThat(l).startsWith("{\"edge\":\"Wrote\""));
    ByteArrayOutputStream atGenesis = new ByteArrayOutputStream();
    g.export(atGenesis, io.omnigraph.api.ExportOptions.atCommit(genesis).withTypes(List.of("Author")));
    assertThat(atGenesis.size()).isZero();
    g.createBranch("dev", null);
    g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"devi\"}}\n"), opts().withBranch("dev"));
    ByteArrayOutputStream dev = new ByteArrayOutputStream();
    g.export(dev, io.omnigraph.api.ExportOptions.onBranch("dev").withTypes(List.of("Author")));
    assertThat(dev.toString(StandardCharsets.UTF_8).lines()).hasSize(3).allMatch(l -> l.startsWith("{\"type\":\"Author\""));
    ByteArrayOutputStream none = new ByteArrayOutputStream();
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class,
        () -> g.export(none, io.omnigraph.api.ExportOptions.defaults().withTypes(List.of("Author", "Pear"))));
    assertKind(e, 400, "bad_request");
    assertThat(e.detail()).get().isInstanceOfSatisfying(io.omnigraph.api.ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("unknown_type"));
    assertThat(e.getMessage()).contains("'Pear'");
    assertThat(none.size()).isZero();
  }

  @Test
  public void aNewGraphHasNoRecoveries() {
    assertThat(create(SCHEMA).recoveries()).isEmpty();
  }

  @Test
  public void aClosedHandleRefusesCalls() {
    Graph g = create(SCHEMA);
    g.close();
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class, g::commits);
    assertKind(e, 400, "bad_request");
  }
}
