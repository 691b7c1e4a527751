package io.omnigraph.engine.crash;

import static io.omnigraph.engine.crash.CrashWrites.inputFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill loop over branches (docs/failpoints.md, "Crash matrix and kill loop"; issue 14 item 5):
 * each iteration starts a child JVM that runs ONE random branch operation — create a branch, load on
 * a branch (appends, and upserts of the branch's own rows), load on {@code main}, merge a branch into
 * {@code main} (the proven-insert route when {@code main} did not change the table since the fork,
 * the ordered route otherwise), delete a branch — SIGKILLs it at a random moment, reopens the graph
 * and requires that EVERY branch (the set of branches and each branch's rows, compared with the
 * test's own model of every branch) is exactly as before the operation or exactly as after it, that
 * the written branch's history is the old chain or the old chain plus one commit, that no sidecar is
 * left, and that the graph still takes a write.
 *
 * <p>{@value #ITERATIONS_PROPERTY} sets the iterations (default {@value #DEFAULT_ITERATIONS}, which runs
 * in {@code ./mvnw verify}); {@value #SEED_PROPERTY} replays a run. The soak:
 * <pre>./mvnw -B -ntp -o -pl modules/engine -am test -Dtest=BranchKillLoopTest -Dsurefire.failIfNoSpecifiedTests=false -Domnigraph.branchkillloop.iterations=200</pre>
 */
class BranchKillLoopTest {
  static final String ITERATIONS_PROPERTY = "omnigraph.branchkillloop.iterations";
  static final String SEED_PROPERTY = "omnigraph.branchkillloop.seed";
  static final int DEFAULT_ITERATIONS = 10;
  static final String MAIN = "main";

  @TempDir Path tmp;

  /** One operation: the child's arguments, the branch whose history it extends (or null), its effect on the world. */
  record Op(String describe, List<String> args, String input, String writes,
      java.util.function.UnaryOperator<TreeMap<String, GraphModel>> effect) {}

  @Test
  void aBranchOperationKilledAtARandomMomentLeavesEveryBranchBeforeOrAfter() {
    int iterations = Integer.getInteger(ITERATIONS_PROPERTY, DEFAULT_ITERATIONS);
    long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
    Random random = new Random(seed);
    System.out.println("branch kill loop: " + iterations + " iterations, seed " + seed + " (-D" + SEED_PROPERTY + "="
        + seed + " replays it)");
    String uri = tmp.resolve("g").toString();
    TreeMap<String, GraphModel> world;
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.MERGE, person("m0", 1) + person("m1", 2));
      world = world(g);
    }
    Workload workload = new Workload(random);
    long maxWriteMillis = 600;
    Map<String, Integer> outcomes = new TreeMap<>();
    Map<String, Integer> kinds = new TreeMap<>();
    List<String> divergences = new ArrayList<>();
    int killed = 0;
    for (int i = 0; i < iterations; i++) {
      Op op = workload.next(world);
      kinds.merge(op.describe().replaceAll(" .*", ""), 1, Integer::sum);
      TreeMap<String, GraphModel> after = op.effect().apply(copy(world));
      List<String> beforeCommits = List.of();
      try (Graph g = Omnigraph.open(uri)) {
        if (op.writes() != null) {
          beforeCommits = commitIds(g, op.writes());
        }
      }
      List<String> args = new ArrayList<>(List.of(uri));
      args.addAll(op.args());
      if (op.input() != null) {
        args.add(inputFile(tmp, op.input()).toString());
      }
      long delay = (long) (random.nextDouble() * maxWriteMillis * 1.2);
      ChildJvm.Result child;
      boolean sentKill = false;
      try (ChildJvm.Running r = CrashWriter.child(Map.of(), args).startLogged(tmp.resolve("children"))) {
        awaitLine(r, CrashWriter.WRITING_MARKER);
        sleep(delay);
        if (r.process().isAlive()) {
          sentKill = true;
          child = r.kill();
        } else {
          child = r.await(1, TimeUnit.MINUTES);
        }
      }
      for (String line : child.output().split("\n")) {
        if (line.startsWith(CrashWriter.WROTE_MARKER)) {
          maxWriteMillis = Math.max(maxWriteMillis, Long.parseLong(line.substring(CrashWriter.WROTE_MARKER.length()).trim()));
        }
      }
      boolean completed = java.util.Arrays.stream(child.output().split("\n")).anyMatch(l -> l.startsWith("committed "));
      if (sentKill && !completed) {
        killed++;
      }
      if (!completed && child.exitCode() != 137) {
        divergences.add("iteration " + i + " (" + op.describe() + "): child exited " + child.exitCode()
            + " without being killed:\n" + child.output());
        break;
      }
      try (Graph g = Omnigraph.open(uri)) {
        TreeMap<String, GraphModel> now = world(g);
        String outcome;
        if (now.equals(after)) {
          outcome = "after";
        } else if (now.equals(world) && !completed) {
          outcome = "before";
          workload.rolledBack();
        } else {
          divergences.add("iteration " + i + " (" + op.describe() + ", kill after " + delay + " ms, completed "
              + completed + "): branches " + now.keySet() + " (before " + world.keySet() + ", after " + after.keySet()
              + "); " + diffs(world, after, now));
          break;
        }
        if (op.writes() != null && now.containsKey(op.writes())) {
          List<String> commits = commitIds(g, op.writes());
          boolean same = commits.equals(beforeCommits);
          boolean oneMore = commits.size() == beforeCommits.size() + 1
              && commits.subList(1, commits.size()).equals(beforeCommits);
          if (!same && !oneMore) {
            divergences.add("iteration " + i + " (" + op.describe() + "): history of " + op.writes() + " is " + commits
                + ", was " + beforeCommits);
            break;
          }
        }
        List<String> sidecars = CrashWrites.sidecars(uri, Map.of());
        if (!sidecars.isEmpty()) {
          divergences.add("iteration " + i + " (" + op.describe() + "): sidecars left after reopen: " + sidecars);
          break;
        }
        world = now;
        // nothing is wedged: a write on main succeeds
        String probe = person("probe" + i, i);
        try {
          GraphIo.load(g, LoadMode.APPEND, probe);
        } catch (RuntimeException e) {
          divergences.add("iteration " + i + " (" + outcome + "): the next write failed: " + e);
          break;
        }
        world.get(MAIN).apply(LoadMode.APPEND, probe);
        outcomes.merge(outcome + (completed ? "" : " (killed)"), 1, Integer::sum);
      }
    }
    System.out.println("branch kill loop: iterations " + iterations + ", operations " + kinds + ", killed mid-operation "
        + killed + ", outcomes " + outcomes + ", divergences " + divergences.size() + ", max operation " + maxWriteMillis
        + " ms, seed " + seed);
    assertThat(divergences).as("branch kill-loop divergences (seed " + seed + ")").isEmpty();
  }

  static TreeMap<String, GraphModel> world(Graph g) {
    TreeMap<String, GraphModel> out = new TreeMap<>();
    for (BranchInfo b : g.branches()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      g.export(bytes, b.name());
      out.put(b.name(), GraphModel.fromExport(PeopleGraph.KEYS, bytes.toString(StandardCharsets.UTF_8)));
    }
    return out;
  }

  static TreeMap<String, GraphModel> copy(TreeMap<String, GraphModel> w) {
    TreeMap<String, GraphModel> out = new TreeMap<>();
    w.forEach((k, v) -> out.put(k, v.copy()));
    return out;
  }

  static List<String> commitIds(Graph g, String branch) {
    return g.commits(branch).stream().map(io.omnigraph.api.CommitInfo::id).toList();
  }

  static String diffs(TreeMap<String, GraphModel> before, TreeMap<String, GraphModel> after,
      TreeMap<String, GraphModel> now) {
    StringBuilder b = new StringBuilder();
    for (String name : now.keySet()) {
      GraphModel n = now.get(name);
      b.append(name).append(": vs before [").append(before.containsKey(name) ? before.get(name).diff(n) : "absent")
          .append("] vs after [").append(after.containsKey(name) ? after.get(name).diff(n) : "absent").append("]; ");
    }
    return b.toString();
  }

  static String person(String name, int age) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":" + age + "}}\n";
  }

  /**
   * Random operations that never conflict: {@code main} only writes its own {@code m*} rows, each
   * branch only its own {@code x*} rows (which it remembers, to upsert and to merge).
   */
  static final class Workload {
    private final Random random;
    private int counter;
    private int branches;
    /** Per live branch: its own rows, id → the line last written. */
    private final Map<String, Map<String, String>> own = new LinkedHashMap<>();
    /** The branch whose own rows the last operation changed, and those rows before it (for {@link #rolledBack}). */
    private String undoBranch;
    private Map<String, String> undoRows;

    /**
     * The last operation left the graph as it was (killed before it took effect): forget the rows
     * it would have written, or a later merge of that branch would be expected to bring them.
     */
    void rolledBack() {
      if (undoBranch != null && own.containsKey(undoBranch)) {
        own.put(undoBranch, undoRows);
      }
    }

    Workload(Random random) {
      this.random = random;
    }

    Op next(TreeMap<String, GraphModel> world) {
      undoBranch = null;
      own.keySet().retainAll(world.keySet());
      List<String> live = new ArrayList<>(world.keySet());
      live.remove(MAIN);
      for (String b : live) {
        own.computeIfAbsent(b, k -> new LinkedHashMap<>());
      }
      int pick = random.nextInt(10);
      if (live.isEmpty() || (pick == 0 && live.size() < 3)) {
        String name = "b" + (++branches);
        return new Op("create " + name, List.of("branch-create", name), null, null, w -> {
          w.put(name, w.get(MAIN).copy());
          return w;
        });
      }
      String b = live.get(random.nextInt(live.size()));
      Map<String, String> mine = own.get(b);
      if (pick < 4 || (pick < 9 && mine.isEmpty())) {
        StringBuilder rows = new StringBuilder();
        LoadMode mode = LoadMode.APPEND;
        if (!mine.isEmpty() && random.nextBoolean()) {
          mode = LoadMode.MERGE; // an upsert of one of the branch's own rows: no longer insertion-only
          String id = new ArrayList<>(mine.keySet()).get(random.nextInt(mine.size()));
          rows.append(person(id, 100 + random.nextInt(50)));
        }
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
          rows.append(person("x" + (++counter), random.nextInt(90)));
        }
        String ndjson = rows.toString();
        undoBranch = b;
        undoRows = new LinkedHashMap<>(mine);
        for (String line : ndjson.split("\n")) {
          mine.put(line.replaceAll(".*\"name\":\"([^\"]*)\".*", "$1"), line + "\n");
        }
        LoadMode m = mode;
        return new Op("branch-load " + b + " " + mode.wireName(), List.of("branch-load", b, mode.wireName()), ndjson, b,
            w -> {
              w.get(b).apply(m, ndjson);
              return w;
            });
      }
      if (pick < 5) {
        String ndjson = person("m" + (++counter), random.nextInt(90));
        return new Op("main-load append", List.of("load", "append"), ndjson, MAIN, w -> {
          w.get(MAIN).apply(LoadMode.APPEND, ndjson);
          return w;
        });
      }
      if (pick < 9) {
        String taken = String.join("", mine.values());
        return new Op("merge " + b, List.of("merge", b), null, MAIN, w -> {
          if (!taken.isEmpty()) {
            w.get(MAIN).apply(LoadMode.MERGE, taken);
          }
          return w;
        });
      }
      return new Op("delete " + b, List.of("branch-delete", b), null, null, w -> {
        w.remove(b);
        return w;
      });
    }
  }

  private static void awaitLine(ChildJvm.Running r, String marker) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!r.output().contains(marker)) {
      if (!r.process().isAlive()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("child never reached the operation:\n" + r.output());
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
