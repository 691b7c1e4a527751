package io.omnigraph.engine;

import static io.omnigraph.engine.TableDrift.drift;
import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graph.mutate on real Lance datasets on local disk: statements, read-your-writes, checks, atomicity, limits. */
class GraphMutateTest {
  private static final String Q = MutationGraph.QUERIES;

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

  MutationResult mutate(String name, Map<String, ?> params) {
    return graph.mutate(Q, name, QueryParams.of(params), MutationOptions.defaults());
  }

  void load(String ndjson) {
    GraphIo.load(graph, LoadMode.MERGE, ndjson);
  }

  List<String> rows(String type) {
    return GraphIo.sortedLines(GraphIo.export(graph)).stream()
        .filter(l -> l.startsWith("{\"type\":\"" + type + "\"") || l.startsWith("{\"edge\":\"" + type + "\"")).toList();
  }

  static ErrorDetail.Validation validation(Throwable t) {
    return (ErrorDetail.Validation) ((OmnigraphException) t).detail().orElseThrow();
  }

  // ---------------------------------------------------------------- inserts

  @Test
  void keyedInsertWritesTheNodeAndPublishesOneCommit() {
    int before = graph.commits().size();
    MutationResult r = mutate("add_person", Map.of("name", "ada", "age", 36));
    assertThat(r.commitId()).isNotNull();
    assertThat(graph.commits()).hasSize(before + 1);
    assertThat(graph.commits().get(0).id()).isEqualTo(r.commitId());
    assertThat(r.affectedNodes()).isEqualTo(1);
    assertThat(r.tables()).containsOnlyKeys("node:Person");
    assertThat(r.tables().get("node:Person").inserted()).isEqualTo(1);
    assertThat(rows("Person")).singleElement().asString().contains("\"name\":\"ada\"", "\"age\":36");
  }

  @Test
  void keyedInsertOfAnExistingKeyReplacesTheRow() {
    mutate("add_person", Map.of("name", "ada", "age", 36));
    mutate("add_person_email", Map.of("name", "ada", "email", "a@x"));
    // Upsert: the whole row is replaced, so the unassigned age becomes null.
    assertThat(rows("Person")).singleElement().asString().contains("\"email\":\"a@x\"").doesNotContain("36");
  }

  @Test
  void unkeyedInsertsGetFreshIdsAndNeverReplace() {
    mutate("add_note", Map.of("text", "same"));
    mutate("add_note", Map.of("text", "same"));
    List<String> notes = rows("Note");
    assertThat(notes).hasSize(2);
    assertThat(notes.get(0)).isNotEqualTo(notes.get(1));
  }

  @Test
  void anEdgeSeesEndpointsInsertedEarlierInTheSameQuery() {
    MutationResult r = mutate("hire", Map.of("name", "ada", "company", "acme", "since", 2020));
    assertThat(r.affectedNodes()).isEqualTo(2);
    assertThat(r.affectedEdges()).isEqualTo(1);
    assertThat(rows("WorksAt")).singleElement().asString().contains("\"from\":\"ada\"", "\"to\":\"acme\"");
    CommitInfo c = graph.commit(r.commitId()).orElseThrow();
    assertThat(c.tableVersions()).containsKeys("node:Person", "node:Company", "edge:WorksAt");
  }

