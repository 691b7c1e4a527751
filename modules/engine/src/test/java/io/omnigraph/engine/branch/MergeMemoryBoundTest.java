package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory bound of the ordered merge (docs/branches.md, "Memory bound of the ordered merge"):
 * three id-ordered cursors at most one scanner batch each, at most two chunks buffered, the chunks
 * produced again inside the effect window, one order (UTF-8 bytes) on all three, and the
 * validation and delete-plan budgets refused before any effect.
 */
class MergeMemoryBoundTest {
  @TempDir Path dir;
  Graph graph;
  Path root;

  @BeforeEach
  void init() {
    root = dir.resolve("g");
    graph = Omnigraph.init(root.toString(), SCHEMA);
  }

  @AfterEach
  void close() {
    BranchMerge.chunkRows = KeyedWrites.MAX_ROWS;
    BranchMerge.chunkBytes = KeyedWrites.MAX_BYTES;
    BranchMerge.scanRows = KeyedWrites.MAX_ROWS;
    BranchMerge.validationBytes = KeyedWrites.MAX_BYTES;
    BranchMerge.deletePlanBytes = KeyedWrites.MAX_BYTES;
    if (graph != null) {
      graph.close();
    }
  }

  void run(String branch, String query, Map<String, Object> params) {
    graph.mutate(MutationGraph.QUERIES, query, QueryParams.of(params), MutationOptions.defaults().withBranch(branch));
  }

