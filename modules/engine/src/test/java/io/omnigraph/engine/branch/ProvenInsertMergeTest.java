package io.omnigraph.engine.branch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeOutcome;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge's proven-insert route (docs/branches.md, "The proven-insert route"): an all-new source
 * interval whose history is a chain of verified insertion-absence links is adopted without an id
 * probe or a diff; any gap falls back to the ordered route; both routes leave the same graph.
 */
class ProvenInsertMergeTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      edge Knows: Person -> Person
      """;
  static final String QUERIES = """
      query add($name: String, $age: I32?) {
        insert Person { name: $name, age: $age }
      }
      query set_age($name: String, $age: I32) {
        update Person set { age: $age } where name = $name
      }
      query remove($name: String) {
        delete Person where name = $name
      }
      """;

  @TempDir Path dir;
  int graphs;

  @AfterEach
  void reset() {
    BranchMerge.chunkRows = 8192;
    BranchMerge.provenInsert = true;
  }

  Graph init() {
    return Omnigraph.init(dir.resolve("g" + (++graphs)).toString(), SCHEMA);
  }

  static void load(Graph g, String branch, LoadMode mode, String ndjson) {
    g.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withBranch(branch));
  }

  static String people(int from, int count) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":").append(i % 90)
          .append("}}\n");
    }
    return b.toString();
  }

  static String knows(int from, int count) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      b.append("{\"edge\":\"Knows\",\"from\":\"p").append(i).append("\",\"to\":\"p0\",\"data\":{\"id\":\"k")
          .append(i).append("\"}}\n");
    }
    return b.toString();
  }

  static void mutate(Graph g, String branch, String query, Map<String, Object> params) {
    g.mutate(QUERIES, query, QueryParams.of(params), MutationOptions.defaults().withBranch(branch));
  }

  static String export(Graph g, String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** main: 10 people; branch f: two appends of 12 people (and their Knows edges) each. */
  static void bulkOnBranch(Graph g) {
    load(g, "main", LoadMode.MERGE, people(0, 10));
    g.createBranch("f", null);
    load(g, "f", LoadMode.APPEND, people(10, 12) + knows(10, 12));
    load(g, "f", LoadMode.APPEND, people(22, 12) + knows(22, 12));
  }

  @Test
  void allNewAppendsOnABranchAreAdoptedByTheProvenInsertRoute() {
    try (Graph g = init()) {
      bulkOnBranch(g);
      BranchMerge.chunkRows = 5;
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(r.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
      MergeResult.TableMerge people = r.tables().get("node:Person");
      assertThat(people.route()).isEqualTo("proven_insert");
      assertThat(people.inserted()).isEqualTo(24);
      assertThat(people.updated()).isZero();
      assertThat(people.deleted()).isZero();
      // adopted link by link: one transaction per append of f, whatever the chunk cap
      assertThat(people.transactions()).isEqualTo(2);
      assertThat(r.tables().get("edge:Knows").route()).isEqualTo("proven_insert");
      assertThat(r.tables().get("edge:Knows").inserted()).isEqualTo(24);
      assertThat(export(g, "main")).isEqualTo(export(g, "f"));
    }
  }

  /** The data files of a table's ref (paths relative to its {@code data/} directory). */
  static java.util.Set<String> dataFiles(Path ref) throws java.io.IOException {
    try (var files = java.nio.file.Files.list(ref.resolve("data"))) {
      return files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
    }
  }

  /** The only directory below {@code dir}. */
  static Path only(Path dir) throws java.io.IOException {
    try (var dirs = java.nio.file.Files.list(dir)) {
      List<Path> all = dirs.filter(java.nio.file.Files::isDirectory).toList();
      assertThat(all).as("directories below " + dir).hasSize(1);
      return all.get(0);
    }
  }

  @Test
  void theProvenRouteAdoptsTheSourcesDataFilesAndMainOutlivesTheBranch() throws Exception {
    Path root = dir.resolve("g" + (++graphs));
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      bulkOnBranch(g);
      Path people = only(root.resolve("nodes")); // the one node type
      Path refF = only(people.resolve("tree"));
      java.util.Set<String> onF = dataFiles(refF);
      java.util.Set<String> onMainBefore = dataFiles(people);
      String f = export(g, "f");
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(r.tables().get("node:Person").route()).isEqualTo("proven_insert");
      java.util.Set<String> added = new java.util.HashSet<>(dataFiles(people));
      added.removeAll(onMainBefore);
      // the merge wrote no data file of its own: main now holds f's files themselves (linked, not rewritten)
      assertThat(added).isEqualTo(onF);
      for (String file : added) {
        assertThat(java.nio.file.Files.isSameFile(people.resolve("data").resolve(file),
            refF.resolve("data").resolve(file))).as(file).isTrue();
      }
      g.deleteBranch("f");
      assertThat(export(g, "main")).isEqualTo(f);
      // main's adopted rows are ordinary rows: an update and a new insert on them
      mutate(g, "main", "set_age", Map.of("name", "p15", "age", 5));
      mutate(g, "main", "add", Map.of("name", "p99", "age", 9));
      assertThat(export(g, "main")).contains("\"name\":\"p15\",\"age\":5").contains("\"p99\"");
    }
    try (Graph g = Omnigraph.open(root.toString())) {
      assertThat(export(g, "main")).contains("\"p33\"").contains("\"p99\"");
    }
  }

  @Test
  void aBranchTargetAdoptsIntoItsOwnRef() {
    try (Graph g = init()) {
      load(g, "main", LoadMode.MERGE, people(0, 3));
      g.createBranch("g", null);
      load(g, "g", LoadMode.APPEND, people(3, 3)); // g forks the table
      g.createBranch("f", "g");
      load(g, "f", LoadMode.APPEND, people(6, 4));
      String f = export(g, "f");
      MergeResult r = g.merge("f", "g", MergeOptions.defaults());
      assertThat(r.tables().get("node:Person").route()).isEqualTo("proven_insert");
      g.deleteBranch("f");
      assertThat(export(g, "g")).isEqualTo(f);
      assertThat(export(g, "main")).doesNotContain("\"p3\"");
    }
  }

  @Test
  void theProvenAndTheOrderedRouteLeaveTheSameGraph() {
    String[] exports = new String[2];
    MergeResult[] results = new MergeResult[2];
    for (int i = 0; i < 2; i++) {
      BranchMerge.provenInsert = i == 0;
      BranchMerge.chunkRows = 7;
      try (Graph g = init()) {
        bulkOnBranch(g);
        results[i] = g.merge("f", "main", MergeOptions.defaults());
        exports[i] = export(g, "main");
      }
    }
    assertThat(results[0].tables().get("node:Person").route()).isEqualTo("proven_insert");
    assertThat(results[1].tables().get("node:Person").route()).isEqualTo("ordered");
    assertThat(exports[0]).isEqualTo(exports[1]);
    for (String key : List.of("node:Person", "edge:Knows")) {
      MergeResult.TableMerge p = results[0].tables().get(key);
      MergeResult.TableMerge o = results[1].tables().get(key);
      assertThat(List.of(p.inserted(), p.updated(), p.deleted()))
          .as(key).isEqualTo(List.of(o.inserted(), o.updated(), o.deleted()));
      assertThat(p.transactions()).as(key).isEqualTo(2); // one per adopted link
      assertThat(o.transactions()).as(key).isEqualTo(4); // 24 rows in chunks of at most 7
    }
  }

  @Test
  void insertsMadeByMutationsAreProvenToo() {
    try (Graph g = init()) {
      load(g, "main", LoadMode.MERGE, people(0, 3));
      g.createBranch("f", null);
      mutate(g, "f", "add", Map.of("name", "ada", "age", 30));
      mutate(g, "f", "add", Map.of("name", "bob", "age", 31));
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(r.tables().get("node:Person").route()).isEqualTo("proven_insert");
      assertThat(export(g, "main")).isEqualTo(export(g, "f"));
    }
  }

  /** Builds main + f (f appended, then {@code gap} ran), merges, and checks the route and the result. */
  void fallsBack(Consumer<Graph> gap, String expectedRoute) {
    try (Graph g = init()) {
      load(g, "main", LoadMode.MERGE, people(0, 5));
      g.createBranch("f", null);
      load(g, "f", LoadMode.APPEND, people(5, 5));
      gap.accept(g);
      String f = export(g, "f");
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(r.tables().get("node:Person").route()).isEqualTo(expectedRoute);
      assertThat(export(g, "main")).isEqualTo(f);
    }
  }

  @Test
  void anUpdateInTheSourceIntervalFallsBackToTheOrderedRoute() {
    fallsBack(g -> mutate(g, "f", "set_age", Map.of("name", "p7", "age", 77)), "ordered");
  }

  @Test
  void aDeleteInTheSourceIntervalFallsBackToTheOrderedRoute() {
    fallsBack(g -> mutate(g, "f", "remove", Map.of("name", "p1")), "ordered");
  }

  @Test
  void anUpsertOfAnExistingRowInTheSourceIntervalFallsBackToTheOrderedRoute() {
    fallsBack(g -> load(g, "f", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"p2\",\"age\":1}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":\"n1\"}}\n"), "ordered");
  }

  @Test
  void aTargetThatChangedTheTableSinceTheBaseFallsBackAndTheDiffStillFindsTheConflict() {
    try (Graph g = init()) {
      load(g, "main", LoadMode.MERGE, people(0, 3));
      g.createBranch("f", null);
      load(g, "f", LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"x\",\"age\":2}}\n" + people(3, 3));
      // main inserts the same id with another value: the source's absence proof says nothing about it
      load(g, "main", LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"x\",\"age\":1}}\n");
      String before = export(g, "main");
      ConflictException e = (ConflictException) org.junit.jupiter.api.Assertions.assertThrows(ConflictException.class,
          () -> g.merge("f", "main", MergeOptions.defaults()));
      List<ErrorDetail.MergeConflict> conflicts = ((ErrorDetail.MergeConflicts) e.detail().orElseThrow()).conflicts();
      assertThat(conflicts).extracting(ErrorDetail.MergeConflict::kind).containsExactly("divergent_insert");
      assertThat(export(g, "main")).isEqualTo(before);
    }
  }

  @Test
  void aTargetThatChangedTheTableSinceTheBaseTakesTheOrderedRoute() {
    try (Graph g = init()) {
      load(g, "main", LoadMode.MERGE, people(0, 3));
      g.createBranch("f", null);
      load(g, "f", LoadMode.APPEND, people(3, 3));
      load(g, "main", LoadMode.APPEND, people(10, 1));
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(r.outcome()).isEqualTo(MergeOutcome.MERGED);
      assertThat(r.tables().get("node:Person").route()).isEqualTo("ordered");
      assertThat(export(g, "main")).contains("\"p3\"").contains("\"p5\"").contains("\"p10\"");
    }
  }

  @Test
  void aFailureAfterAProvenChunkCommitIsRecoveryRequiredAndRecoveryCompensatesIt() {
    Path root = dir.resolve("g" + (++graphs));
    String before;
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      bulkOnBranch(g);
      before = export(g, "main");
      BranchMerge.chunkRows = 5;
      try (var armed = Failpoints.arm(Failpoints.MERGE_AFTER_CHUNK_COMMIT, FailAction.error())) {
        assertThatThrownBy(() -> g.merge("f", "main", MergeOptions.defaults()))
            .isInstanceOf(RecoveryRequiredException.class);
      }
    }
    try (Graph g = Omnigraph.open(root.toString())) {
      assertThat(export(g, "main")).isEqualTo(before);
      List<RecoveryRecord> rec = g.recoveries();
      assertThat(rec).extracting(RecoveryRecord::kind).containsExactly("RolledBack");
      // the target moved (the rollback commit): the retried merge is no proven adopt any more, and still right
      MergeResult r = g.merge("f", "main", MergeOptions.defaults());
      assertThat(export(g, "main")).isEqualTo(export(g, "f"));
      assertThat(r.tables().get("node:Person").inserted()).isEqualTo(24);
    }
  }
}
