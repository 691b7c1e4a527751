package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.engine.TestSeams;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.load.OverwriteSpool;
import io.omnigraph.testkit.graph.GraphIo;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An overwrite load of a table its branch has not written yet follows sidecar-before-ref
 * (docs/branches.md, "Lazy table forks"): while it prepares, its validated batches go to a spool file
 * (no ref exists yet); the ref is forked, the spool staged onto it and the spool removed only after
 * the sidecar is armed; every failure leaves no fork, no sidecar and no spool file. Real Lance on
 * local disk.
 */
class FirstTouchOverwriteTest {
  static final String MAIN_ROWS = """
      {"type":"Person","data":{"name":"ada","age":36}}
      {"type":"Person","data":{"name":"bob","age":40}}
      """;
  static final String NEW_ROWS = """
      {"type":"Person","data":{"name":"cyd","age":21}}
      {"type":"Person","data":{"name":"dan"}}
      """;

  @TempDir Path dir;
  Path root;
  Path spools;
  Graph graph;

  @BeforeEach
  void init() throws Exception {
    root = dir.resolve("g");
    spools = Files.createDirectory(dir.resolve("spool"));
    System.setProperty(OverwriteSpool.DIR_PROPERTY, spools.toString());
    graph = Omnigraph.init(root.toString(), SCHEMA);
    GraphIo.load(graph, LoadMode.MERGE, MAIN_ROWS);
    graph.createBranch("dev", null);
  }

  @AfterEach
  void close() {
    System.clearProperty(OverwriteSpool.DIR_PROPERTY);
    System.clearProperty(OverwriteSpool.MAX_BYTES_PROPERTY);
    if (graph != null) {
      graph.close();
    }
  }

  LoadResult overwriteDev() {
    return GraphIo.load(graph, LoadMode.OVERWRITE, NEW_ROWS, LoadOptions.defaults().withBranch("dev"));
  }

  String export(String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Whether the Person table has anything of its ref {@code tree/dev}: the contents record or the tree. */
  boolean personForked() throws Exception {
    Path t = root.resolve(TestSeams.tablePath(graph, "node:Person"));
    return Files.exists(t.resolve("tree/dev")) || Files.exists(t.resolve("_refs/branches/dev.json"));
  }

  List<String> files(Path d) throws Exception {
    if (!Files.exists(d)) {
      return List.of();
    }
    try (var s = Files.list(d)) {
      return s.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith(".")).toList();
    }
  }

  /**
   * The batches are spooled while the load prepares, with no ref yet; a failure at the sidecar put,
   * after arming, after the fork and after the spool was staged onto the fork (before the commit)
   * leaves no fork, no sidecar and no spool; then the same load lands on dev only.
   */
  @Test
  void aFirstTouchOverwriteSpoolsWhilePreparingAndForksOnlyUnderTheArmedSidecar() throws Exception {
    List<String> atWindow = new ArrayList<>();
    TestSeams.beforeEffectWindow(graph, () -> {
      try {
        // Prepared: the rows wait in the spool; the ref does not exist yet.
        atWindow.add(files(spools).size() + " spool, forked " + personForked());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    for (String f : List.of(Failpoints.SIDECAR_WRITE, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT,
        Failpoints.TABLE_FORK_POST_NATIVE, Failpoints.TABLE_COMMIT_BEFORE)) {
      try (var armed = Failpoints.arm(f, FailAction.error())) {
        assertThatThrownBy(this::overwriteDev).as(f).isInstanceOf(OmnigraphException.class)
            .satisfies(t -> assertThat(Failpoints.injectedBy(t)).contains(f));
        assertThat(armed.fired()).as(f).isEqualTo(1);
      }
      assertThat(personForked()).as(f + ": a fork is left").isFalse();
      assertThat(files(root.resolve("__recovery"))).as(f + ": sidecars").noneMatch(n -> n.endsWith(".json"));
      assertThat(files(spools)).as(f + ": spool files").isEmpty();
      assertThat(graph.commits("dev")).as(f).hasSize(graph.commits().size());
    }
    LoadResult r = overwriteDev();
    assertThat(r.rowsByTable()).containsEntry("node:Person", 2L);
    assertThat(atWindow).hasSize(5).allMatch(s -> s.equals("1 spool, forked false"));
    assertThat(files(spools)).isEmpty();
    assertThat(personForked()).isTrue();
    assertThat(export("dev")).contains("cyd", "dan").doesNotContain("ada", "bob");
    assertThat(export("main")).contains("ada", "bob").doesNotContain("cyd", "dan");
    // The table is dev's own now: the next overwrite streams to its ref while it reads, no spool.
    atWindow.clear();
    GraphIo.load(graph, LoadMode.OVERWRITE, MAIN_ROWS, LoadOptions.defaults().withBranch("dev"));
    assertThat(atWindow).containsExactly("0 spool, forked true");
    assertThat(export("dev")).contains("ada", "bob").doesNotContain("cyd");
  }

  /** A spool over its cap is a typed 413 found while preparing: nothing armed, nothing forked, no file left. */
  @Test
  void aSpoolOverItsCapIsATypedLimitBeforeAnythingIsArmed() throws Exception {
    System.setProperty(OverwriteSpool.MAX_BYTES_PROPERTY, "64");
    try (var armed = Failpoints.arm(Failpoints.SIDECAR_WRITE, FailAction.error())) {
      assertThatThrownBy(this::overwriteDev).isInstanceOfSatisfying(ResourceLimitException.class, e ->
          assertThat(((ErrorDetail.ResourceLimit) e.detail().orElseThrow()).resource()).isEqualTo(OverwriteSpool.RESOURCE));
      assertThat(armed.fired()).isZero();
    }
    assertThat(personForked()).isFalse();
    assertThat(files(spools)).isEmpty();
    assertThat(export("dev")).contains("ada", "bob");
  }
}