  void load(String branch, LoadMode mode, String ndjson) {
    graph.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withBranch(branch));
  }

  static String person(String name, int age) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":" + age + "}}\n";
  }

  /** @return name → the Person line of the export of {@code branch} */
  Map<String, String> people(String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, branch);
    Map<String, String> rows = new TreeMap<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.contains("\"type\":\"Person\"")) {
        int at = line.indexOf("\"name\":\"") + 8;
        rows.put(unescape(line.substring(at, line.indexOf('"', at))), line);
      }
    }
    return rows;
  }

  /** Decodes the JSON {@code \\uXXXX} escapes of a name without quotes or backslashes. */
  static String unescape(String json) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < json.length(); i++) {
      if (json.startsWith("\\u", i)) {
        out.append((char) Integer.parseInt(json.substring(i + 2, i + 6), 16));
        i += 5;
      } else {
        out.append(json.charAt(i));
      }
    }
    return out.toString();
  }

  boolean noSidecar() {
    Path d = root.resolve("__recovery");
    if (!Files.exists(d)) {
      return true;
    }
    try (var s = Files.list(d)) {
      return s.noneMatch(p -> p.toString().endsWith(".json"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * 3,000 rows on both sides; the source changes 600, deletes 150 and adds 400, the target adds one.
   * With 100-row scanner batches and 40-row chunks, the merge holds at most one batch per cursor and
   * two chunks (the one being written and the one filling) — far below the 1,000 rows it writes.
   */
  @Test
  void aMergeOfATableManyBatchesLargeHoldsOneBatchPerCursorAndAtMostTwoChunks() {
    StringBuilder base = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      base.append(person(String.format("p%05d", i), i % 100));
    }
    load("main", LoadMode.APPEND, base.toString());
    graph.createBranch("f", null);
    StringBuilder change = new StringBuilder();
    for (int i = 0; i < 600; i++) {
      change.append(person(String.format("p%05d", i * 5), 61)); // 600 changed rows (ages were multiples of 5)
    }
    for (int i = 0; i < 400; i++) {
      change.append(person(String.format("n%05d", i), 7)); // 400 new rows
    }
    load("f", LoadMode.MERGE, change.toString());
    run("f", "remove_old", Map.of("age", 95)); // deletes the unchanged rows aged 95..99
    run("main", "add_person", Map.of("name", "zzz-main", "age", 1));
    Map<String, String> expected = new TreeMap<>(people("f"));
    expected.put("zzz-main", people("main").get("zzz-main"));
    long deleted = 3000 - (people("f").size() - 400);
    BranchMerge.scanRows = 100;
    BranchMerge.chunkRows = 40;
    MergeResult r = graph.merge("f", "main", MergeOptions.defaults());
    MergeResult.TableMerge t = r.tables().get("node:Person");
    assertThat(t.route()).isEqualTo("ordered");
    assertThat(t.inserted()).isEqualTo(400);
    assertThat(t.updated()).isEqualTo(600);
    assertThat(t.deleted()).isEqualTo(deleted).isPositive();
    assertThat(t.transactions()).isEqualTo(400 / 40 + 600 / 40 + (deleted + 39) / 40);
    assertThat(people("main")).isEqualTo(expected);
    MergeMemory.Peaks peaks = BranchMerge.lastMemory;
    assertThat(peaks.batchRows()).as("rows of one scanner batch").isPositive().isLessThanOrEqualTo(100);
    assertThat(peaks.heldRows()).as("rows buffered in chunks at once").isPositive().isLessThanOrEqualTo(2 * 40);
    assertThat(peaks.heldBytes()).isLessThanOrEqualTo(2 * BranchMerge.chunkBytes);
  }

  /**
   * Ids whose UTF-16 order (Java's {@code String.compareTo}) differs from their UTF-8 byte order
   * (Lance's): private-use and U+FFFD characters sort after an emoji in UTF-16 and before it in
   * UTF-8; mixed case sorts upper before lower. Every change lands where it should, across 2-row
   * batches.
   */
  @Test
  void idsOutsideAsciiAndOfMixedCaseMergeInUtf8ByteOrder() {
    List<String> names = List.of("alice", "Bob", "ZED", "a", "A", "\u00e9mile", "\u03a9mega", "\u00df", "\u65e5\u672c",
        "\ue000priv", "\ud83d\ude00smile", "\ufffdx", "zz", "Zz");
    StringBuilder base = new StringBuilder();
    for (String n : names) {
      base.append(person(n, 10));
    }
    load("main", LoadMode.APPEND, base.toString());
    graph.createBranch("f", null);
    // the source: changes three, deletes two, adds three
    load("f", LoadMode.MERGE, person("\ue000priv", 20) + person("\ud83d\ude00smile", 21) + person("A", 22)
        + person("\ud83d\ude3acat", 23) + person("\ufffdnew", 24) + person("Z\u00fcrich", 25));
    run("f", "remove_person", Map.of("name", "\u00df"));
    run("f", "remove_person", Map.of("name", "Bob"));
    // the target: changes two others, adds one
    load("main", LoadMode.MERGE, person("\ufffdx", 30) + person("a", 31) + person("\ud83d\ude00zz", 32));
    Map<String, String> expected = new TreeMap<>(people("main"));
    Map<String, String> source = people("f");
    for (String n : List.of("\ue000priv", "\ud83d\ude00smile", "A", "\ud83d\ude3acat", "\ufffdnew", "Z\u00fcrich")) {
      expected.put(n, source.get(n));
    }
    expected.remove("\u00df");
    expected.remove("Bob");
    BranchMerge.scanRows = 2;
    BranchMerge.chunkRows = 2;
    MergeResult r = graph.merge("f", "main", MergeOptions.defaults());
    MergeResult.TableMerge t = r.tables().get("node:Person");
    assertThat(t.route()).isEqualTo("ordered");
    assertThat(List.of(t.inserted(), t.updated(), t.deleted())).containsExactly(3L, 3L, 2L);
    assertThat(people("main")).isEqualTo(expected);
    // the order the cursors agree on is UTF-8 byte order, which is not Java's String order here
    List<String> byBytes = names.stream().sorted((x, y) -> Arrays.compareUnsigned(
        x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8))).toList();
    assertThat(byBytes).isNotEqualTo(names.stream().sorted().toList());
  }

  @Test
  void aMergeWhoseCheckedRowsExceedTheValidationBudgetIsRefusedBeforeAnyEffect() {
    load("main", LoadMode.APPEND, person("seed", 1));
    graph.createBranch("f", null);
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      rows.append(person(String.format("v%05d", i), 3));
    }
    load("f", LoadMode.MERGE, rows.toString());
    run("main", "add_person", Map.of("name", "zzz-main", "age", 1));
    BranchMerge.validationBytes = 4096; // Person has @unique email: its taken rows are checked
    Map<String, String> before = people("main");
    List<CommitInfo> commits = graph.commits("main");
    assertThatThrownBy(() -> graph.merge("f", "main", MergeOptions.defaults()))
        .isInstanceOfSatisfying(ResourceLimitException.class, e -> {
          ErrorDetail.ResourceLimit d = (ErrorDetail.ResourceLimit) e.detail().orElseThrow();
          assertThat(d.resource()).isEqualTo("branch-merge validation bytes");
          assertThat(d.limit()).isEqualTo(4096);
          assertThat(d.actual()).isGreaterThan(4096);
        });
    assertThat(people("main")).isEqualTo(before);
    assertThat(graph.commits("main")).isEqualTo(commits);
    assertThat(noSidecar()).isTrue();
    BranchMerge.validationBytes = KeyedWrites.MAX_BYTES;
    assertThat(graph.merge("f", "main", MergeOptions.defaults()).tables().get("node:Person").inserted())
        .isEqualTo(200);
  }

  @Test
  void aMergeWhoseDeletePlanExceedsItsBudgetIsRefusedBeforeAnyEffect() {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      rows.append(person(String.format("d%05d", i), 99));
    }
    load("main", LoadMode.APPEND, rows.toString());
    graph.createBranch("f", null);
    run("f", "remove_old", Map.of("age", 90));
    run("main", "add_person", Map.of("name", "zzz-main", "age", 1));
    BranchMerge.deletePlanBytes = 200; // 100 ids of 6 bytes (+4 each) need 1,000
    Map<String, String> before = people("main");
    assertThatThrownBy(() -> graph.merge("f", "main", MergeOptions.defaults()))
        .isInstanceOfSatisfying(ResourceLimitException.class, e -> {
          ErrorDetail.ResourceLimit d = (ErrorDetail.ResourceLimit) e.detail().orElseThrow();
          assertThat(d.resource()).isEqualTo("branch-merge delete plan bytes");
          assertThat(d.limit()).isEqualTo(200);
        });
    assertThat(people("main")).isEqualTo(before);
    assertThat(noSidecar()).isTrue();
  }

  /**
   * The {@code @unique} check streams the target and keeps only the holders of the taken rows'
   * tuples: with 3,000 target rows and 5 taken ones the validation charge stays at a few rows' worth,
   * and the collision is still found.
   */
  @Test
  void theUniqueCheckKeepsOnlyTheTargetHoldersOfTheTakenTuples() {
    StringBuilder base = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      base.append("{\"type\":\"Person\",\"data\":{\"name\":\"").append(String.format("u%05d", i))
          .append("\",\"email\":\"").append(String.format("e%05d@x", i)).append("\"}}\n");
    }
    load("main", LoadMode.APPEND, base.toString());
    graph.createBranch("f", null);
    for (int i = 0; i < 4; i++) {
      run("f", "add_person_email", Map.of("name", "new" + i, "email", "fresh" + i + "@x"));
    }
    run("f", "add_person_email", Map.of("name", "clash", "email", "shared@x"));
    run("main", "add_person_email", Map.of("name", "zzz-main", "email", "shared@x"));
    ConflictException e = org.junit.jupiter.api.Assertions.assertThrows(ConflictException.class,
        () -> graph.merge("f", "main", MergeOptions.defaults()));
    List<ErrorDetail.MergeConflict> conflicts = ((ErrorDetail.MergeConflicts) e.detail().orElseThrow()).conflicts();
    assertThat(conflicts).extracting(ErrorDetail.MergeConflict::kind, ErrorDetail.MergeConflict::entityId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("unique_violation", "clash"));
    assertThat(BranchMerge.lastMemory.validationBytes()).as("validation bytes charged")
        .isPositive().isLessThan(16 * 1024);
  }

  @Test
  void theProductBudgetsAreTheSeedsLimits() {
    assertThat(BranchMerge.scanRows).isEqualTo(8192);
    assertThat(BranchMerge.validationBytes).isEqualTo(32L * 1024 * 1024);
    assertThat(BranchMerge.deletePlanBytes).isEqualTo(32L * 1024 * 1024);
  }
}
