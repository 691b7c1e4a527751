package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.MUTATIONS;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.WriteWarning;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A mutation is one commit with counts per table (none when nothing matched); bad queries,
 * parameters and rules are typed refusals that write nothing; a failure after the published write
 * is a warning.
 *
 * <p>The tests of the graph contract group {@code Mutation}, bound by {@link GraphContract.Mutation}.
 */
abstract class MutationGuarantees extends GraphContractGroup {

  MutationGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void aMutationIsOneCommitWithCountsPerTable() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    MutationResult r = g.mutate(MUTATIONS, "add_book",
        QueryParams.of(Map.of("isbn", "222", "title", "Salt Roads", "by", "berg")), mopts().withMessage("m1"));
    assertThat(r.queryName()).isEqualTo("add_book");
    assertThat(r.commitId()).isNotNull();
    assertThat(r.affectedNodes()).isEqualTo(1);
    assertThat(r.affectedEdges()).isEqualTo(1);
    assertThat(r.tables()).containsEntry("node:Book", new MutationResult.TableChanges(1, 0, 0))
        .containsEntry("edge:Wrote", new MutationResult.TableChanges(1, 0, 0));
    CommitInfo head = g.commits().get(0);
    assertThat(head.id()).isEqualTo(r.commitId());
    assertThat(head.actor()).isEqualTo(actor());
    assertThat(head.message()).isEqualTo("m1");
    assertThat(export(g)).contains("Salt Roads");
  }

  @Test
  public void aFailureAfterAPublishedWriteIsAWarningWithItsTypedCause() throws Exception {
    // Two graphs whose next write on node:Author is the first past the maintenance threshold (2 fragments).
    OpenOptions lowThreshold = OpenOptions.defaults().withMaintenance(MaintenancePolicy.atFragments(2));
    Graph loaded = create(SCHEMA, lowThreshold);
    Graph mutated = create(SCHEMA, lowThreshold);
    loaded.load(LoadMode.APPEND, in(DATA), opts());
    mutated.load(LoadMode.APPEND, in(DATA), opts());
    LoadResult load;
    MutationResult mutation;
    try (AutoCloseable failing = failAutomaticMaintenance()) {
      load = loaded.load(LoadMode.APPEND, in("{\"type\":\"Author\",\"data\":{\"handle\":\"lind\"}}\n"), opts());
      mutation = mutated.mutate(MUTATIONS, "add_author", QueryParams.of(Map.of("handle", "hale", "name", "E. Hale")), mopts());
    }
    for (List<WriteWarning> warnings : List.of(load.warnings(), mutation.warnings())) {
      assertThat(warnings).as(warnings == load.warnings() ? "load" : "mutation").singleElement().satisfies(w -> {
        assertThat(w.code()).isEqualTo(WriteWarning.MAINTENANCE_FAILED);
        assertThat(w.message()).isNotBlank();
        assertThat(w.cause()).isInstanceOf(RecoveryRequiredException.class);
        assertKind(w.cause(), 503, "recovery_required");
        assertThat(w.cause().detail()).containsInstanceOf(ErrorDetail.RecoveryRequired.class);
      });
    }
    // The writes themselves are published.
    assertThat(loaded.commits()).extracting(CommitInfo::id).contains(load.commitId());
    assertThat(mutated.commits()).extracting(CommitInfo::id).contains(mutation.commitId());
    assertThat(export(loaded)).contains("lind");
    assertThat(export(mutated)).contains("E. Hale");
    // With the failure gone, the next write (its maintenance runs and succeeds) has no warning.
    assertThat(loaded.load(LoadMode.APPEND, in("{\"type\":\"Book\",\"data\":{\"isbn\":\"9\",\"title\":\"T\"}}\n"),
        opts()).warnings()).isEmpty();
  }

  @Test
  public void theThreeParameterSpellingsMeanTheSame() {
    Graph g = create(SCHEMA);
    g.mutate(MUTATIONS, "add_author", QueryParams.json("{\"handle\":\"a1\",\"name\":\"One\"}"), mopts());
    g.mutate(MUTATIONS, "add_author", QueryParams.of(Map.of("handle", "a2", "name", "Two")), mopts());
    g.mutate(MUTATIONS, "add_author", QueryParams.pairs(List.of("handle=a3", "name=Three")), mopts());
    assertThat(export(g)).contains("\"One\"").contains("\"Two\"").contains("\"Three\"");
    assertThat(g.commits()).hasSize(4);
  }

  @Test
  public void aMutationThatMatchesNothingPublishesNoCommit() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String head = g.commits().get(0).id();
    MutationResult r = g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "nobody", "name", "x")), mopts());
    assertThat(r.commitId()).isNull();
    assertThat(r.affectedNodes()).isZero();
    assertThat(g.commits().get(0).id()).isEqualTo(head);
  }

  @Test
  public void aNodeDeleteCascadesToItsEdges() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    MutationResult r = g.mutate(MUTATIONS, "drop_author", QueryParams.of(Map.of("handle", "okafor")), mopts());
    assertThat(r.affectedNodes()).isEqualTo(1);
    assertThat(r.affectedEdges()).isEqualTo(1);
    assertThat(export(g)).doesNotContain("okafor").doesNotContain("Wrote");
  }

  @Test
  public void aMutationExpectingAnotherHeadIsAPreconditionFailureAndWritesNothing() {
    Graph g = create(SCHEMA);
    String genesis = g.commits().get(0).id();
    g.load(LoadMode.APPEND, in(DATA), opts());
    String head = g.commits().get(0).id();
    PreconditionFailedException e = catchThrowableOfType(PreconditionFailedException.class, () -> g.mutate(MUTATIONS,
        "rename", QueryParams.of(Map.of("handle", "berg", "name", "B")), mopts().withExpectedHead(genesis)));
    assertKind(e, 412, "precondition_failed");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.PreconditionFailure.class,
        p -> assertThat(p.expected()).isEqualTo(genesis));
    assertThat(g.commits().get(0).id()).isEqualTo(head);
    MutationResult ok = g.mutate(MUTATIONS, "rename", QueryParams.of(Map.of("handle", "berg", "name", "B")),
        mopts().withExpectedHead(head));
    assertThat(ok.commitId()).isEqualTo(g.commits().get(0).id());
  }

  @Test
  public void aQuerySyntaxErrorIsABadRequestWithItsPosition() {
    Graph g = create(SCHEMA);
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class,
        () -> g.mutate("query broken( {", "broken", QueryParams.none(), mopts()));
    assertKind(e, 400, "bad_request");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class, v -> {
      assertThat(v.rule()).isEqualTo("syntax");
      assertThat(v.line()).isEqualTo(1L);
      assertThat(v.column()).isNotNull();
    });
  }

  @Test
  public void aMissingParameterIsABadRequest() {
    Graph g = create(SCHEMA);
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class,
        () -> g.mutate(MUTATIONS, "add_author", QueryParams.of(Map.of("handle", "x")), mopts()));
    assertKind(e, 400, "bad_request");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("param_value"));
    assertThat(g.commits()).hasSize(1);
  }

  @Test
  public void aViolatedSchemaRuleIsABadRequestAndWritesNothing() {
    Graph g = create(SCHEMA);
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class, () -> g.mutate(MUTATIONS, "add_book",
        QueryParams.of(Map.of("isbn", "9", "title", "T", "by", "ghost")), mopts()));
    assertKind(e, 400, "bad_request");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("dangling_edge"));
    assertThat(g.commits()).hasSize(1);
  }

  @Test
  public void aPreparedMutationRunsManyTimesAndABadOneIsRefusedWhenPrepared() {
    Graph g = create(SCHEMA);
    PreparedMutation p = g.prepareMutation(MUTATIONS, "add_author");
    assertThat(p.queryName()).isEqualTo("add_author");
    g.mutate(p, QueryParams.of(Map.of("handle", "p1", "name", "P1")), mopts());
    g.mutate(p, QueryParams.of(Map.of("handle", "p2", "name", "P2")), mopts());
    assertThat(g.commits()).hasSize(3);
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class, () -> g.prepareMutation(MUTATIONS, "nope"));
    assertKind(e, 400, "bad_request");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("query_name"));
  }
}
