package io.omnigraph.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill loop of group commit (docs/concurrency.md, "Group commit"; docs/failpoints.md, "Crash
 * matrix and kill loop"): repeatedly start a child JVM whose {@value #THREADS} threads share one
 * handle and insert {@value #INSERTS} 1-row mutations each on their own keys (so their mutations
 * are batched), SIGKILL it at a random moment, reopen the graph and require: every acknowledged row
 * present exactly once, every other attempted row present at most once, one commit per present row
 * in one parent chain (plus recovery's rollback commits and automatic maintenance commits, which
 * change no row), every acknowledged commit in the history, no leftover sidecar, and a graph that
 * still accepts writes.
 *
 * <p>{@value #ITERATIONS_PROPERTY} sets the number of iterations (default {@value #DEFAULT_ITERATIONS},
 * which runs in {@code ./mvnw verify}); {@value #SEED_PROPERTY} fixes the random seed. The soak:
 * <pre>./mvnw -B -ntp -pl modules/engine -am verify -Dtest=GroupKillLoopTest -Dsurefire.failIfNoSpecifiedTests=false -Domnigraph.groupkillloop.iterations=100</pre>
 */
class GroupKillLoopTest {
  static final String ITERATIONS_PROPERTY = "omnigraph.groupkillloop.iterations";
  static final String SEED_PROPERTY = "omnigraph.groupkillloop.seed";
  static final int DEFAULT_ITERATIONS = 4;
  static final int THREADS = 8;
  static final int INSERTS = 4;
  static final String GQ = """
      query add($name: String) {
        insert Person { name: $name }
      }
      """;
  static final String ACK = "ack ";
  static final String BATCHES = "batches ";

  @TempDir Path tmp;

  @Test
  void eightThreadWritersKilledAtARandomMomentLoseAndDuplicateNothing() {
    int iterations = Integer.getInteger(ITERATIONS_PROPERTY, DEFAULT_ITERATIONS);
    long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
    Random random = new Random(seed);
    System.out.println("group kill loop: " + iterations + " iterations, seed " + seed + " (-D" + SEED_PROPERTY + "="
        + seed + " replays it)");
    String uri = tmp.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
    }
    long maxWriteMillis = 0;
    List<String> divergences = new ArrayList<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    long batches = 0;
    long batched = 0;
    for (int i = 0; i < iterations && divergences.isEmpty(); i++) {
      List<String> beforeCommits;
      int beforeRows;
      int beforeAudit;
      try (Graph g = Omnigraph.open(uri)) {
        beforeCommits = GraphIo.commitIds(g);
        beforeAudit = g.recoveries().size();
        beforeRows = occurrences(GraphIo.export(g), "\"type\":\"Person\"");
      }
      // The first child runs to the end: its duration scales the kill moments of the others.
      long delay = i == 0 ? Long.MAX_VALUE : (long) (random.nextDouble() * maxWriteMillis * 1.2);
      String prefix = "k" + i;
      ChildJvm.Result child;
      boolean sentKill = false;
      try (ChildJvm.Running r = ChildJvm.main(Child.class, uri, prefix).option("-Xmx512m")
          .properties(Map.of(MaintenancePolicy.PROPERTY, KillLoopTest.MAINTENANCE_THRESHOLD))
          .startLogged(tmp.resolve("children"))) {
        awaitLine(r, CrashWriter.WRITING_MARKER);
        if (delay != Long.MAX_VALUE) {
          sleep(delay);
        }
        if (delay != Long.MAX_VALUE && r.process().isAlive()) {
          sentKill = true;
          child = r.kill();
        } else {
          child = r.await(1, TimeUnit.MINUTES);
        }
      }
      Map<String, String> acked = new LinkedHashMap<>();
      for (String line : child.output().split("\n")) {
        if (line.startsWith(ACK)) {
          String[] p = line.substring(ACK.length()).trim().split(" ");
          acked.put(p[0], p[1]);
        } else if (line.startsWith(CrashWriter.WROTE_MARKER)) {
          maxWriteMillis = Math.max(maxWriteMillis, Long.parseLong(line.substring(CrashWriter.WROTE_MARKER.length()).trim()));
        } else if (line.startsWith(BATCHES)) {
          String[] p = line.substring(BATCHES.length()).trim().split(" ");
          batches += Long.parseLong(p[0]);
          batched += Long.parseLong(p[1]);
        }
      }
      boolean completed = child.exitCode() == 0;
      if (!completed && child.exitCode() != 137) {
        divergences.add("iteration " + i + ": child exited " + child.exitCode() + " without being killed:\n"
            + child.output());
        break;
      }
      try (Graph g = Omnigraph.open(uri)) {
        String export = GraphIo.export(g);
        int present = 0;
        for (int t = 0; t < THREADS; t++) {
          for (int j = 0; j < INSERTS; j++) {
            String key = Child.key(prefix, t, j);
            int seen = occurrences(export, "\"name\":\"" + key + "\"");
            if (seen > 1 || (acked.containsKey(key) && seen != 1)) {
              divergences.add("iteration " + i + " (kill after " + delay + " ms): row " + key + " present " + seen
                  + " times, acknowledged " + acked.containsKey(key));
            }
            present += seen;
          }
        }
        int rows = occurrences(export, "\"type\":\"Person\"");
        if (rows != beforeRows + present) {
          divergences.add("iteration " + i + ": " + rows + " Person rows, expected " + beforeRows + " + " + present);
        }
        List<CommitInfo> history = g.commits();
        Set<String> ids = new HashSet<>();
        int rowCommits = 0;
        for (int k = 0; k < history.size(); k++) {
          CommitInfo c = history.get(k);
          ids.add(c.id());
          if (k + 1 < history.size() && !c.parents().equals(List.of(history.get(k + 1).id()))) {
            divergences.add("iteration " + i + ": commit " + c.id() + " has parents " + c.parents() + ", not "
                + history.get(k + 1).id());
          }
          if (!beforeCommits.contains(c.id()) && !MaintenancePolicy.COMMIT_ACTOR.equals(c.actor())
              && !"omnigraph:recovery".equals(c.actor())) {
            rowCommits++;
          }
        }
        if (!ids.containsAll(beforeCommits) || !ids.containsAll(acked.values()) || rowCommits != present) {
          divergences.add("iteration " + i + ": " + rowCommits + " new row commits for " + present + " new rows;"
              + " acknowledged commits missing " + acked.values().stream().filter(c -> !ids.contains(c)).toList()
              + ", earlier commits missing " + beforeCommits.stream().filter(c -> !ids.contains(c)).toList());
        }
        List<String> sidecars = CrashWrites.sidecars(uri, Map.of());
        if (!sidecars.isEmpty()) {
          divergences.add("iteration " + i + ": sidecars left after reopen: " + sidecars);
        }
        try {
          g.mutate(GQ, "add", QueryParams.of(Map.of("name", prefix + "-probe")), MutationOptions.defaults());
        } catch (RuntimeException e) {
          divergences.add("iteration " + i + ": the next write failed: " + e);
        }
        String outcome = (sentKill && !completed ? "killed" : "completed") + ", " + (present == THREADS * INSERTS
            ? "all rows" : present == 0 ? "no row" : "some rows") + (g.recoveries().size() == beforeAudit ? "" : ", recovered");
        outcomes.merge(outcome, 1, Integer::sum);
      }
    }
    System.out.println("group kill loop: iterations " + iterations + ", outcomes " + outcomes + ", batches in children that finished writing "
        + batches + " holding " + batched + " commits, divergences " + divergences.size() + ", max write "
        + maxWriteMillis + " ms, seed " + seed);
    assertThat(divergences).as("group kill-loop divergences (seed " + seed + ")").isEmpty();
    assertThat(batches).as("batches formed by the children that finished writing").isPositive();
  }

  /** The child: {@value #THREADS} threads of one handle, {@value #INSERTS} acknowledged inserts each. */
  public static final class Child {
    private Child() {}

    static String key(String prefix, int thread, int i) {
      return prefix + "-t" + thread + "-" + i;
    }

    public static void main(String[] args) throws Exception {
      String uri = args[0];
      String prefix = args[1];
      try (Graph g = Omnigraph.open(uri)) {
        PreparedMutation add = g.prepareMutation(GQ, "add");
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        System.out.println(CrashWriter.WRITING_MARKER);
        System.out.flush();
        long t0 = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          Thread w = new Thread(() -> {
            try {
              start.await();
              for (int j = 0; j < INSERTS; j++) {
                String key = key(prefix, thread, j);
                MutationResult r = g.mutate(add, QueryParams.of(Map.of("name", key)),
                    MutationOptions.defaults().withActor("group-writer"));
                synchronized (System.out) {
                  System.out.println(ACK + key + " " + r.commitId());
                  System.out.flush();
                }
              }
            } catch (Throwable e) {
              failures.add(e);
            }
          });
          threads.add(w);
          w.start();
        }
        for (Thread w : threads) {
          w.join();
        }
        long[] counts = GraphWrite.groupCommitCounts();
        System.out.println(BATCHES + counts[0] + " " + counts[1]);
        System.out.println(CrashWriter.WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        System.out.flush();
        if (!failures.isEmpty()) {
          failures.get(0).printStackTrace();
          System.exit(1);
        }
      }
    }
  }

  private static int occurrences(String text, String needle) {
    int count = 0;
    for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      count++;
    }
    return count;
  }

  private static void awaitLine(ChildJvm.Running r, String marker) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!r.output().contains(marker)) {
      if (!r.process().isAlive()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("child never reached the write:\n" + r.output());
      }
      sleep(2);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
