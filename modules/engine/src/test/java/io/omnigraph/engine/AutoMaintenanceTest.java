package io.omnigraph.engine;

import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.WriteWarning;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.maintenance.AutoMaintenance;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Automatic bounded maintenance (docs/maintenance.md, "Automatic maintenance"): writes past the
 * fragment threshold compact by themselves, rows never change, and a maintenance failure after the
 * write's publish is a warning on the write's result, never the write's failure.
 */
class AutoMaintenanceTest {
  /** Writes of {@link #aGraphThroughManyWritesAndOptimizeExportsWhatItExportedBefore} (1,000 for the full check). */
  static final String WRITES_PROPERTY = "omnigraph.maintenance.writes";
  static final String UPDATE = "query older($name: String, $age: I32) { update Person set { age: $age } where name = $name }";
  static final String PURGE = "query purge($name: String) { delete Person where name = $name }";

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    Failpoints.disarmAll();
  }

  Graph init(String name, MaintenancePolicy policy) {
    return Omnigraph.init(dir.resolve(name).toString(), PeopleGraph.SCHEMA, OpenOptions.defaults().withMaintenance(policy));
  }

  static int fragments(Graph g, String key) {
    LanceGraph l = (LanceGraph) g;
    var e = l.state().table(key).orElseThrow();
    try (var s = l.tables().reader().openAt(l.root().lance(e.path()), e.version())) {
      return l.tables().reader().fragmentCount(s);
    }
  }

  static int manifestFragments(Graph g) {
    LanceGraph l = (LanceGraph) g;
    var loc = l.root().lance(ManifestStore.PATH);
    try (var s = l.tables().reader().openAt(loc, l.tables().reader().latestVersionOf(loc))) {
      return l.tables().reader().fragmentCount(s);
    }
  }

  static List<String> pendingSidecars(Graph g) {
    return ((LanceGraph) g).recovery().sidecars().list();
  }

  static long automaticCommits(Graph g) {
    return g.commits().stream().map(CommitInfo::message).filter(AutoMaintenance.MESSAGE::equals).count();
  }

  /** One write of a mixed workload: inserts, updates, edge merges and deletes. */
  static Object write(Graph g, int i) {
    if (i % 3 == 0) {
      return load(g, LoadMode.APPEND, PeopleGraph.person("p" + i, i));
    }
    if (i % 3 == 1) {
      return g.mutate(UPDATE, "older", QueryParams.of(Map.of("name", "p" + (i - 1), "age", 100 + i)),
          MutationOptions.defaults());
    }
    if (i % 9 == 8) { // deletes p(i-8), cascading to the edge written at i-6
      return g.mutate(PURGE, "purge", QueryParams.of(Map.of("name", "p" + (i - 8))), MutationOptions.defaults());
    }
    return load(g, LoadMode.MERGE, "{\"edge\":\"WorksAt\",\"from\":\"p" + (i - 2) + "\",\"to\":\"c" + (i % 4)
        + "\",\"data\":{\"since\":" + (2000 + i) + "}}\n");
  }

  static void companies(Graph g) {
    load(g, LoadMode.APPEND, "{\"type\":\"Company\",\"data\":{\"title\":\"c0\"}}\n{\"type\":\"Company\",\"data\":{\"title\":\"c1\"}}\n"
        + "{\"type\":\"Company\",\"data\":{\"title\":\"c2\"}}\n{\"type\":\"Company\",\"data\":{\"title\":\"c3\"}}\n");
  }

  static List<WriteWarning> warnings(Object result) {
    return result instanceof LoadResult l ? l.warnings() : ((MutationResult) result).warnings();
  }

  @Test
  void fragmentCountsStayBoundedWhileWritesContinueAndNoRowChanges() {
    int threshold = 4;
    int writes = 30;
    try (Graph on = init("on", MaintenancePolicy.atFragments(threshold)); Graph off = init("off", MaintenancePolicy.off())) {
      companies(on);
      companies(off);
      int maxPeople = 0;
      int maxManifest = 0;
      for (int i = 0; i < writes; i++) {
        assertThat(warnings(write(on, i))).as("write " + i).isEmpty();
        write(off, i);
        maxPeople = Math.max(maxPeople, fragments(on, "node:Person"));
        maxManifest = Math.max(maxManifest, manifestFragments(on));
      }
      // Bounded by the threshold (plus the fragment of the write that reached it) — without
      // maintenance every write leaves one more. __manifest: two more at most, when its compaction
      // waited for the write after a table compaction (docs/maintenance.md, "Automatic maintenance").
      assertThat(maxPeople).isLessThanOrEqualTo(threshold);
      assertThat(maxManifest).isLessThanOrEqualTo(threshold + 2);
      assertThat(fragments(off, "node:Person")).isGreaterThan(threshold);
      assertThat(manifestFragments(off)).isGreaterThan(writes);
      assertThat(automaticCommits(on)).isPositive();
      assertThat(automaticCommits(off)).isZero();
      assertThat(on.commits()).allSatisfy(c -> {
        if (AutoMaintenance.MESSAGE.equals(c.message())) {
          assertThat(c.actor()).isEqualTo(AutoMaintenance.ACTOR);
        }
      });
      // Every write made its commit; maintenance only added its own.
      assertThat(on.commits().size() - automaticCommits(on)).isEqualTo(off.commits().size());
      assertThat(withoutEdgeIds(export(on))).isEqualTo(withoutEdgeIds(export(off)));
      assertThat(pendingSidecars(on)).isEmpty();
    }
  }

  @Test
  void maintenanceOffLeavesOneFragmentPerWrite() {
    try (Graph g = init("g", MaintenancePolicy.off())) {
      for (int i = 0; i < 6; i++) {
        load(g, LoadMode.APPEND, PeopleGraph.person("p" + i, i));
      }
      assertThat(fragments(g, "node:Person")).isEqualTo(6);
      assertThat(automaticCommits(g)).isZero();
    }
  }

  @Test
  void aWriteOnlyLooksWhenItsOwnFragmentsCrossTheThreshold() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(3))) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      load(g, LoadMode.APPEND, PeopleGraph.person("b", 2));
      assertThat(fragments(g, "node:Person")).isEqualTo(2);
      assertThat(automaticCommits(g)).isZero();
      load(g, LoadMode.APPEND, PeopleGraph.person("c", 3)); // the third fragment: compacted to one
      assertThat(fragments(g, "node:Person")).isEqualTo(1);
      assertThat(automaticCommits(g)).isEqualTo(1);
      assertThat(g.commits().get(0).message()).isEqualTo(AutoMaintenance.MESSAGE);
      assertThat(g.commits().get(1).message()).isNotEqualTo(AutoMaintenance.MESSAGE);
    }
  }

  /**
   * A caller that expects the head its own write returned still writes after maintenance put a
   * commit on top: the maintenance commit changes no row (an ordinary commit on top is still 412).
   */
  @Test
  void anExpectedHeadStillHoldsWhenOnlyMaintenanceCameAfterIt() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(2))) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      LoadResult w = load(g, LoadMode.APPEND, PeopleGraph.person("b", 2));
      assertThat(g.commits().get(0).message()).isEqualTo(AutoMaintenance.MESSAGE);
      assertThat(g.commits().get(1).id()).isEqualTo(w.commitId());
      MutationResult m = g.mutate(UPDATE, "older", QueryParams.of(Map.of("name", "a", "age", 40)),
          new MutationOptions(null, null, w.commitId(), null));
      assertThat(m.commitId()).isNotNull();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> load(g, LoadMode.APPEND, PeopleGraph.person("c", 3),
          io.omnigraph.api.LoadOptions.defaults().withExpectedHead(w.commitId())))
          .isInstanceOf(io.omnigraph.api.PreconditionFailedException.class);
    }
  }

  @Test
  void aFailureAfterATableEffectIsAWarningAndRecoveryPublishesTheCompaction() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(2))) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      LoadResult r;
      try (var armed = Failpoints.arm(Failpoints.OPTIMIZE_POST_TABLE_EFFECT, new FailAction.Error())) {
        r = load(g, LoadMode.APPEND, PeopleGraph.person("b", 2));
      }
      assertThat(r.warnings()).singleElement().satisfies(w -> {
        assertThat(w.code()).isEqualTo(WriteWarning.MAINTENANCE_FAILED);
        assertThat(w.cause().code()).isEqualTo("recovery_required");
        assertThat(w.cause().detail()).containsInstanceOf(ErrorDetail.RecoveryRequired.class);
      });
      // The write is published, and the compaction it started was published by recovery at once.
      assertThat(g.commits()).anySatisfy(c -> assertThat(c.id()).isEqualTo(r.commitId()));
      assertThat(pendingSidecars(g)).isEmpty();
      assertThat(fragments(g, "node:Person")).isEqualTo(1);
      assertThat(g.recoveries()).hasSize(1);
      assertThat(export(g)).contains("\"name\":\"b\"").contains("\"name\":\"a\"");
      // The next write runs normally.
      assertThat(load(g, LoadMode.APPEND, PeopleGraph.person("c", 3)).warnings()).isEmpty();
    }
  }

  @Test
  void aFailureBeforeAnyTableEffectIsAWarningAndLeavesNothingBehind() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(2))) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      LoadResult r;
      try (var armed = Failpoints.arm(Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT, new FailAction.Error())) {
        r = load(g, LoadMode.APPEND, PeopleGraph.person("b", 2));
      }
      assertThat(r.warnings()).singleElement().extracting(WriteWarning::code).isEqualTo(WriteWarning.MAINTENANCE_FAILED);
      assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
      // The sidecar of the interrupted optimize (its writer is this finished call) is discarded at
      // once: without that the next write's roll-forward-only barrier would refuse.
      assertThat(pendingSidecars(g)).isEmpty();
      assertThat(g.recoveries()).isEmpty();
      assertThat(fragments(g, "node:Person")).isEqualTo(2);
      MutationResult next = g.mutate(UPDATE, "older", QueryParams.of(Map.of("name", "a", "age", 40)),
          MutationOptions.defaults());
      assertThat(next.commitId()).isNotNull();
    }
  }

  @Test
  void aFailureBeforeTheOptimizeStartsIsAWarning() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(2))) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      LoadResult r;
      try (var armed = Failpoints.arm(Failpoints.MAINTENANCE_POST_WRITE, new FailAction.Error())) {
        r = load(g, LoadMode.APPEND, PeopleGraph.person("b", 2));
      }
      assertThat(r.warnings()).singleElement().satisfies(w -> assertThat(w.cause().code()).isEqualTo("internal"));
      assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
      assertThat(pendingSidecars(g)).isEmpty();
    }
  }

  /**
   * The maintenance actor is reserved: a user load, mutation, merge or schema apply that names it is
   * refused before anything is written, so every commit by that actor is automatic maintenance.
   */
  @Test
  void aUserWriteWithTheMaintenanceActorIsRefusedAndWritesNothing() {
    String actor = MaintenancePolicy.COMMIT_ACTOR;
    try (Graph g = init("g", MaintenancePolicy.off())) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      g.createBranch("side", "main");
      int commits = g.commits().size();
      String before = export(g);
      List<Runnable> writes = List.of(
          () -> load(g, LoadMode.APPEND, PeopleGraph.person("b", 2), io.omnigraph.api.LoadOptions.defaults().withActor(actor)),
          () -> g.mutate(UPDATE, "older", QueryParams.of(Map.of("name", "a", "age", 7)),
              new MutationOptions(actor, null, null)),
          () -> g.mutate(g.prepareMutation(UPDATE, "older"), QueryParams.of(Map.of("name", "a", "age", 7)),
              new MutationOptions(actor, null, null)),
          () -> g.merge("side", "main", io.omnigraph.api.MergeOptions.defaults().withActor(actor)),
          () -> g.applySchema(PeopleGraph.SCHEMA, new io.omnigraph.api.SchemaApplyOptions(false, actor, null)));
      for (Runnable w : writes) {
        org.assertj.core.api.Assertions.assertThatThrownBy(w::run)
            .isInstanceOf(io.omnigraph.api.InvalidInputException.class)
            .hasMessageContaining("reserved")
            .satisfies(e -> assertThat(((io.omnigraph.api.InvalidInputException) e).detail()).contains(
                new ErrorDetail.Validation(null, null, "actor", AutoMaintenance.RESERVED_ACTOR)));
      }
      assertThat(g.commits()).hasSize(commits);
      assertThat(export(g)).isEqualTo(before);
      // Any other actor writes.
      load(g, LoadMode.APPEND, PeopleGraph.person("b", 2), io.omnigraph.api.LoadOptions.defaults().withActor("svc"));
      assertThat(g.commits().get(0).actor()).isEqualTo("svc");
    }
  }

  @Test
  void writesOnABranchDoNotScheduleMaintenance() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(2))) {
      load(g, LoadMode.APPEND, PeopleGraph.person("a", 1));
      g.createBranch("side", "main");
      for (int i = 0; i < 3; i++) {
        load(g, LoadMode.APPEND, PeopleGraph.person("s" + i, i), io.omnigraph.api.LoadOptions.defaults().withBranch("side"));
      }
      assertThat(automaticCommits(g)).isZero();
      assertThat(g.commits("side")).noneMatch(c -> AutoMaintenance.MESSAGE.equals(c.message()));
    }
  }

  /**
   * A graph that went through many writes (with automatic maintenance at its default policy) and
   * then {@code optimize} exports exactly what it exported before, and what the same writes give
   * without any maintenance; the graph written without maintenance, optimized, also exports exactly
   * what it exported before. {@value #WRITES_PROPERTY} sets the number of writes (default 40; the
   * issue's check is 1,000).
   */
  @Test
  void aGraphThroughManyWritesAndOptimizeExportsWhatItExportedBefore() {
    int writes = Integer.getInteger(WRITES_PROPERTY, 40);
    try (Graph on = init("on", MaintenancePolicy.builtIn()); Graph off = init("off", MaintenancePolicy.off())) {
      companies(on);
      companies(off);
      for (int i = 0; i < writes; i++) {
        assertThat(warnings(write(on, i))).as("write " + i).isEmpty();
        write(off, i);
      }
      String before = export(on);
      String offBefore = export(off);
      assertThat(withoutEdgeIds(before)).isEqualTo(withoutEdgeIds(offBefore));
      on.optimize();
      assertThat(export(on)).isEqualTo(before);
      assertThat(fragments(on, "node:Person")).isEqualTo(1);
      assertThat(pendingSidecars(on)).isEmpty();
      // The same without maintenance during the writes: optimize then compacts every write's fragment.
      off.optimize();
      assertThat(export(off)).isEqualTo(offBefore);
      assertThat(fragments(off, "node:Person")).isEqualTo(1);
      assertThat(pendingSidecars(off)).isEmpty();
    }
  }

  /** Export lines with edge ids (fresh ULIDs per graph) removed, sorted. */
  static List<String> withoutEdgeIds(String ndjson) {
    List<String> out = new ArrayList<>();
    for (String line : ndjson.split("\n")) {
      out.add(line.startsWith("{\"edge\"") ? line.replaceAll("\"id\":\"[^\"]*\",?", "") : line);
    }
    out.sort(null);
    return out;
  }
}
