package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CleanupOptions;
import io.omnigraph.api.CleanupReport;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code cleanup} on the S3 emulator (docs/maintenance.md, "cleanup"): the preview lists versions no
 * commit pins, {@code --confirm} removes exactly those (the pin tags work on an object store), and
 * every commit exports what it exported before.
 */
class S3CleanupTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @Test
  void cleanupOnAnObjectStoreRemovesOnlyUnpinnedVersionsAndEveryCommitStillExports() {
    String uri = "s3://" + S3.server().createBucket() + "/graphs/cleanup";
    OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(S3.server().endpoint()), MaintenancePolicy.off());
    Map<String, String> before;
    String head;
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
      for (int i = 0; i < 3; i++) {
        load(g, LoadMode.MERGE, PeopleGraph.person("p" + i, i));
      }
      g.optimize();
      before = exportEveryCommit(g);
      head = export(g);
    }
    CleanupReport preview = Omnigraph.cleanup(uri, options, new CleanupOptions(1, Duration.ZERO, false));
    assertThat(preview.versionCount()).as(preview.toString()).isPositive();
    CleanupReport done = Omnigraph.cleanup(uri, options, new CleanupOptions(1, Duration.ZERO, true));
    assertThat(done.tables()).extracting(CleanupReport.TableCleanup::versions)
        .isEqualTo(preview.tables().stream().map(CleanupReport.TableCleanup::versions).toList());
    assertThat(Omnigraph.cleanup(uri, options, new CleanupOptions(1, Duration.ZERO, false)).tables()).isEmpty();
    try (Graph g = Omnigraph.open(uri, options)) {
      assertThat(exportEveryCommit(g)).isEqualTo(before);
      assertThat(export(g)).isEqualTo(head);
    }
  }

  /**
   * A version only a non-main branch's commits pin is never removed, on an object store: the
   * branch's first write forks {@code node:Person} onto its own ref, whose versions no commit of
   * main names; main's optimize (before the fork) leaves a version no commit pins, so the cleanup has
   * work to do.
   */
  @Test
  void aVersionOnlyABranchCommitPinsSurvivesOnAnObjectStore() {
    String uri = "s3://" + S3.server().createBucket() + "/graphs/cleanup-branch";
    OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(S3.server().endpoint()), MaintenancePolicy.off());
    Map<String, String> before;
    String feature;
    List<Long> branchVersions;
    java.util.Set<Long> branchPins = new java.util.TreeSet<>();
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
      for (int i = 0; i < 3; i++) {
        load(g, LoadMode.MERGE, PeopleGraph.person("p" + i, i));
      }
      g.optimize(); // main: an index build no commit pins (removable), then the compaction it publishes
      // Main writes nothing after the fork, so no commit of main pins a number the branch's own
      // versions of node:Person carry: only the branch's commits pin them.
      g.createBranch("feature", "main");
      io.omnigraph.api.LoadOptions onFeature = io.omnigraph.api.LoadOptions.defaults().withBranch("feature");
      for (int i = 1; i <= 3; i++) {
        load(g, LoadMode.MERGE, PeopleGraph.person("f" + i, i), onFeature);
      }
      g.commits("feature").forEach(c -> branchPins.add(c.tableVersions().get("node:Person")));
      branchVersions = featurePersonVersions((LanceGraph) g);
      before = exportEveryCommit(g);
      feature = exportBranch(g, "feature");
    }
    // The branch's ref holds versions only its commits pin, more than the one --keep 1 would keep anyway.
    List<Long> onlyBranchPinned = branchVersions.stream().filter(branchPins::contains).toList();
    assertThat(onlyBranchPinned).as("%s vs pins %s", branchVersions, branchPins).hasSizeGreaterThanOrEqualTo(2);
    CleanupReport done = Omnigraph.cleanup(uri, options, new CleanupOptions(1, Duration.ZERO, true));
    assertThat(done.versionCount()).as(done.toString()).isPositive();
    assertThat(done.tables()).as(done.toString()).filteredOn(t -> t.branch().equals("feature"))
        .allMatch(t -> t.versions().stream().noneMatch(branchPins::contains));
    try (Graph g = Omnigraph.open(uri, options)) {
      assertThat(featurePersonVersions((LanceGraph) g)).containsAll(onlyBranchPinned);
      assertThat(exportEveryCommit(g)).isEqualTo(before);
      assertThat(exportBranch(g, "feature")).isEqualTo(feature).contains("\"f1\"", "\"f3\"");
    }
  }

  /** The versions of node:Person on the feature branch's own Lance ref. */
  static List<Long> featurePersonVersions(LanceGraph g) {
    var e = g.snapshots().latest("feature").table("node:Person").orElseThrow();
    assertThat(e.branch()).as("the branch forked node:Person").isEqualTo("feature");
    var loc = io.omnigraph.engine.table.TableReader.branchLocation(g.root().lance(e.path()), e.branch());
    return g.tables().reader().versions(loc).stream().map(v -> v[0]).toList();
  }

  static String exportBranch(Graph g, String branch) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    g.export(bytes, branch);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  static Map<String, String> exportEveryCommit(Graph g) {
    Map<String, String> out = new LinkedHashMap<>();
    for (var b : g.branches()) {
      for (CommitInfo c : g.commits(b.name())) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        g.exportCommit(bytes, c.id());
        out.put(c.id(), bytes.toString(StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
