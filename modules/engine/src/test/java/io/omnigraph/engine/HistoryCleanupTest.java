package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CleanupOptions;
import io.omnigraph.api.CleanupReport;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cleanup}'s rules (docs/maintenance.md, "cleanup"), one a test, on real graphs on local disk.
 * Automatic maintenance is off so that the versions each step makes are exactly the ones named here.
 */
class HistoryCleanupTest {
  static final OpenOptions OPTIONS = new OpenOptions(Map.of(), MaintenancePolicy.off());

  @TempDir Path dir;
  String uri;
  Graph graph;

  @BeforeEach
  void init() {
    uri = dir.resolve("g").toString();
    graph = Omnigraph.init(uri, PeopleGraph.SCHEMA, OPTIONS);
  }

  @AfterEach
  void close() {
    if (graph != null) {
      graph.close();
    }
  }

  LanceGraph lance() {
    return (LanceGraph) graph;
  }

  void writes(int from, int to) {
    for (int i = from; i < to; i++) {
      load(graph, LoadMode.MERGE, PeopleGraph.person("p" + i, i)
          + "{\"type\":\"Company\",\"data\":{\"title\":\"c" + i + "\"}}\n");
    }
  }

  /** Every commit of every branch, exported as that commit left the graph. */
  Map<String, String> exportEveryCommit() {
    Map<String, String> out = new LinkedHashMap<>();
    List<String> branches = graph.branches().stream().map(b -> b.name()).toList();
    for (String b : branches) {
      for (CommitInfo c : graph.commits(b)) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        graph.exportCommit(bytes, c.id());
        out.put(c.id(), bytes.toString(StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** The versions of a table that commits of any branch pin. */
  Set<Long> pinnedByCommits(String tableKey) {
    Set<Long> pins = new TreeSet<>();
    for (var b : graph.branches()) {
      for (CommitInfo c : graph.commits(b.name())) {
        Long v = c.tableVersions().get(tableKey);
        if (v != null) {
          pins.add(v);
        }
      }
    }
    return pins;
  }

  CleanupReport cleanup(int keep, Duration olderThan, boolean confirm) {
    graph.close();
    graph = null;
    try {
      return Omnigraph.cleanup(uri, OPTIONS, new CleanupOptions(keep, olderThan, confirm));
    } finally {
      graph = Omnigraph.open(uri, OPTIONS);
    }
  }

  static List<Long> versionsOf(CleanupReport r, String table, String branch) {
    return r.tables().stream().filter(t -> t.table().equals(table) && t.branch().equals(branch))
        .flatMap(t -> t.versions().stream()).toList();
  }

  List<Long> lanceVersions(String tableKey) {
    var e = lance().state().table(tableKey).orElseThrow();
    return lance().tables().reader().versions(lance().root().lance(e.path())).stream().map(v -> v[0]).toList();
  }

  @Test
  void aPreviewListsTheVersionsNoCommitPinsWithTheirBytesAndRemovesNothing() {
    writes(0, 4);
    graph.optimize(); // its index build is a version no commit pins; its compaction is the one it publishes
    List<Long> before = lanceVersions("node:Person");
    Map<String, String> exports = exportEveryCommit();
    CleanupReport preview = cleanup(1, Duration.ZERO, false);
    assertThat(preview.applied()).isFalse();
    List<Long> person = versionsOf(preview, "node:Person", "main");
    assertThat(person).as(preview.toString()).isNotEmpty().doesNotContainAnyElementsOf(pinnedByCommits("node:Person"));
    // Non-prefix: version 1 (genesis) is pinned and older than every listed version.
    assertThat(person).allMatch(v -> v > 1);
    assertThat(preview.tables()).allMatch(t -> t.bytesRemoved() == -1);
    assertThat(lanceVersions("node:Person")).isEqualTo(before);
    assertThat(exportEveryCommit()).isEqualTo(exports);
  }

  @Test
  void confirmRemovesExactlyThePreviewedVersionsAndEveryCommitStillExportsTheSame() {
    writes(0, 4);
    graph.optimize();
    writes(4, 6);
    graph.optimize();
    Map<String, String> exports = exportEveryCommit();
    String head = export(graph);
    CleanupReport preview = cleanup(1, Duration.ZERO, false);
    List<Long> previewed = versionsOf(preview, "node:Person", "main");
    List<Long> before = lanceVersions("node:Person");
    CleanupReport done = cleanup(1, Duration.ZERO, true);
    assertThat(done.applied()).isTrue();
    assertThat(versionsOf(done, "node:Person", "main")).isEqualTo(previewed);
    assertThat(lanceVersions("node:Person")).containsExactlyElementsOf(
        before.stream().filter(v -> !previewed.contains(v)).toList());
    assertThat(lanceVersions("node:Person")).containsAll(pinnedByCommits("node:Person"));
    assertThat(done.tables()).allMatch(t -> t.bytesRemoved() > 0);
    assertThat(exportEveryCommit()).isEqualTo(exports);
    assertThat(export(graph)).isEqualTo(head);
    // Nothing left to remove, and the pin tags are gone.
    assertThat(cleanup(1, Duration.ZERO, false).tables()).isEmpty();
    try (Stream<Path> files = Files.walk(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("omnigraph-pin-"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // Writes after cleanup land and read back.
    writes(6, 7);
    assertThat(export(graph)).contains("\"p6\"");
  }

  @Test
  void keepKeepsTheNewestVersionsOfEachTableEvenWhenNoCommitPinsThem() {
    writes(0, 3);
    graph.optimize();
    List<Long> versions = lanceVersions("node:Person");
    List<Long> all = versionsOf(cleanup(1, Duration.ZERO, false), "node:Person", "main");
    long newestUnpinned = all.get(all.size() - 1);
    // keep = how many versions from the newest unpinned one to the head: that one must stay.
    int keep = versions.size() - versions.indexOf(newestUnpinned);
    List<Long> kept = versionsOf(cleanup(keep, Duration.ZERO, false), "node:Person", "main");
    assertThat(kept).doesNotContain(newestUnpinned).isEqualTo(all.subList(0, all.size() - 1));
    cleanup(keep, Duration.ZERO, true);
    assertThat(lanceVersions("node:Person")).contains(newestUnpinned);
  }

  @Test
  void olderThanKeepsVersionsYoungerThanTheBound() {
    writes(0, 3);
    graph.optimize();
    assertThat(cleanup(1, Duration.ZERO, false).tables()).isNotEmpty();
    List<Long> before = lanceVersions("node:Person");
    CleanupReport young = cleanup(1, Duration.ofDays(1), true);
    assertThat(young.tables()).isEmpty();
    assertThat(lanceVersions("node:Person")).isEqualTo(before);
  }

  @Test
  void aVersionOnlyABranchCommitPinsSurvives() {
    writes(0, 2);
    graph.createBranch("feature", "main");
    LoadOptions onFeature = LoadOptions.defaults().withBranch("feature");
    load(graph, LoadMode.MERGE, PeopleGraph.person("f1", 1), onFeature);
    load(graph, LoadMode.MERGE, PeopleGraph.person("f2", 2), onFeature);
    load(graph, LoadMode.MERGE, PeopleGraph.person("f3", 3), onFeature);
    // The branch's first write forked node:Person; its older versions on the branch's ref are pinned
    // only by the branch's commits (main has not written since the fork).
    Map<String, String> exports = exportEveryCommit();
    String feature = exportBranch("feature");
    CleanupReport done = cleanup(1, Duration.ZERO, true);
    assertThat(versionsOf(done, "node:Person", "feature")).isEmpty();
    assertThat(exportEveryCommit()).isEqualTo(exports);
    assertThat(exportBranch("feature")).isEqualTo(feature).contains("\"f1\"", "\"f3\"");
  }

  @Test
  void aTableABranchStillSharesWithMainKeepsTheVersionTheBranchPublishes() {
    writes(0, 3);
    graph.createBranch("feature", "main");
    load(graph, LoadMode.MERGE, PeopleGraph.person("f1", 1), LoadOptions.defaults().withBranch("feature"));
    // node:Company was never written on the branch: it still reads main's version from the fork.
    writes(3, 5);
    graph.optimize();
    Map<String, String> exports = exportEveryCommit();
    String feature = exportBranch("feature");
    cleanup(1, Duration.ZERO, true);
    assertThat(exportEveryCommit()).isEqualTo(exports);
    assertThat(exportBranch("feature")).isEqualTo(feature).contains("\"c2\"");
  }

  @Test
  void aPendingSidecarRefusesAndTheVersionRecoveryNeedsStays() {
    writes(0, 2);
    InterruptedWrite w = InterruptedWrite.run(lance(), PeopleGraph.person("late", 9), "svc",
        InterruptedWrite.StopAt.AFTER_FIRST_COMMIT);
    // The committed, unpublished version is pinned by no commit: only the sidecar needs it.
    List<Long> before = lanceVersions("node:Person");
    String sidecar = "__recovery/" + w.sidecar.operationId() + ".json";
    graph.close();
    graph = null;
    assertThatThrownBy(() -> Omnigraph.cleanup(uri, OPTIONS, new CleanupOptions(1, Duration.ZERO, true)))
        .isInstanceOf(RecoveryRequiredException.class).hasMessageContaining(w.sidecar.operationId());
    assertThatThrownBy(() -> Omnigraph.cleanup(uri, OPTIONS, new CleanupOptions(1, Duration.ZERO, false)))
        .isInstanceOf(RecoveryRequiredException.class);
    assertThat(Path.of(uri, sidecar)).exists();
    graph = Omnigraph.open(uri, OPTIONS); // the open resolves the sidecar
    assertThat(lanceVersions("node:Person")).containsAll(before);
    assertThat(Path.of(uri, sidecar)).doesNotExist();
    assertThat(cleanup(1, Duration.ZERO, true).applied()).isTrue();
  }

  /** PeopleGraph without Company and WorksAt: applying it soft-drops both. */
  static final String PERSON_ONLY = """
      node Person {
        name: String @key
        age: I32?
      }
      """;

  List<Long> lanceVersionsAt(String path) {
    return lance().tables().reader().versions(lance().root().lance(path)).stream().map(v -> v[0]).toList();
  }

  @Test
  void aSoftDroppedTableIsCleanedUnderTheSameRulesAndEveryCommitStillReadsIt() {
    writes(0, 4);
    graph.optimize(); // node:Company: an index build no commit pins, then the compaction it publishes
    String company = lance().state().table("node:Company").orElseThrow().path();
    Set<Long> pinned = pinnedByCommits("node:Company");
    graph.applySchema(PERSON_ONLY, io.omnigraph.api.SchemaApplyOptions.defaults()); // soft drops
    assertThat(lance().state().table("node:Company")).isEmpty();
    Map<String, String> exports = exportEveryCommit();
    assertThat(exports.values()).anyMatch(e -> e.contains("\"c3\""));
    List<Long> before = lanceVersionsAt(company);
    CleanupReport preview = cleanup(1, Duration.ZERO, false);
    List<Long> listed = versionsOf(preview, "node:Company", "main");
    assertThat(listed).as(preview.toString()).isNotEmpty().doesNotContainAnyElementsOf(pinned);
    assertThat(lanceVersionsAt(company)).isEqualTo(before);
    CleanupReport done = cleanup(1, Duration.ZERO, true);
    assertThat(versionsOf(done, "node:Company", "main")).isEqualTo(listed);
    assertThat(lanceVersionsAt(company)).containsExactlyElementsOf(
        before.stream().filter(v -> !listed.contains(v)).toList()).containsAll(pinned);
    assertThat(exportEveryCommit()).isEqualTo(exports);
    assertThat(cleanup(1, Duration.ZERO, false).tables()).isEmpty();
  }

  @Test
  void aPendingSidecarRefusesTheCleanupOfASoftDroppedTable() {
    writes(0, 3);
    graph.optimize();
    String company = lance().state().table("node:Company").orElseThrow().path();
    graph.applySchema(PERSON_ONLY, io.omnigraph.api.SchemaApplyOptions.defaults());
    assertThat(versionsOf(cleanup(1, Duration.ZERO, false), "node:Company", "main")).isNotEmpty();
    List<Long> before = lanceVersionsAt(company);
    InterruptedWrite.run(lance(), PeopleGraph.person("late", 9), "svc", InterruptedWrite.StopAt.AFTER_FIRST_COMMIT);
    graph.close();
    graph = null;
    assertThatThrownBy(() -> Omnigraph.cleanup(uri, OPTIONS, new CleanupOptions(1, Duration.ZERO, true)))
        .isInstanceOf(RecoveryRequiredException.class);
    assertThatThrownBy(() -> Omnigraph.cleanup(uri, OPTIONS, new CleanupOptions(1, Duration.ZERO, false)))
        .isInstanceOf(RecoveryRequiredException.class);
    graph = Omnigraph.open(uri, OPTIONS);
    assertThat(lanceVersionsAt(company)).isEqualTo(before);
  }

  @Test
  void aVersionOnlyACommitBeforeARenamePinsSurvives() {
    writes(0, 4);
    graph.optimize();
    // The commits so far name the table node:Company; after the rename every new commit names it node:Firm.
    Set<Long> pinnedBefore = pinnedByCommits("node:Company");
    graph.applySchema(PeopleGraph.SCHEMA.replace("node Company {", "node Firm @rename_from(\"Company\") {")
        .replace("Person -> Company", "Person -> Firm"), io.omnigraph.api.SchemaApplyOptions.defaults());
    String firm = lance().state().table("node:Firm").orElseThrow().path();
    Map<String, String> exports = exportEveryCommit();
    CleanupReport done = cleanup(1, Duration.ZERO, true);
    // Something of the renamed table goes (the index build no commit pins), nothing an old commit pins.
    assertThat(versionsOf(done, "node:Firm", "main")).as(done.toString()).isNotEmpty()
        .doesNotContainAnyElementsOf(pinnedBefore);
    assertThat(lanceVersionsAt(firm)).containsAll(pinnedBefore);
    assertThat(exportEveryCommit()).isEqualTo(exports);
  }

  String exportBranch(String branch) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    graph.export(bytes, branch);
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
