package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.MUTATIONS;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.QueryParams;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A merge is a fast-forward or a merge commit with two parents; keyed edges converge; a conflict
 * names its rows and writes nothing.
 *
 * <p>The tests of the graph contract group {@code Merge}, bound by {@link GraphContract.Merge}.
 */
abstract class MergeGuarantees extends GraphContractGroup {

  MergeGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void aBranchMergesBackAsAFastForwardThenAsAMergeCommit() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    g.createBranch("dev", null);
    g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"devi\",\"name\":\"On Dev\"}}\n"),
        opts().withBranch("dev"));
    io.omnigraph.api.MergeResult ff = g.merge("dev", "main", io.omnigraph.api.MergeOptions.defaults().withActor(actor()));
    assertThat(ff.outcome()).isEqualTo(io.omnigraph.api.MergeOutcome.FAST_FORWARD);
    assertThat(ff.source()).isEqualTo("dev");
    assertThat(ff.target()).isEqualTo("main");
    assertThat(ff.sourceCommitId()).isEqualTo(g.commits("dev").get(0).id());
    assertThat(ff.commitId()).isEqualTo(g.commits().get(0).id());
    assertThat(export(g)).contains("On Dev");
    // both sides change different rows: one merge commit with two parents
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "devi", "name", "Dev Again")), mopts().withBranch("dev"));
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "okafor", "name", "Main Side")), mopts());
    String mainBefore = g.commits().get(0).id();
    String devHead = g.commits("dev").get(0).id();
    io.omnigraph.api.MergeResult merged = g.merge("dev", null, io.omnigraph.api.MergeOptions.defaults().withActor(actor())
        .withDeleteSourceBranch(true));
    assertThat(merged.outcome()).isEqualTo(io.omnigraph.api.MergeOutcome.MERGED);
    assertThat(merged.target()).isEqualTo("main");
    assertThat(merged.sourceDeleted()).isTrue();
    CommitInfo head = g.commits().get(0);
    assertThat(head.id()).isEqualTo(merged.commitId());
    assertThat(head.parents()).containsExactlyInAnyOrder(mainBefore, devHead);
    assertThat(head.actor()).isEqualTo(actor());
    assertThat(export(g)).contains("Dev Again").contains("Main Side");
    assertThat(g.branches()).extracting(BranchInfo::name).containsExactly("main");
  }

  /** Issue 17 item 2 / docs/edge-keys.md: a keyed edge inserted on two branches is one row after both merge. */
  @Test
  public void theSameKeyedEdgeInsertedOnTwoBranchesConvergesWhenBothMerge() {
    Graph g = create("""
        node Author {
          handle: String @key
        }
        node Book {
          isbn: String @key
        }
        edge Wrote: Author -> Book {
          @key(src, dst)
        }
        """);
    g.load(LoadMode.APPEND, in("""
        {"type":"Author","data":{"handle":"okafor"}}
        {"type":"Book","data":{"isbn":"111"}}
        """), opts());
    g.createBranch("a", null);
    g.createBranch("b", null);
    String edge = "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"111\"}\n";
    g.load(LoadMode.MERGE, in(edge), opts().withBranch("a"));
    g.load(LoadMode.MERGE, in(edge), opts().withBranch("b"));
    g.merge("a", null, io.omnigraph.api.MergeOptions.defaults().withActor(actor()));
    io.omnigraph.api.MergeResult second = g.merge("b", null, io.omnigraph.api.MergeOptions.defaults().withActor(actor()));
    assertThat(second.outcome()).isNotNull();
    List<String> wrote = export(g).lines().filter(l -> l.startsWith("{\"edge\":\"Wrote\"")).toList();
    assertThat(wrote).as("one Wrote row for one key").hasSize(1);
    // and loading the same line again on main still converges
    g.load(LoadMode.MERGE, in(edge), opts());
    assertThat(export(g).lines().filter(l -> l.startsWith("{\"edge\":\"Wrote\""))).hasSize(1);
  }

  @Test
  public void aConflictingMergeIsAConflictNamingTheRowsAndWritesNothing() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    g.createBranch("dev", null);
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "Dev Berg")), mopts().withBranch("dev"));
    g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "Main Berg")), mopts());
    String mainHead = g.commits().get(0).id();
    ConflictException e = catchThrowableOfType(ConflictException.class,
        () -> g.merge("dev", "main", io.omnigraph.api.MergeOptions.defaults().withActor(actor())));
    assertKind(e, 409, "conflict");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.MergeConflicts.class, m ->
        assertThat(m.conflicts()).singleElement().satisfies(c -> {
          assertThat(c.kind()).isEqualTo("divergent_update");
          assertThat(c.entityKind()).isEqualTo("node");
          assertThat(c.typeName()).isEqualTo("Author");
          assertThat(c.entityId()).isEqualTo("berg");
        }));
    assertThat(g.commits().get(0).id()).isEqualTo(mainHead);
    assertThat(export(g)).contains("Main Berg").doesNotContain("Dev Berg");
    assertThat(g.branches()).extracting(BranchInfo::name).containsExactly("main", "dev");
    assertKind(catchThrowableOfType(NotFoundException.class,
        () -> g.merge("nope", "main", io.omnigraph.api.MergeOptions.defaults())), 404, "not_found");
  }
}
