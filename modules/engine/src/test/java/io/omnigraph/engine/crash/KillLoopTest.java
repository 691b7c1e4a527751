package io.omnigraph.engine.crash;

import static io.omnigraph.engine.crash.CrashWrites.inputFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill loop (docs/failpoints.md, "Crash matrix and kill loop"): repeatedly start a child JVM
 * that runs one random write (loads in
 * every mode over several tables, mutations: inserts into three tables, updates, node deletes
 * cascading to edges, and the three writers that change no row: optimize, ensure-indices and
 * schema apply), SIGKILL it at a random moment of the write, reopen the graph and
 * require exactly the state before or after the write (row-level, {@link GraphModel}), an intact
 * history (the old chain, plus the write's commit or one recovery rollback commit), an audit that
 * says what recovery did (no row, or one RolledBack / RolledForward row for the new head commit), no
 * leftover sidecar, and a graph that still accepts writes.
 *
 * <p>{@value #ITERATIONS_PROPERTY} sets the number of iterations (default {@value #DEFAULT_ITERATIONS},
 * which runs in {@code ./mvnw verify}); {@value #SEED_PROPERTY} fixes the random seed (printed at the
 * start, so any run can be replayed). The soak:
 * <pre>./mvnw -B -ntp -pl modules/engine -am verify -Dtest=KillLoopTest -Dsurefire.failIfNoSpecifiedTests=false -Domnigraph.killloop.iterations=500</pre>
 */
class KillLoopTest {
  static final String ITERATIONS_PROPERTY = "omnigraph.killloop.iterations";
  static final String SEED_PROPERTY = "omnigraph.killloop.seed";
  static final int DEFAULT_ITERATIONS = 20;
  /** The children's automatic maintenance threshold ({@link io.omnigraph.api.MaintenancePolicy#parse}). */
  static final String MAINTENANCE_THRESHOLD = "3";

  @TempDir Path tmp;

  @Test
  void aWriteKilledAtARandomMomentLeavesTheBeforeOrTheAfterState() {
    int iterations = Integer.getInteger(ITERATIONS_PROPERTY, DEFAULT_ITERATIONS);
    long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
    Random random = new Random(seed);
    System.out.println("kill loop: " + iterations + " iterations, seed " + seed + " (-D" + SEED_PROPERTY + "=" + seed
        + " replays it)");
    Workload workload = new Workload(random);
    String uri = tmp.resolve("g").toString();
    GraphModel model;
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, CrashWrites.BASE);
      model = GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(g));
    }
    workload.observe(model);
    long maxWriteMillis = 600;
    Map<String, Integer> outcomes = new LinkedHashMap<>();
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    List<String> divergences = new ArrayList<>();
    int killed = 0;
    int maintained = 0;
    for (int i = 0; i < iterations; i++) {
      Workload.Write w = workload.next();
      kinds.merge(w.kind(), 1, Integer::sum);
      GraphModel after = w.effect().apply(model.copy());
      List<String> beforeCommits;
      int beforeAudit;
      try (Graph g = Omnigraph.open(uri)) {
        beforeCommits = GraphIo.commitIds(g);
        beforeAudit = g.recoveries().size();
      }
      Path input = inputFile(tmp, w.input());
      long delay = (long) (random.nextDouble() * maxWriteMillis * 1.2);
      ChildJvm.Result child;
      boolean sentKill = false;
      long writeMillis = -1;
      List<String> args = new ArrayList<>(List.of(uri));
      args.addAll(w.childArgs(input));
      // Children maintain at a low threshold, so automatic maintenance (a bounded optimize after the
      // write's publish, docs/maintenance.md) runs in many iterations and is killed in some.
      try (ChildJvm.Running r = CrashWriter.child(Map.of(io.omnigraph.api.MaintenancePolicy.PROPERTY,
          MAINTENANCE_THRESHOLD), args).startLogged(tmp.resolve("children"))) {
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
          writeMillis = Long.parseLong(line.substring(CrashWriter.WROTE_MARKER.length()).trim());
          maxWriteMillis = Math.max(maxWriteMillis, writeMillis);
        }
      }
      boolean completed = java.util.Arrays.stream(child.output().split("\n")).anyMatch(l -> l.startsWith("committed "));
      // optimize / ensure-indices / schema apply with nothing to do, or a mutation that matched nothing.
      boolean completedWithoutCommit = java.util.Arrays.stream(child.output().split("\n"))
          .anyMatch(l -> l.equals("committed none"));
      if (sentKill && !completed) {
        killed++;
      }
      if (!completed && child.exitCode() != 137 && child.exitCode() != 0) {
        divergences.add("iteration " + i + " (" + w.describe() + "): child exited " + child.exitCode()
            + " without being killed:\n" + child.output());
        break;
      }
      String outcome;
      try (Graph g = Omnigraph.open(uri)) {
        GraphModel exported = GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(g));
        // Mutations give inserted edges fresh ids: compare with edges keyed by content.
        GraphModel actual = exported.withoutEdgeIds();
        GraphModel expectBefore = model.withoutEdgeIds();
        GraphModel expectAfter = after.withoutEdgeIds();
        List<String> commits = GraphIo.commitIds(g);
        // An automatic maintenance commit on top of the write (published by the child, or rolled
        // forward by the reopen's recovery) changes no row: set it and its audit row aside.
        List<io.omnigraph.api.CommitInfo> infos = g.commits();
        java.util.Set<String> maintenance = new java.util.HashSet<>();
        while (maintenance.size() < infos.size()
            && io.omnigraph.engine.maintenance.AutoMaintenance.MESSAGE.equals(infos.get(maintenance.size()).message())
            && !beforeCommits.contains(infos.get(maintenance.size()).id())) {
          maintenance.add(infos.get(maintenance.size()).id());
        }
        String headActor = infos.get(maintenance.size()).actor();
        commits = commits.subList(maintenance.size(), commits.size());
        if (!maintenance.isEmpty()) {
          maintained++;
        }
        List<io.omnigraph.api.RecoveryRecord> audit = g.recoveries();
        List<io.omnigraph.api.RecoveryRecord> added = audit.subList(beforeAudit, audit.size()).stream()
            .filter(r -> !maintenance.contains(r.graphCommitId())).toList();
        boolean oneMore = commits.size() == beforeCommits.size() + 1
            && commits.subList(1, commits.size()).equals(beforeCommits);
        // The audit must say what recovery did: nothing, a rollback under its own commit, or a
        // roll-forward of the write's own commit.
        boolean auditForHead = added.size() == 1 && added.get(0).graphCommitId().equals(commits.get(0));
        if (actual.equals(expectAfter) && oneMore && added.isEmpty() && !completedWithoutCommit) {
          outcome = "after";
        } else if (actual.equals(expectAfter) && commits.equals(beforeCommits) && added.isEmpty()
            && completedWithoutCommit) {
          outcome = "after (nothing to do)";
        } else if (actual.equals(expectAfter) && oneMore && auditForHead && added.get(0).kind().equals("RolledForward")
            && !completed) {
          outcome = "after (RolledForward)";
        } else if (actual.equals(expectBefore) && commits.equals(beforeCommits) && added.isEmpty() && !completed) {
          outcome = "before";
        } else if (actual.equals(expectBefore) && oneMore && auditForHead && added.get(0).kind().equals("RolledBack")
            && "omnigraph:recovery".equals(headActor) && !completed) {
          outcome = "before (RolledBack)";
        } else {
          divergences.add("iteration " + i + " (" + w.describe() + ", kill after " + delay + " ms, completed "
              + completed + "): neither before [" + expectBefore.diff(actual) + "] nor after [" + expectAfter.diff(actual)
              + "], commits " + commits + " (before " + beforeCommits + "), new audit rows " + added);
          break;
        }
        // Checked equal up to edge ids: continue from the graph's own rows (real edge ids).
        model = exported;
        List<String> sidecars = CrashWrites.sidecars(uri, Map.of());
        if (!sidecars.isEmpty()) {
          divergences.add("iteration " + i + ": sidecars left after reopen: " + sidecars);
          break;
        }
        // Nothing is wedged: a write touching every table succeeds.
        try {
          Workload.Write probe = workload.probe();
          GraphIo.load(g, probe.mode(), probe.ndjson());
          model = model.copy().apply(probe.mode(), probe.ndjson());
        } catch (RuntimeException e) {
          divergences.add("iteration " + i + " (" + outcome + "): the next write failed: " + e);
          break;
        }
        GraphModel now = GraphModel.fromExport(PeopleGraph.KEYS, GraphIo.export(g));
        if (!now.equals(model)) {
          divergences.add("iteration " + i + ": after the probe write: " + model.diff(now));
          break;
        }
      }
      outcomes.merge(outcome, 1, Integer::sum);
      workload.observe(model);
    }
    System.out.println("kill loop: iterations " + iterations + ", writes " + kinds + ", killed mid-write " + killed
        + ", with an automatic maintenance commit " + maintained + ", outcomes " + outcomes
        + ", divergences " + divergences.size() + ", max write " + maxWriteMillis + " ms, seed " + seed);
    assertThat(divergences).as("kill-loop divergences (seed " + seed + ")").isEmpty();
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

  /** Random valid writes over the crash schema, kept valid by observing the model after each step. */
  static final class Workload {
    /**
     * A random write: a load ({@code mode}, {@code ndjson}) or a mutation of {@link CrashMatrixTest#GQ}
     * ({@code query}, {@code params}), with the model of its effect.
     */
    record Write(LoadMode mode, String ndjson, String query, String params, String describe,
        java.util.function.UnaryOperator<GraphModel> effect, String writer) {
      Write(LoadMode mode, String ndjson, String describe) {
        this(mode, ndjson, null, null, describe, m -> m.apply(mode, ndjson), null);
      }

      static Write mutation(String query, String params, String describe,
          java.util.function.UnaryOperator<GraphModel> effect) {
        return new Write(null, null, query, params, describe, effect, null);
      }

      /**
       * One of the writers that change no row: {@code optimize}, {@code ensure-indices}, or
       * {@code schema-apply} of {@link CrashWrites#SCHEMA_APPLY_PG} (two nullable properties, a
       * description and an empty new type: every exported line stays as it was).
       */
      static Write rowPreserving(String writer) {
        return new Write(null, null, null, null, writer, m -> m, writer);
      }

      List<String> childArgs(Path input) {
        if (writer != null) {
          return List.of(writer);
        }
        return query != null ? List.of("mutate", input.toString(), query, params)
            : List.of("load", mode.wireName(), input.toString());
      }

      String input() {
        return writer != null ? "" : query != null ? CrashWrites.GQ : ndjson;
      }

      String kind() {
        return writer != null ? writer : query != null ? "mutate " + query : "load " + mode.wireName();
      }
    }

    private final Random random;
    private final TreeSet<String> persons = new TreeSet<>();
    private final TreeSet<String> companies = new TreeSet<>();
    /** Persons with an outgoing WorksAt edge (cardinality 0..1). */
    private final TreeSet<String> employed = new TreeSet<>();
    private int counter;

    Workload(Random random) {
      this.random = random;
    }

    void observe(GraphModel model) {
      persons.clear();
      companies.clear();
      employed.clear();
      Map<String, Map<String, String>> rows = model.rows();
      persons.addAll(rows.getOrDefault("node:Person", Map.of()).keySet());
      companies.addAll(rows.getOrDefault("node:Company", Map.of()).keySet());
      for (String edge : rows.getOrDefault("edge:WorksAt", Map.of()).values()) {
        employed.add(edge.replaceAll(".*\"from\":\"([^\"]*)\".*", "$1"));
      }
    }

    Write next() {
      int pick = random.nextInt(19);
      if (pick == 16) {
        return Write.rowPreserving("optimize");
      }
      if (pick == 17) {
        return Write.rowPreserving("ensure-indices");
      }
      if (pick == 18) {
        return Write.rowPreserving("schema-apply");
      }
      if (pick < 5) {
        return merge();
      }
      if (pick < 8) {
        return append();
      }
      if (pick < 10) {
        return overwrite();
      }
      if (pick < 12 || persons.size() < 2) {
        return hire();
      }
      if (pick < 14) {
        return setAge();
      }
      return fire();
    }

    /** Mutation: strict inserts of a new person, a new company and an edge between them (3 tables). */
    private Write hire() {
      String p = "h" + (++counter);
      String c = "hc" + counter;
      Integer since = random.nextBoolean() ? 2000 + random.nextInt(25) : null;
      String params = "{\"name\":\"" + p + "\",\"company\":\"" + c + "\"" + (since == null ? "" : ",\"since\":" + since)
          + "}";
      String rows = person(p, null) + company(c) + edge("(fresh)", p, c, since);
      return Write.mutation("hire", params, "mutation hire " + p, m -> m.apply(LoadMode.MERGE, rows));
    }

    /** Mutation: update one existing person's age (1 table). */
    private Write setAge() {
      String p = pickFrom(persons);
      int age = random.nextInt(90);
      return Write.mutation("set_age", "{\"name\":\"" + p + "\",\"age\":" + age + "}", "mutation set_age " + p,
          m -> m.apply(LoadMode.MERGE, person(p, age)));
    }

    /** Mutation: delete one existing person, cascading to its WorksAt edges (1 or 2 tables). */
    private Write fire() {
      String p = pickFrom(persons);
      return Write.mutation("fire", "{\"name\":\"" + p + "\"}", "mutation fire " + p,
          m -> m.deleteNode("Person", p, CrashWrites.EDGE_ENDS));
    }

    /** A merge touching all three tables with fresh rows. */
    Write probe() {
      String p = "probe" + (++counter);
      String c = "probe-co" + counter;
      return new Write(LoadMode.MERGE, person(p, null) + company(c) + edge("pe" + counter, p, c, null), "probe");
    }

    private Write merge() {
      StringBuilder b = new StringBuilder();
      List<String> touched = new ArrayList<>();
      int n = 1 + random.nextInt(4);
      for (int i = 0; i < n; i++) {
        String name = random.nextBoolean() && !persons.isEmpty() ? pickFrom(persons) : "m" + (++counter);
        if (!touched.contains(name)) {
          touched.add(name);
          b.append(person(name, random.nextBoolean() ? random.nextInt(90) : null));
        }
      }
      String co = null;
      if (random.nextBoolean()) {
        co = "mc" + (++counter);
        b.append(company(co));
      }
      String target = co != null ? co : companies.isEmpty() ? null : pickFrom(companies);
      if (target != null) {
        for (String name : touched) {
          if (!employed.contains(name) && random.nextBoolean()) {
            b.append(edge("me" + (++counter), name, target, random.nextBoolean() ? 2000 + random.nextInt(25) : null));
            break;
          }
        }
      }
      return new Write(LoadMode.MERGE, b.toString(), "merge " + touched.size() + " persons" + (co != null ? " +company" : ""));
    }

    private Write append() {
      StringBuilder b = new StringBuilder();
      int n = 1 + random.nextInt(3);
      String first = null;
      for (int i = 0; i < n; i++) {
        String name = "a" + (++counter);
        first = first == null ? name : first;
        b.append(person(name, random.nextInt(3) == 0 ? null : random.nextInt(90)));
      }
      if (!companies.isEmpty() && random.nextBoolean()) {
        b.append(edge("ae" + (++counter), first, pickFrom(companies), null));
      }
      return new Write(LoadMode.APPEND, b.toString(), "append " + n + " persons");
    }

    private Write overwrite() {
      StringBuilder b = new StringBuilder();
      int n = 1 + random.nextInt(4);
      List<String> names = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String name = "o" + (++counter);
        names.add(name);
        b.append(person(name, random.nextBoolean() ? random.nextInt(90) : null));
      }
      if (!companies.isEmpty()) {
        for (String name : names) {
          if (random.nextBoolean()) {
            b.append(edge("oe" + (++counter), name, pickFrom(companies), null));
          }
        }
      }
      // Overwriting Person replaces every person, so every edge must be replaced too: the input
      // always carries the WorksAt table (possibly with no rows, which Lance stores as zero fragments).
      if (!b.toString().contains("\"edge\"")) {
        b.append(edge("oe" + (++counter), names.get(0), pickFrom(companies), null));
      }
      return new Write(LoadMode.OVERWRITE, b.toString(), "overwrite Person+WorksAt with " + n + " persons");
    }

    private String pickFrom(TreeSet<String> set) {
      int k = random.nextInt(set.size());
      return set.stream().skip(k).findFirst().orElseThrow();
    }

    private static String person(String name, Integer age) {
      return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"" + (age == null ? "" : ",\"age\":" + age) + "}}\n";
    }

    private static String company(String title) {
      return "{\"type\":\"Company\",\"data\":{\"title\":\"" + title + "\"}}\n";
    }

    private static String edge(String id, String from, String to, Integer since) {
      return "{\"edge\":\"WorksAt\",\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"data\":{\"id\":\"" + id + "\""
          + (since == null ? "" : ",\"since\":" + since) + "}}\n";
    }
  }
}
