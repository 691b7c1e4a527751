package io.omnigraph.conformance.graph;

import static io.omnigraph.conformance.graph.GraphContract.DATA;
import static io.omnigraph.conformance.graph.GraphContract.MUTATIONS;
import static io.omnigraph.conformance.graph.GraphContract.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryResult;
import io.omnigraph.api.QueryParams;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A query returns typed rows of one snapshot (the head, a commit); unknown refs are 404, mutations
 * and type errors 400; prepared queries and query checks.
 *
 * <p>The tests of the graph contract group {@code Read}, bound by {@link GraphContract.Read}.
 */
abstract class ReadGuarantees extends GraphContractGroup {

  /** The read queries of the group (over {@link GraphContract#SCHEMA}). */
  static final String READS = """
      query authors() {
        match { $a: Author }
        return { $a.handle, $a.name, $a.born }
        order { $a.handle }
      }
      query born_after($y: I32) {
        match { $a: Author  $a.born > $y }
        return { $a.handle }
      }
      """;

  ReadGuarantees(GraphContract contract) {
    super(contract);
  }

  @Test
  public void aQueryReturnsTypedRowsOfTheHeadSnapshot() {
    Graph g = create(SCHEMA);
    LoadResult load = g.load(LoadMode.APPEND, in(DATA), opts());
    try (QueryResult r = g.query(READS, "authors", QueryParams.none(), QueryOptions.defaults())) {
      assertThat(r.queryName()).isEqualTo("authors");
      assertThat(r.commitId()).isEqualTo(load.commitId());
      assertThat(r.columns()).extracting(QueryResult.Column::name).containsExactly("a.handle", "a.name", "a.born");
      assertThat(r.columns().get(2).type()).isEqualTo("I32");
      assertThat(r.rowCount()).isEqualTo(2);
      assertThat(r.rows().get(0).asMap()).containsEntry("a.handle", "berg").containsEntry("a.born", null);
      assertThat(r.rows().get(1).get("a.born")).isEqualTo(1977);
      assertThat(r.rows().get(1).get(0)).isEqualTo("okafor");
      assertThat(r.jsonRows().get(1)).isEqualTo("{\"a.handle\":\"okafor\",\"a.name\":\"N. Okafor\",\"a.born\":1977}");
    }
    try (QueryResult r = g.query(READS, "born_after", QueryParams.of(Map.of("y", 1970)), QueryOptions.defaults())) {
      assertThat(r.rows()).extracting(row -> row.get("a.handle")).containsExactly("okafor");
    }
  }

  @Test
  public void aQueryAtACommitReadsThatSnapshot() {
    Graph g = create(SCHEMA);
    String first = g.load(LoadMode.APPEND, in(DATA), opts()).commitId();
    g.load(LoadMode.MERGE, in("{\"type\":\"Author\",\"data\":{\"handle\":\"berg\",\"name\":\"Anna Berg\"}}\n"), opts());
    try (QueryResult old = g.query(READS, "authors", QueryParams.none(), QueryOptions.atCommit(first));
        QueryResult now = g.query(READS, "authors", QueryParams.none(), QueryOptions.defaults())) {
      assertThat(old.commitId()).isEqualTo(first);
      assertThat(old.rows().get(0).get("a.name")).isEqualTo("A. Berg");
      assertThat(now.rows().get(0).get("a.name")).isEqualTo("Anna Berg");
    }
  }

  @Test
  public void aQueryOnAnUnknownBranchOrCommitIsNotFound() {
    Graph g = create(SCHEMA);
    NotFoundException e = catchThrowableOfType(NotFoundException.class,
        () -> g.query(READS, "authors", QueryParams.none(), QueryOptions.onBranch("no-such-branch")));
    assertKind(e, 404, "not_found");
    NotFoundException c = catchThrowableOfType(NotFoundException.class,
        () -> g.query(READS, "authors", QueryParams.none(), QueryOptions.atCommit("01ZZZZZZZZZZZZZZZZZZZZZZZZ")));
    assertKind(c, 404, "not_found");
  }

  @Test
  public void aMutationOrATypeErrorIsABadRequestForQuery() {
    Graph g = create(SCHEMA);
    InvalidInputException m = catchThrowableOfType(InvalidInputException.class,
        () -> g.query(MUTATIONS, "add_author", QueryParams.none(), QueryOptions.defaults()));
    assertKind(m, 400, "bad_request");
    InvalidInputException t = catchThrowableOfType(InvalidInputException.class, () -> g.query(
        "query q() {\n  match { $p: Persn }\n  return { $p.name }\n}", "q", QueryParams.none(), QueryOptions.defaults()));
    assertKind(t, 400, "bad_request");
    assertThat(t.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class, v -> {
      assertThat(v.line()).isEqualTo(2L);
      assertThat(v.rule()).isNotNull();
    });
  }

  @Test
  public void aPreparedQueryKnowsItsColumnsAndRuns() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    PreparedQuery p = g.prepareQuery(READS, "authors");
    assertThat(p.queryName()).isEqualTo("authors");
    assertThat(p.columns()).extracting(QueryResult.Column::name).containsExactly("a.handle", "a.name", "a.born");
    try (QueryResult r = g.query(p, QueryParams.none(), QueryOptions.defaults())) {
      assertThat(r.rowCount()).isEqualTo(2);
    }
    assertThat(g.explainQuery(READS, "authors", QueryParams.none(), QueryOptions.defaults())).contains("Author");
  }

  @Test
  public void checkQueriesReportsEachQueryOfAFile() {
    Graph g = create(SCHEMA);
    var diagnostics = g.checkQueries(READS + "query broken() { match { $x: Nope } return { $x } }\n");
    assertThat(diagnostics).extracting(io.omnigraph.api.QueryDiagnostic::queryName)
        .containsExactly("authors", "born_after", "broken");
    assertThat(diagnostics.get(0).ok()).isTrue();
    assertThat(diagnostics.get(2).ok()).isFalse();
    assertThat(diagnostics.get(2).rule()).isNotNull();
    assertThat(diagnostics.get(2).line()).isNotNull();
  }
}
