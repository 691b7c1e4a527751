package io.omnigraph.engine;

import static io.omnigraph.engine.AutoMaintenanceTest.automaticCommits;
import static io.omnigraph.engine.AutoMaintenanceTest.fragments;
import static io.omnigraph.engine.AutoMaintenanceTest.manifestFragments;
import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one automatic maintenance write pays (docs/maintenance.md, "Automatic maintenance", "What one
 * maintenance write pays"): a BTREE index is folded only once the unindexed tail is worth rewriting
 * the index for, and the table compaction and the {@code __manifest} compaction never run on the
 * same write. Rows and answers never change.
 */
class AutoMaintenanceCostTest {
  static final String INSERT = "query add($name: String, $age: I32) { insert Person { name: $name, age: $age } }";

  @TempDir Path dir;

  Graph init(String name, MaintenancePolicy policy) {
    return Omnigraph.init(dir.resolve(name).toString(), PeopleGraph.SCHEMA, OpenOptions.defaults().withMaintenance(policy));
  }

  static long uncovered(Graph g, String index) {
    LanceGraph l = (LanceGraph) g;
    var e = l.state().table("node:Person").orElseThrow();
    try (var s = l.tables().reader().openAt(l.root().lance(e.path()), e.version())) {
      return l.tables().reader().indexCoverage(s).get(index);
    }
  }

  static void insert(Graph g, String name, int age) {
    g.mutate(INSERT, "add", QueryParams.of(Map.of("name", name, "age", age)), MutationOptions.defaults());
  }

  /**
   * 160 rows with {@code id_idx}, threshold 4: the fold bound is min(4,096, 160 / 16) = 10 unindexed
   * rows. The first two maintenance runs compact the 1-row fragments into one unindexed tail (3, then
   * 7 rows) without rewriting the index; the third (11 rows) folds it in. Every id is found as before, and an explicit optimize still folds any tail.
   */
  @Test
  void aBtreeIndexIsFoldedOnlyWhenItsUnindexedTailReachesTheBound() {
    try (Graph g = init("g", MaintenancePolicy.atFragments(4))) {
      StringBuilder people = new StringBuilder();
      for (int i = 0; i < 160; i++) {
        people.append(PeopleGraph.person("p" + i, i));
      }
      load(g, LoadMode.APPEND, people.toString());
      g.ensureIndices();
      assertThat(uncovered(g, "id_idx")).isZero();
      List<long[]> runs = new ArrayList<>(); // {uncovered rows, fragments} after each maintenance
      int n = 0;
      while (runs.size() < 3) {
        long before = automaticCommits(g);
        insert(g, "q" + n, n);
        n++;
        if (automaticCommits(g) > before) {
          runs.add(new long[] {uncovered(g, "id_idx"), fragments(g, "node:Person")});
        }
      }
      assertThat(runs.get(0)).as("first run: tail compacted, not folded").containsExactly(3, 2);
      assertThat(runs.get(1)).as("second run: the tail grows, still not folded").containsExactly(7, 2);
      assertThat(runs.get(2)[0]).as("third run: 11 >= 10, folded").isZero();
      assertThat(runs.get(2)[1]).as("third run: the tail compacted").isLessThanOrEqualTo(2);
      // The ids in the unindexed tail and in the indexed fragment answer exactly as before.
      insert(g, "q" + n, n);
      insert(g, "q" + (n + 1), n + 1); // tail of two 1-row fragments, unindexed
      String tail = "q" + n;
      assertThatThrownBy(() -> load(g, LoadMode.APPEND, PeopleGraph.person(tail, 1)))
          .isInstanceOf(ConflictException.class);
      assertThatThrownBy(() -> load(g, LoadMode.APPEND, PeopleGraph.person("p7", 1)))
          .isInstanceOf(ConflictException.class);
      insert(g, "p8", 99); // an upsert of an indexed row: replaced, one row
      assertThat(export(g).lines().filter(l -> l.contains("\"name\":\"p8\"")).toList()).singleElement()
          .satisfies(l -> assertThat(l).contains("\"age\":99"));
      assertThat(uncovered(g, "id_idx")).isPositive();
      g.optimize(); // explicit optimize folds whatever is unindexed
      assertThat(uncovered(g, "id_idx")).isZero();
      assertThat(export(g).lines().filter(l -> l.contains("\"type\":\"Person\"")).count()).isEqualTo(160 + n + 2);
    }
  }

  /**
   * Threshold 4 on both counts, 1-row inserts (each adds a fragment to {@code node:Person} and to
   * {@code __manifest}, so both cross their thresholds on the same writes): no write runs both
   * compactions; the {@code __manifest} one waits for the next write, so {@code __manifest} reaches
   * at most two fragments over the threshold (the table run's publish, then the next write's).
   */
  @Test
  void theTableCompactionAndTheManifestCompactionRunOnDifferentWrites() {
    int threshold = 4;
    try (Graph g = init("g", MaintenancePolicy.atFragments(threshold))) {
      int tableRuns = 0;
      int manifestRuns = 0;
      int maxManifest = 0;
      for (int i = 0; i < 24; i++) {
        long commits = automaticCommits(g);
        int manifestBefore = manifestFragments(g);
        insert(g, "p" + i, i);
        boolean table = automaticCommits(g) > commits;
        // A write adds one fragment to __manifest (and a table run's publish one more): fewer means compacted.
        boolean manifest = manifestFragments(g) < manifestBefore + 1;
        assertThat(table && manifest).as("write %d compacted the table and __manifest", i).isFalse();
        tableRuns += table ? 1 : 0;
        manifestRuns += manifest ? 1 : 0;
        maxManifest = Math.max(maxManifest, manifestFragments(g));
      }
      assertThat(tableRuns).isGreaterThanOrEqualTo(3);
      assertThat(manifestRuns).isGreaterThanOrEqualTo(3);
      assertThat(maxManifest).isLessThanOrEqualTo(threshold + 2);
      assertThat(fragments(g, "node:Person")).isLessThanOrEqualTo(threshold);
    }
  }
}
