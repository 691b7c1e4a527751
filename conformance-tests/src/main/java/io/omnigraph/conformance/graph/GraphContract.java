package io.omnigraph.conformance.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryResult;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.api.WriteWarning;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph contract (docs/server.md, "Graph contract suite"): what every {@link Graph} does —
 * load, mutate, export, commits, schema — with its results, typed errors and their HTTP statuses.
 * One abstract suite, bound to the embedded engine and to {@code HttpGraph} against a live server,
 * so the two can never drift. A binding implements {@link #create} (a fresh graph with a schema,
 * whose writes are recorded under {@link #actor()}).
 */
public abstract class GraphContract {
  /** A small library: two keyed node types and one edge type. */
  public static final String SCHEMA = """
      node Author {
        handle: String @key
        name: String?
        born: I32?
      }
      node Book {
        isbn: String @key
        title: String
        year: I32?
      }
      edge Wrote: Author -> Book
      """;

  public static final String MUTATIONS = """
      query add_author($handle: String, $name: String) {
        insert Author { handle: $handle, name: $name }
      }
      query rename($handle: String, $name: String) {
        update Author set { name: $name } where handle = $handle
      }
      query add_book($isbn: String, $title: String, $by: String) {
        insert Book { isbn: $isbn, title: $title }
        insert Wrote { from: $by, to: $isbn }
      }
      query drop_author($handle: String) {
        delete Author where handle = $handle
      }
      """;

  public static final String DATA = """
      {"type":"Author","data":{"handle":"okafor","name":"N. Okafor","born":1977}}
      {"type":"Author","data":{"handle":"berg","name":"A. Berg"}}
      {"type":"Book","data":{"isbn":"111","title":"Delta Tides","year":2011}}
      {"edge":"Wrote","from":"okafor","to":"111"}
      """;

  @TempDir protected Path tmp;

  private final List<Graph> opened = new ArrayList<>();

  /**
   * @param schema the {@code .pg} source
   * @return a fresh, empty graph with that schema; closed by the suite
   */
  protected abstract Graph createGraph(String schema);

  /** @return the actor every write of this binding is recorded under */
  protected abstract String actor();

  /**
   * @param schema the {@code .pg} source
   * @param options how the engine behind the binding opens the graph (its maintenance policy)
   * @return a fresh, empty graph with that schema, opened with {@code options}; closed by the suite
   */
  protected abstract Graph createGraph(String schema, OpenOptions options);

  /**
   * Makes every automatic maintenance run of the engine behind this binding fail after its table
   * effect (so recovery has an interrupted optimize to resolve) until the handle is closed.
   *
   * @return the handle that disarms the failure
   */
  protected abstract AutoCloseable failAutomaticMaintenance();

  protected final Graph create(String schema) {
    Graph g = createGraph(schema);
    opened.add(g);
    return g;
  }

  protected final Graph create(String schema, OpenOptions options) {
    Graph g = createGraph(schema, options);
    opened.add(g);
    return g;
  }

  @AfterEach
  void closeGraphs() {
    for (Graph g : opened) {
      g.close();
    }
    opened.clear();
  }

  private LoadOptions opts() {
    return LoadOptions.defaults().withActor(actor());
  }

  private MutationOptions mopts() {
    return MutationOptions.defaults().withActor(actor());
  }

  private static ByteArrayInputStream in(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String export(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void assertKind(OmnigraphException e, int status, String code) {
    assertThat(e.httpStatus()).as("HTTP status of %s", e.getMessage()).isEqualTo(status);
    assertThat(e.code()).isEqualTo(code);
  }

  // --- load ---

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
    Path file = tmp.resolve("data.ndjson");
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

  // --- mutate ---

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

  // --- reads ---

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

  // --- branches ---

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

  // --- schema & maintenance ---

  @Test
  public void ensureIndicesBuildsWhatIsMissingOnceAsOneCommit() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    int before = g.commits().size();
    io.omnigraph.api.EnsureIndicesResult first = g.ensureIndices();
    assertThat(first.created()).isPositive();
    assertThat(first.commitId()).isEqualTo(g.commits().get(0).id());
    assertThat(g.commits()).hasSize(before + 1);
    assertThat(first.indexes()).anySatisfy(i -> {
      assertThat(i.table()).isEqualTo("edge:Wrote");
      assertThat(i.column()).isEqualTo("src");
    });
    io.omnigraph.api.EnsureIndicesResult again = g.ensureIndices();
    assertThat(again.created()).isZero();
    assertThat(again.commitId()).isNull();
    assertThat(again.indexes()).allSatisfy(i -> assertThat(i.state()).isNotEqualTo("created"));
    assertThat(g.commits()).hasSize(before + 1);
  }

  @Test
  public void aSchemaPlanNamesItsStepsAndWritesNothing() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    int before = g.commits().size();
    io.omnigraph.api.SchemaPlan plan = g.planSchema(SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String?\n"));
    assertThat(plan.supported()).isTrue();
    assertThat(plan.acceptedIdentity()).isEqualTo(g.schema().identity());
    assertThat(plan.desiredIdentity()).isNotEqualTo(plan.acceptedIdentity());
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.steps().get(0).kind()).isEqualTo("add_property");
    assertThat(plan.steps().get(0).fields()).containsEntry("type_name", "Author").containsEntry("property_name", "nick")
        .containsEntry("property_type", "String?");
    io.omnigraph.api.SchemaPlan bad = g.planSchema(SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String\n"));
    assertThat(bad.supported()).isFalse();
    assertThat(bad.unsupportedChanges()).singleElement().satisfies(st -> {
      assertThat(st.field("code")).isNotBlank();
      assertThat(st.field("reason")).isNotBlank();
      assertThat(st.field("entity")).contains("nick");
    });
    io.omnigraph.api.SchemaPlan same = g.planSchema(SCHEMA);
    assertThat(same.empty()).isTrue();
    assertThat(same.desiredIdentity()).isEqualTo(same.acceptedIdentity());
    assertKind(catchThrowableOfType(InvalidInputException.class, () -> g.planSchema("node {")), 400, "bad_request");
    assertThat(g.commits()).hasSize(before);
    assertThat(g.schema().source()).isEqualTo(SCHEMA);
  }

  /** docs/edge-keys.md: an edge's key cannot be added or removed by a migration (its rows' ids derive from it). */
  @Test
  public void addingOrRemovingAnEdgeKeyIsAnUnsupportedChange() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    String keyed = SCHEMA.replace("edge Wrote: Author -> Book\n", "edge Wrote: Author -> Book {\n  @key(src, dst)\n}\n");
    assertThat(keyed).isNotEqualTo(SCHEMA);
    io.omnigraph.api.SchemaPlan add = g.planSchema(keyed);
    assertThat(add.supported()).isFalse();
    assertThat(add.unsupportedChanges()).singleElement().satisfies(st -> assertThat(st.field("entity")).contains("Wrote"));
    Graph k = create(keyed);
    io.omnigraph.api.SchemaPlan remove = k.planSchema(SCHEMA);
    assertThat(remove.supported()).isFalse();
    assertThat(remove.unsupportedChanges()).singleElement().satisfies(st -> assertThat(st.field("entity")).contains("Wrote"));
  }

  @Test
  public void applyingTheAcceptedSchemaChangesNothingAndRefusalsAreTyped() {
    Graph g = create(SCHEMA);
    g.load(LoadMode.APPEND, in(DATA), opts());
    int before = g.commits().size();
    io.omnigraph.api.SchemaApplyResult same = g.applySchema(SCHEMA, io.omnigraph.api.SchemaApplyOptions.defaults()
        .withActor(actor()));
    assertThat(same.applied()).isFalse();
    assertThat(same.commitId()).isNull();
    assertThat(same.steps()).isEmpty();
    assertThat(same.schemaIdentity()).isEqualTo(g.schema().identity());
    InvalidInputException unsupported = catchThrowableOfType(InvalidInputException.class, () -> g.applySchema(
        SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String\n"), io.omnigraph.api.SchemaApplyOptions.defaults()));
    assertKind(unsupported, 400, "bad_request");
    assertThat(unsupported.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("unsupported_schema_change"));
    g.createBranch("dev", null);
    ConflictException branches = catchThrowableOfType(ConflictException.class, () -> g.applySchema(
        SCHEMA.replace("  born: I32?\n", "  born: I32?\n  nick: String?\n"), io.omnigraph.api.SchemaApplyOptions.defaults()));
    assertKind(branches, 409, "conflict");
    assertThat(branches.detail()).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
        v -> assertThat(v.rule()).isEqualTo("schema_apply_branches"));
    assertThat(g.commits()).hasSize(before);
    assertThat(g.schema().source()).isEqualTo(SCHEMA);
  }

  // --- commits and schema ---

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
  public void theSchemaIsTheAcceptedSource() {
    Graph g = create(SCHEMA);
    SchemaInfo s = g.schema();
    assertThat(s.source()).isEqualTo(SCHEMA);
    assertThat(s.identity()).startsWith("sha256:");
    assertThat(s.tableKeys()).containsExactly("edge:Wrote", "node:Author", "node:Book");
    assertThat(s.irJson()).contains("Author");
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
  public void theSchemaOfABranchIsTheSchemaOfItsHead() {
    Graph g = create(SCHEMA);
    String genesis = g.commits().get(0).id();
    String wider = SCHEMA.replace("born: I32?", "born: I32?\n    city: String?");
    g.applySchema(wider, io.omnigraph.api.SchemaApplyOptions.defaults());
    g.createBranch("old", genesis); // forked before the schema change
    g.createBranch("new", null);
    assertThat(g.schema(null)).isEqualTo(g.schema());
    assertThat(g.schema("main").source()).isEqualTo(wider);
    assertThat(g.schema("new")).isEqualTo(g.schema("main"));
    assertThat(g.schema("old").source()).isEqualTo(SCHEMA);
    assertThat(g.schema("old").identity()).isNotEqualTo(g.schema("main").identity());
    assertKind(catchThrowableOfType(NotFoundException.class, () -> g.schema("nope")), 404, "not_found");
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

  // --- branches ---

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
}
