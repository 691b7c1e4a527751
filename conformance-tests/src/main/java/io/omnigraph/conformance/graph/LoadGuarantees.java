package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.ResourceLimitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A load is one commit by its actor, exports what it loaded, and refuses bad input, a stale head
 * and too many rows without writing anything.
 *
 * <p>The tests of the graph contract group {@code Load}, bound by {@link GraphContract.Load}.
 */
abstract class LoadGuarantees extends GraphContractGroup {

  LoadGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void loadPublishesOneCommitByTheActorAndExportsWhatWasLoaded() {
    Graph g = create(SCHEMA);
    String genesis = g.commits().get(0).id();
    LoadResult r = g.load(LoadMode.APPEND, in(DATA), opts().withMessage("first"));
    assertThat(r.mode()).isEqualTo(LoadMode.APPEND);
    assertThat(r.rowsRead()).isEqualTo(4);
    assertThat(r.rowsByTable()).containsEntry("node:Author", 2L).containsEntry("node:Book", 1L).containsEntry("edge:Wrote", 1L);
    List<CommitInfo> commits = g.commits();
    assertThat(commits).hasSize(2);
    CommitInfo head = commits.get(0);
    assertThat(head.id()).isEqualTo(r.commitId());
    assertThat(head.parents()).containsExactly(genesis);
    assertThat(head.actor()).isEqualTo(actor());
    assertThat(head.message()).isEqualTo("first");
    String exported = export(g);
    assertThat(exported.lines()).hasSize(4);
    assertThat(exported).contains("\"handle\":\"okafor\"").contains("\"edge\":\"Wrote\"");
    // Export output loads back identically into a fresh graph.
    Graph copy = create(SCHEMA);
    copy.load(LoadMode.APPEND, in(exported), opts());
    assertThat(export(copy)).isEqualTo(exported);
  }

  @Test
  public void loadFromAFileIsTheSameAsFromAStream() throws Exception {
    Graph g = create(SCHEMA);
    Path file = tmp().resolve("data.ndjson");
    Files.writeString(file, DATA);
    LoadResult r = g.load(LoadMode.MERGE, file, opts());
    assertThat(r.rowsByTable()).containsEntry("node:Author", 2L);
    assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
  }

  @Test
  public void appendOfAnExistingKeyIsAKeyConflictAndWritesNothing() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String head = g.commits().get(0).id();
    ConflictException e = catchThrowableOfType(ConflictException.class, () -> g.load(LoadMode.APPEND,
        in("{\"type\":\"Author\",\"data\":{\"handle\":\"berg\",\"name\":\"again\"}}\n"), opts()));
    assertKind(e, 409, "conflict");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.KeyConflict.class, k -> {
      assertThat(k.typeName()).isEqualTo("Author");
      assertThat(k.entityIds()).containsExactly("berg");
    });
    assertThat(g.commits().get(0).id()).isEqualTo(head);
  }

  @Test
  public void mergeUpsertsById() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"berg\",\"name\":\"Anna Berg\"}}\n"), opts());
    assertThat(export(g)).contains("Anna Berg").doesNotContain("A. Berg");
  }

  @Test
  public void anInvalidLineIsABadRequestNamingTheLineAndNothingIsWritten() {
    Graph g = create(SCHEMA);
    InvalidInputException e = catchThrowableOfType(InvalidInputException.class, () -> g.load(LoadMode.APPEND,
        in("{\"type\":\"Author\",\"data\":{\"handle\":\"x\"}}\n{\"type\":\"Nope\",\"data\":{}}\n"), opts()));
    assertKind(e, 400, "bad_request");
    assertThat(e.getMessage()).startsWith("line 2: ");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class, v -> {
      assertThat(v.line()).isEqualTo(2L);
      assertThat(v.rule()).isEqualTo("unknown_node_type");
    });
    assertThat(g.commits()).hasSize(1);
  }

  @Test
  public void aLoadExpectingAnotherHeadIsAPreconditionFailure() {
    Graph g = create(SCHEMA);
    String genesis = g.commits().get(0).id();
    g.load(LoadMode.APPEND, in(DATA), opts());
    String head = g.commits().get(0).id();
    PreconditionFailedException e = catchThrowableOfType(PreconditionFailedException.class, () -> g.load(LoadMode.MERGE,
        in("{\"type\":\"Author\",\"data\":{\"handle\":\"z\"}}\n"), opts().withExpectedHead(genesis)));
    assertKind(e, 412, "precondition_failed");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.PreconditionFailure.class, p -> {
      assertThat(p.expected()).isEqualTo(genesis);
      assertThat(p.actual()).isEqualTo(head);
    });
    assertThat(g.commits().get(0).id()).isEqualTo(head);
    LoadResult ok = g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"z\"}}\n"), opts().withExpectedHead(head));
    assertThat(g.commits().get(0).id()).isEqualTo(ok.commitId());
  }

  @Test
  public void anAppendOverTheRowLimitIsAResourceLimitAndWritesNothing() {
    Graph g = create(SCHEMA);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 8193; i++) {
      b.append("{\"type\":\"Author\",\"data\":{\"handle\":\"a").append(i).append("\"}}\n");
    }
    ResourceLimitException e = catchThrowableOfType(ResourceLimitException.class,
        () -> g.load(LoadMode.APPEND, in(b.toString()), opts()));
    assertKind(e, 413, "bad_request");
    assertThat(e.detail()).get().isInstanceOfSatisfying(ErrorDetail.ResourceLimit.class, l -> {
      assertThat(l.limit()).isEqualTo(8192);
      assertThat(l.actual()).isGreaterThan(8192);
    });
    assertThat(g.commits()).hasSize(1);
  }
}
