package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit in the write path (docs/concurrency.md, "Group commit"): threads of one process
 * sharing one handle, each inserting 1-row mutations on its own keys, have their mutations staged
 * together and published by one {@code __manifest} compare-and-set, each still its own commit of
 * one parent chain, every row present exactly once — and batches are actually formed (the test
 * fails with {@code -Domnigraph.write.groupCommit=false}). A failure inside a batch reaches every
 * member as its own typed error and loses or duplicates no row.
 *
 * <p>{@value #INSERTS_PROPERTY} sets the inserts per thread (default {@value #DEFAULT_INSERTS}).
 */
class GroupCommitTest {
  static final String INSERTS_PROPERTY = "omnigraph.groupcommit.inserts";
  static final int DEFAULT_INSERTS = 4;
  static final int THREADS = 8;
  static final String GQ = """
      query add($name: String) {
        insert Person { name: $name }
      }
      """;

  @TempDir Path dir;

  @Test
  void eightThreadsOnDisjointKeysCommitInBatchesEachItsOwnCommitOfOneChain() throws Exception {
    int n = Integer.getInteger(INSERTS_PROPERTY, DEFAULT_INSERTS);
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA)) {
      // No automatic maintenance commits between the members: the history is exactly the inserts.
      ((LanceGraph) g).maintenance(new io.omnigraph.api.MaintenancePolicy(false, 16, 16));
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      List<String> before = GraphIo.commitIds(g);
      long[] counts = GraphWrite.groupCommitCounts();
      PreparedMutation add = g.prepareMutation(GQ, "add");
      List<List<Object>> results = run(t -> {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          MutationResult r = g.mutate(add, QueryParams.of(Map.of("name", key(t, i))), MutationOptions.defaults());
          out.add(r.commitId());
        }
        return out;
      });
      Set<String> ids = new HashSet<>();
      results.forEach(r -> r.forEach(c -> ids.add((String) c)));
      assertThat(ids).hasSize(THREADS * n).doesNotContainNull();

      // Every row once.
      String export = GraphIo.export(g);
      for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < n; i++) {
          assertThat(occurrences(export, "\"name\":\"" + key(t, i) + "\"")).as(key(t, i)).isEqualTo(1);
        }
      }
      // One parent chain: the old history plus exactly the acknowledged commits, each with one parent,
      // each publishing the Person table one version after its parent.
      List<CommitInfo> history = g.commits();
      assertThat(history).hasSize(before.size() + THREADS * n);
      Set<String> added = new HashSet<>();
      for (int k = 0; k + 1 < history.size(); k++) {
        CommitInfo c = history.get(k);
        assertThat(c.parents()).as("parents of " + c.id()).containsExactly(history.get(k + 1).id());
        if (k < THREADS * n) {
          added.add(c.id());
          assertThat(c.tableVersions().get("node:Person")).as("Person version at " + c.id())
              .isEqualTo(history.get(k + 1).tableVersions().get("node:Person") + 1);
        }
      }
      assertThat(added).isEqualTo(ids);
      assertThat(GraphIo.commitIds(g).subList(THREADS * n, history.size())).isEqualTo(before);

      long[] after = GraphWrite.groupCommitCounts();
      System.out.println("group commit: " + THREADS + " threads x " + n + " inserts, batches "
          + (after[0] - counts[0]) + " holding " + (after[1] - counts[1]) + " commits");
      assertThat(after[0] - counts[0]).as("batches of two or more members formed").isPositive();
      assertThat(after[1] - counts[1]).as("commits published in batches").isGreaterThanOrEqualTo(2);
    }
    // Reopened: the same history and rows, nothing left to recover.
    try (Graph g = Omnigraph.open(dir.resolve("g").toString())) {
      assertThat(g.recoveries()).isEmpty();
      assertThat(g.commits()).hasSize(GraphIo.commitIds(g).size());
    }
  }

  @Test
  void aFailureInsideABatchIsEachMembersTypedErrorAndLosesNoRow() throws Exception {
    String uri = dir.resolve("g").toString();
    List<List<Object>> results;
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      ((LanceGraph) g).maintenance(new io.omnigraph.api.MaintenancePolicy(false, 16, 16));
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      PreparedMutation add = g.prepareMutation(GQ, "add");
      // The 9th table commit after the first ones fails once the effect has landed: its write (a
      // batch or a single write) needs recovery; every later write is refused until the reopen.
      try (Failpoints.Armed armed = Failpoints.arm(Failpoints.TABLE_COMMIT_AFTER, new FailAction.Error(), 9)) {
        results = run(t -> {
          List<Object> out = new ArrayList<>();
          for (int i = 0; i < 4; i++) {
            try {
              out.add(g.mutate(add, QueryParams.of(Map.of("name", key(t, i))), MutationOptions.defaults()).commitId());
            } catch (OmnigraphException e) {
              out.add(e);
              break;
            }
          }
          return out;
        });
      }
    }
    try (Graph g = Omnigraph.open(uri)) {
      String export = GraphIo.export(g);
      Set<String> recoveryOps = new HashSet<>();
      int acked = 0;
      for (int t = 0; t < THREADS; t++) {
        List<Object> r = results.get(t);
        for (int i = 0; i < r.size(); i++) {
          int seen = occurrences(export, "\"name\":\"" + key(t, i) + "\"");
          if (r.get(i) instanceof String) {
            acked++;
            assertThat(seen).as("acknowledged " + key(t, i)).isEqualTo(1);
          } else {
            // Typed: the batch's (or the single write's) recovery, or the refusal while it is pending.
            assertThat(r.get(i)).as("failure of " + key(t, i)).isInstanceOf(RecoveryRequiredException.class);
            recoveryOps.add(((RecoveryRequiredException) r.get(i)).getMessage().replaceAll("(?s).*operation ([0-9A-Z]+).*", "$1"));
            assertThat(seen).as("rolled back " + key(t, i)).isZero();
          }
        }
      }
      assertThat(recoveryOps).as("failures reported").isNotEmpty();
      assertThat(g.recoveries()).extracting(io.omnigraph.api.RecoveryRecord::kind).containsExactly("RolledBack");
      List<CommitInfo> history = g.commits();
      for (int k = 0; k + 1 < history.size(); k++) {
        assertThat(history.get(k).parents()).containsExactly(history.get(k + 1).id());
      }
      System.out.println("group commit failure: " + acked + " acknowledged, failures " + recoveryOps);
    }
  }

  private static List<List<Object>> run(Function<Integer, List<Object>> writer) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<List<Object>>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          return writer.apply(thread);
        }));
      }
      List<List<Object>> out = new ArrayList<>();
      for (Future<List<Object>> f : futures) {
        out.add(f.get(5, TimeUnit.MINUTES));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  static String key(int thread, int i) {
    return "gc-" + thread + "-" + i;
  }

  private static int occurrences(String text, String needle) {
    int count = 0;
    for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      count++;
    }
    return count;
  }
}