  @Test
  void anEdgeToAMissingEndpointFailsAndLeavesEveryTableUntouched() {
    int before = graph.commits().size();
    String q = """
        query bad($name: String) {
          insert Person { name: $name }
          insert WorksAt { from: $name, to: "nowhere" }
        }
        """;
    assertThatThrownBy(() -> graph.mutate(q, "bad", QueryParams.of(Map.of("name", "ada")), MutationOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("dst 'nowhere' not found in Company")
        .satisfies(t -> {
          assertThat(validation(t).rule()).isEqualTo("dangling_edge");
          assertThat(validation(t).line()).isEqualTo(3L);
        });
    assertThat(drift(graph)).isEmpty();
    assertThat(graph.commits()).hasSize(before);
    assertThat(rows("Person")).isEmpty();
    // No drift to reconcile: the next mutation on the same tables proceeds.
    assertThat(mutate("hire", Map.of("name", "ada", "company", "acme")).commitId()).isNotNull();
    assertThat(drift(graph)).isEmpty();
  }

  @Test
  void anEdgeFromAMissingSourceIsRefused() {
    load("{\"type\":\"Company\",\"data\":{\"title\":\"acme\"}}\n");
    assertThatThrownBy(() -> mutate("join", Map.of("name", "ghost", "company", "acme")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("src 'ghost' not found in Person");
  }

  // ---------------------------------------------------------------- updates

  @Test
  void anUpdateSeesARowInsertedEarlierInTheSameQuery() {
    MutationResult r = mutate("add_and_age", Map.of("name", "ada"));
    assertThat(rows("Person")).singleElement().asString().contains("\"age\":2");
    assertThat(r.tables().get("node:Person")).isEqualTo(new MutationResult.TableChanges(1, 0, 0));
  }

  @Test
  void aPendingRowShadowsItsCommittedVersion() {
    load("{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":30}}\n{\"type\":\"Person\",\"data\":{\"name\":\"cy\",\"age\":30}}\n");
    MutationResult r = mutate("birthday_then_thirty", Map.of("name", "bob"));
    // bob's committed row still says 30, but the query already rewrote it to 31: the second update must not match it.
    assertThat(rows("Person")).anyMatch(l -> l.contains("\"bob\"") && l.contains("\"age\":31"))
        .anyMatch(l -> l.contains("\"cy\"") && l.contains("\"age\":40"));
    assertThat(r.tables().get("node:Person")).isEqualTo(new MutationResult.TableChanges(0, 2, 0));
  }

  @Test
  void anUpdateKeepsUnassignedProperties() {
    load("{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":30,\"email\":\"b@x\"}}\n");
    mutate("set_age", Map.of("name", "bob", "age", 31));
    assertThat(rows("Person")).singleElement().asString().contains("\"age\":31", "\"email\":\"b@x\"");
  }

  @Test
  void aMutationThatMatchesNothingPublishesNoCommit() {
    int before = graph.commits().size();
    MutationResult r = mutate("set_age", Map.of("name", "nobody", "age", 3));
    assertThat(r.commitId()).isNull();
    assertThat(r.tables()).isEmpty();
    assertThat(graph.commits()).hasSize(before);
    assertThat(mutate("remove_person", Map.of("name", "nobody")).commit()).isEmpty();
    assertThat(graph.commits()).hasSize(before);
    assertThat(drift(graph)).isEmpty();
  }

  // ---------------------------------------------------------------- schema rules

  @Test
  void rangeIsCheckedOnInsertAndUpdate() {
    assertThatThrownBy(() -> mutate("add_person", Map.of("name", "ada", "age", 200)))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("@range violation on Person.age")
        .satisfies(t -> assertThat(validation(t).rule()).isEqualTo("range_violation"));
    mutate("add_person", Map.of("name", "ada", "age", 20));
    assertThatThrownBy(() -> mutate("set_age", Map.of("name", "ada", "age", -1)))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("value -1 < min 0");
    assertThat(rows("Person")).singleElement().asString().contains("\"age\":20");
  }

  @Test
  void checkPatternIsEnforcedOnUpdate() {
    mutate("add_person", Map.of("name", "ada"));
    assertThatThrownBy(() -> mutate("set_handle", Map.of("name", "ada", "handle", "Not Valid")))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(t -> assertThat(validation(t).rule()).isEqualTo("check_violation"));
    mutate("set_handle", Map.of("name", "ada", "handle", "ada"));
  }

  @Test
  void uniqueIsCheckedAgainstCommittedAndPendingRows() {
    load("{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"email\":\"b@x\"}}\n");
    assertThatThrownBy(() -> mutate("add_person_email", Map.of("name", "ada", "email", "b@x")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("@unique violation on Person.email: value 'b@x' held by 'bob' and 'ada'")
        .satisfies(t -> assertThat(validation(t).rule()).isEqualTo("unique_violation"));
    String twice = """
        query two() {
          insert Person { name: "p1", email: "same" }
          insert Person { name: "p2", email: "same" }
        }
        """;
    assertThatThrownBy(() -> graph.mutate(twice, "two", QueryParams.none(), MutationOptions.defaults()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("held by 'p1' and 'p2'");
    // Rewriting a row with its own value is not a collision.
    mutate("set_email", Map.of("name", "bob", "email", "b@x"));
    // A row the query rewrites away from the value frees it in the same query.
    String swap = """
        query swap() {
          update Person set { email: "b@y" } where name = "bob"
          insert Person { name: "ada", email: "b@x" }
        }
        """;
    graph.mutate(swap, "swap", QueryParams.none(), MutationOptions.defaults());
    assertThat(rows("Person")).hasSize(2);
  }

  @Test
  void cardinalityCountsCommittedAndPendingEdges() {
    load("""
        {"type":"Person","data":{"name":"ada"}}
        {"type":"Company","data":{"title":"acme"}}
        {"type":"Company","data":{"title":"bcorp"}}
        """);
    assertThatThrownBy(() -> mutate("join_twice", Map.of("name", "ada", "a", "acme", "b", "bcorp")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("@card violation on edge WorksAt: source 'ada' has 2 edges (max 1)")
        .satisfies(t -> assertThat(validation(t).rule()).isEqualTo("cardinality_violation"));
    mutate("join", Map.of("name", "ada", "company", "acme"));
    assertThatThrownBy(() -> mutate("join", Map.of("name", "ada", "company", "bcorp")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("has 2 edges (max 1)");
    assertThat(rows("WorksAt")).hasSize(1);
  }

  @Test
  void deletingAnEdgeBelowTheMinimumIsRefused() {
    load("""
        {"type":"Person","data":{"name":"ada"}}
        {"type":"Person","data":{"name":"bob"}}
        {"edge":"Mentor","from":"ada","to":"bob","data":{}}
        """);
    assertThatThrownBy(() -> mutate("remove_mentor", Map.of("name", "ada")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("@card violation on edge Mentor: source 'ada' has 0 edges (min 1)");
    // Deleting the source node takes its edges with it: no count is left to check.
    assertThat(mutate("remove_person", Map.of("name", "ada")).affectedEdges()).isEqualTo(1);
  }

  // ---------------------------------------------------------------- deletes

  @Test
  void aNodeDeleteCascadesToIncidentEdgesInTheSameCommit() {
    load("""
        {"type":"Person","data":{"name":"ada","age":70}}
        {"type":"Person","data":{"name":"bob","age":20}}
        {"type":"Person","data":{"name":"cy","age":80}}
        {"type":"Company","data":{"title":"acme"}}
        {"edge":"WorksAt","from":"ada","to":"acme","data":{}}
        {"edge":"WorksAt","from":"bob","to":"acme","data":{}}
        {"edge":"Knows","from":"bob","to":"ada","data":{}}
        {"edge":"Knows","from":"cy","to":"ada","data":{}}
        {"edge":"Knows","from":"bob","to":"bob","data":{}}
        """);
    int before = graph.commits().size();
    MutationResult r = mutate("remove_old", Map.of("age", 60));
    assertThat(graph.commits()).hasSize(before + 1);
    assertThat(r.tables().get("node:Person").deleted()).isEqualTo(2);
    // ada's WorksAt, and both Knows edges that end at ada (one of them also starts at cy); each counted once.
    assertThat(r.tables().get("edge:WorksAt").deleted()).isEqualTo(1);
    assertThat(r.tables().get("edge:Knows").deleted()).isEqualTo(2);
    assertThat(r.affectedEdges()).isEqualTo(3);
    assertThat(graph.commit(r.commitId()).orElseThrow().tableVersions())
        .containsKeys("node:Person", "edge:WorksAt", "edge:Knows");
    assertThat(rows("Person")).singleElement().asString().contains("bob");
    assertThat(rows("WorksAt")).singleElement().asString().contains("\"from\":\"bob\"");
    assertThat(rows("Knows")).singleElement().asString().contains("\"from\":\"bob\"", "\"to\":\"bob\"");
    assertThat(drift(graph)).isEmpty();
  }

  @Test
  void overlappingDeletesCountEachRowOnce() {
    load("""
        {"type":"Person","data":{"name":"ada","age":70}}
        {"type":"Person","data":{"name":"bob","age":20}}
        """);
    String q = """
        query twice() {
          delete Person where age > 60
          delete Person where name = "ada"
          delete Person where name = "bob"
        }
        """;
    MutationResult r = graph.mutate(q, "twice", QueryParams.none(), MutationOptions.defaults());
    assertThat(r.tables().get("node:Person").deleted()).isEqualTo(2);
    assertThat(rows("Person")).isEmpty();
  }

  @Test
  void aQueryMixingDeletesWithInsertsIsRefusedBeforeAnyIoAndSaysToSplitIt() {
    String mixed = """
        query mixed($name: String) {
          insert Person { name: $name }
          delete Person where name = $name
        }
        """;
    assertThatThrownBy(() -> graph.mutate(mixed, "mixed", QueryParams.of(Map.of("name", "ada")), MutationOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("split it into separate mutations")
        .satisfies(t -> assertThat(validation(t).rule()).isEqualTo("mixed_mutation"))
        .satisfies(t -> assertThat(validation(t).line()).isNotNull());
  }

  // ---------------------------------------------------------------- inputs and options

  @Test
  void aReadQueryIsNotAMutation() {
    assertThatThrownBy(() -> mutate("people", Map.of()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("is a read query");
  }

  @Test
  void badParametersFailBeforeAnyIo() {
    assertThatThrownBy(() -> mutate("add_person", Map.of("name", "ada", "age", "old")))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(t -> assertThat(validation(t).rule()).isEqualTo("param_value"));
    assertThatThrownBy(() -> mutate("add_person", Map.of("nam", "ada")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("unknown parameter 'nam'");
    assertThatThrownBy(() -> mutate("no_such_query", Map.of()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("no query named 'no_such_query'");
  }

  @Test
  void parametersAsJsonAndAsPairs() {
    graph.mutate(Q, "add_person", QueryParams.json("{\"name\": \"ada\", \"age\": 36}"), MutationOptions.defaults());
    graph.mutate(Q, "add_person", QueryParams.pairs(List.of("name=bob", "$age=7")), MutationOptions.defaults());
    assertThat(rows("Person")).hasSize(2).anyMatch(l -> l.contains("\"bob\"") && l.contains("\"age\":7"));
  }

  @Test
  void actorAndMessageAreRecordedInTheCommit() {
    MutationResult r = graph.mutate(Q, "add_person", QueryParams.of(Map.of("name", "ada")),
        MutationOptions.defaults().withActor("alice").withMessage("hello"));
    CommitInfo c = graph.commit(r.commitId()).orElseThrow();
    assertThat(c.actor()).isEqualTo("alice");
    assertThat(c.message()).isEqualTo("hello");
  }

  @Test
  void anExpectedHeadThatIsNotTheHeadFailsWithoutWriting() {
    String head = graph.commits().get(0).id();
    mutate("add_person", Map.of("name", "ada"));
    assertThatThrownBy(() -> graph.mutate(Q, "add_person", QueryParams.of(Map.of("name", "bob")),
        MutationOptions.defaults().withExpectedHead(head)))
        .isInstanceOf(PreconditionFailedException.class)
        .satisfies(t -> assertThat(((OmnigraphException) t).detail().orElseThrow())
            .isEqualTo(new ErrorDetail.PreconditionFailure("main", head, graph.commits().get(0).id())));
    assertThat(rows("Person")).hasSize(1);
    String now = graph.commits().get(0).id();
    graph.mutate(Q, "add_person", QueryParams.of(Map.of("name", "bob")), MutationOptions.defaults().withExpectedHead(now));
    assertThat(rows("Person")).hasSize(2);
  }

  @Test
  void aPreparedMutationRunsManyTimesAndIsRefusedByAGraphWithAnotherSchema() {
    PreparedMutation add = graph.prepareMutation(Q, "add_person");
    assertThat(add.queryName()).isEqualTo("add_person");
    graph.mutate(add, QueryParams.of(Map.of("name", "ada")), MutationOptions.defaults());
    graph.mutate(add, QueryParams.of(Map.of("name", "bob", "age", 3)), MutationOptions.defaults());
    assertThat(rows("Person")).hasSize(2);
    assertThatThrownBy(() -> graph.prepareMutation(Q, "people")).isInstanceOf(InvalidInputException.class);
    try (Graph other = Omnigraph.init(dir.resolve("other").toString(), SCHEMA + "node Extra { x: String @key }\n")) {
      assertThatThrownBy(() -> other.mutate(add, QueryParams.of(Map.of("name", "cy")), MutationOptions.defaults()))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("prepared for a different schema");
    }
  }

  // ---------------------------------------------------------------- limits

  @Test
  void anUpdateMatchingMoreThan8192RowsIsRefusedBeforeAnyEffect() {
    loadPeople(0, 8192);
    loadPeople(8192, 1);
    int before = graph.commits().size();
    assertThatThrownBy(() -> mutate("age_all", Map.of("from", 5, "to", 6)))
        .isInstanceOf(ResourceLimitException.class)
        .satisfies(t -> {
          ErrorDetail.ResourceLimit d = (ErrorDetail.ResourceLimit) ((OmnigraphException) t).detail().orElseThrow();
          assertThat(d.resource()).isEqualTo("keyed write entities for node:Person");
          assertThat(d.limit()).isEqualTo(8192);
          assertThat(d.actual()).isGreaterThan(8192);
          assertThat(((OmnigraphException) t).httpStatus()).isEqualTo(413);
        });
    assertThat(graph.commits()).hasSize(before);
    assertThat(drift(graph)).isEmpty();
    // One row fewer fits in one transaction.
    mutate("remove_person", Map.of("name", "p0"));
    assertThat(mutate("age_all", Map.of("from", 5, "to", 6)).tables().get("node:Person").updated()).isEqualTo(8192);
  }

  @Test
  void aRowOver32MiBIsRefusedBeforeAnyEffect() {
    String big = "x".repeat(33 * 1024 * 1024);
    assertThatThrownBy(() -> mutate("add_note", Map.of("text", big)))
        .isInstanceOf(ResourceLimitException.class)
        .satisfies(t -> assertThat(((ErrorDetail.ResourceLimit) ((OmnigraphException) t).detail().orElseThrow()).resource())
            .isEqualTo("keyed write bytes for node:Note"));
    assertThat(drift(graph)).isEmpty();
    assertThat(rows("Note")).isEmpty();
  }

  void loadPeople(int from, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < from + n; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":5}}\n");
    }
    GraphIo.load(graph, LoadMode.APPEND, b.toString());
  }

  static List<String> names(List<String> lines) {
    List<String> out = new ArrayList<>();
    lines.forEach(l -> out.add(l.replaceAll(".*\"name\":\"([^\"]*)\".*", "$1")));
    return out;
  }
}
