package io.omnigraph.bench;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wall-clock phase breakdown of durable 1-row writes (issue 18 item 2; docs/benchmarks.md, "1-row
 * write: phase breakdown"). Loads the write benchmark's graph (N persons with their companies and
 * edges) once, then runs {@code --warmup} + {@code --ops} 1-row {@code .gq} inserts and as many
 * 1-row updates, each its own durable commit, exactly as {@link WriteBenchChild} does, and marks
 * the time at the engine's own failpoints (armed as {@link FailAction#call} hooks that only read
 * the clock) plus the write-context seam that runs right before the effect window. A phase is the
 * time between two consecutive marks of one write; the table gives the median and mean per phase
 * and each phase's share of the mean write.
 *
 * <p>Arguments: {@code --work <dir>} (default {@code target/phase-work}; a graph already there is
 * reused), {@code --persons N} (100000), {@code --warmup N} (20), {@code --ops N} (60), {@code --load-only
 * true} (load the graph and stop: a copy of it serves back-to-back runs).
 */
public final class WritePhaseProfile {
  private WritePhaseProfile() {}

  /** Marks of the current write, in order: name, nanoTime. */
  private static final List<Object[]> MARKS = new ArrayList<>();

  private static void mark(String name) {
    synchronized (MARKS) {
      MARKS.add(new Object[] {name, System.nanoTime()});
    }
  }

  /** Failpoints on the write path, in the order a 1-row write passes them. */
  static final List<String> POINTS = List.of(Failpoints.SIDECAR_LIST, Failpoints.WRITE_POST_STAGE_PRE_EFFECT,
      Failpoints.SIDECAR_WRITE, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT, Failpoints.TABLE_COMMIT_BEFORE,
      Failpoints.TABLE_COMMIT_AFTER, Failpoints.SIDECAR_CONFIRM, Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH,
      Failpoints.PUBLISH_BEFORE, Failpoints.PUBLISH_AFTER, Failpoints.SIDECAR_DELETE,
      Failpoints.MAINTENANCE_POST_WRITE, Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT,
      Failpoints.OPTIMIZE_POST_TABLE_EFFECT, Failpoints.OPTIMIZE_PRE_PUBLISH, Failpoints.OPTIMIZE_POST_PUBLISH_PRE_RETIRE);

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>(Map.of("--work", "target/phase-work", "--persons", "100000",
        "--warmup", "20", "--ops", "60", "--indices", "true"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i], args[i + 1]);
    }
    Path work = Path.of(opt.get("--work")).toAbsolutePath();
    int persons = Integer.parseInt(opt.get("--persons"));
    int warmup = Integer.parseInt(opt.get("--warmup"));
    int ops = Integer.parseInt(opt.get("--ops"));
    Path graphDir = work.resolve("graph");
    if (!Files.exists(graphDir)) {
      Files.createDirectories(work);
      Path ndjson = work.resolve("input.ndjson");
      WriteBenchmark.writeNdjson(persons, ndjson);
      long t0 = System.nanoTime();
      try (Graph g = Omnigraph.init(graphDir.toString(), ReadBenchData.SCHEMA)) {
        g.load(LoadMode.OVERWRITE, ndjson, LoadOptions.defaults());
        if (Boolean.parseBoolean(opt.get("--indices"))) {
          // What users get after a load (the bulk load is to build id_idx itself): without it the
          // insert's id probe scans every id (docs/benchmarks.md, "1-row write: wall-clock phase breakdown").
          long ti = System.nanoTime();
          g.ensureIndices();
          System.out.printf("ensure-indices in %d ms%n", (System.nanoTime() - ti) / 1_000_000);
        }
      }
      System.out.printf("loaded %,d persons in %d ms%n", persons, (System.nanoTime() - t0) / 1_000_000);
      Files.delete(ndjson);
    }
    if (Boolean.parseBoolean(opt.getOrDefault("--load-only", "false"))) {
      System.exit(0); // a graph to copy for back-to-back runs
    }
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    System.out.println("load average before: " + load);
    List<AutoCloseable> armed = new ArrayList<>();
    for (String p : POINTS) {
      armed.add(Failpoints.arm(p, FailAction.call(() -> mark(p))));
    }
    try {
      // Finer marks, where a build has them (a temporary profiling build; absent on main).
      Failpoints.class.getField("profileMark").set(null,
          (java.util.function.Consumer<String>) WritePhaseProfile::mark);
    } catch (NoSuchFieldException e) {
      // only the failpoints
    }
    try (Graph g = Omnigraph.open(graphDir.toString())) {
      hookBeforeWindow(g);
      PreparedMutation add = g.prepareMutation(WriteBenchChild.GQ, "add");
      PreparedMutation set = g.prepareMutation(WriteBenchChild.GQ_UPDATE, "setAge");
      long stamp = System.currentTimeMillis() % 1_000_000;
      run("1-row insert", warmup, ops, i -> g.mutate(add, QueryParams.of(Map.of("pid", "prof-" + stamp + "-" + i,
          "name", "n" + i, "age", 30L)), MutationOptions.defaults()));
      run("1-row update", warmup, ops, i -> g.mutate(set, QueryParams.of(Map.of("pid",
          WriteBenchChild.updatedPid(i + (int) (stamp % 100)), "age", 40L + i)), MutationOptions.defaults()));
    } finally {
      for (AutoCloseable a : armed) {
        a.close();
      }
    }
    System.out.println("publishes that committed their files written ahead: "
        + io.omnigraph.engine.manifest.ManifestPublisher.writtenAheadCommitted() + ", discarded: "
        + io.omnigraph.engine.manifest.ManifestPublisher.writtenAheadDiscarded());
    System.out.println("load average after: " + Files.readString(Path.of("/proc/loadavg")).trim());
    System.exit(0);
  }

  /** Marks the end of preparation: the write context's seam that runs right before the effect window. */
  private static void hookBeforeWindow(Graph g) throws ReflectiveOperationException {
    for (Class<?> c = g.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField("beforeEffectWindow");
        f.setAccessible(true);
        f.set(g, (Runnable) () -> mark("prepared (before effect window)"));
        return;
      } catch (NoSuchFieldException e) {
        // try the superclass
      }
    }
    System.out.println("(no beforeEffectWindow seam on " + g.getClass() + ": preparation is not split from the window)");
  }

  interface Op {
    void run(int i);
  }

  private static void run(String what, int warmup, int ops, Op op) {
    Map<String, long[]> phases = new LinkedHashMap<>();
    long[] totals = new long[ops];
    List<String> firstSequence = null;
    String[] detail = new String[ops];
    int[] kinds = new int[ops]; // 0: no maintenance, 1: a table compaction ran, 2: only __manifest
    long[] gcMillis = new long[ops];
    long[] gcCounts = new long[ops];
    long[] jitMillis = new long[ops];
    long[] cpuStall = new long[ops]; // microseconds some task waited for a CPU during the write (PSI)
    long[] ioStall = new long[ops]; // microseconds some task waited for I/O during the write (PSI)
    for (int i = 0; i < warmup + ops; i++) {
      synchronized (MARKS) {
        MARKS.clear();
      }
      long gc0 = gcMillis();
      long gcn0 = gcCount();
      long jit0 = jitMillis();
      long cpu0 = pressure("cpu");
      long io0 = pressure("io");
      long t0 = System.nanoTime();
      op.run(i);
      long t1 = System.nanoTime();
      if (i < warmup) {
        continue;
      }
      int k = i - warmup;
      totals[k] = t1 - t0;
      gcMillis[k] = gcMillis() - gc0;
      gcCounts[k] = gcCount() - gcn0;
      jitMillis[k] = jitMillis() - jit0;
      cpuStall[k] = pressure("cpu") - cpu0;
      ioStall[k] = pressure("io") - io0;
      List<Object[]> marks;
      synchronized (MARKS) {
        marks = new ArrayList<>(MARKS);
      }
      marks.add(0, new Object[] {"start", t0});
      marks.add(new Object[] {"return", t1});
      List<String> seq = new ArrayList<>();
      StringBuilder d = new StringBuilder();
      Map<String, Integer> seen = new LinkedHashMap<>();
      for (int m = 1; m < marks.size(); m++) {
        String from = (String) marks.get(m - 1)[0];
        String to = (String) marks.get(m)[0];
        String label = from + " -> " + to;
        int n = seen.merge(label, 1, Integer::sum);
        if (n > 1) {
          label = label + " #" + n;
        }
        seq.add(label);
        d.append(String.format("%n    %8.2f  %s", ((long) marks.get(m)[1] - (long) marks.get(m - 1)[1]) / 1e6, label));
        phases.computeIfAbsent(label, x -> new long[ops])[k] += (long) marks.get(m)[1] - (long) marks.get(m - 1)[1];
      }
      if (firstSequence == null) {
        firstSequence = seq;
      }
      kinds[k] = marks.stream().anyMatch(m -> Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT.equals(m[0])) ? 1
          : marks.stream().anyMatch(m -> Failpoints.MAINTENANCE_POST_WRITE.equals(m[0])) ? 2 : 0;
      detail[k] = d.toString();
    }
    double meanTotal = Arrays.stream(totals).average().orElse(0) / 1e6;
    long[] sorted = totals.clone();
    Arrays.sort(sorted);
    System.out.printf("%n%s: %d measured after %d warm-up; p50 %.2f ms, p99 %.2f ms, mean %.2f ms%n", what, ops,
        warmup, sorted[(ops - 1) / 2] / 1e6, sorted[Math.max(0, (int) Math.ceil(ops * 0.99) - 1)] / 1e6, meanTotal);
    System.out.println("| phase (between marks) | median ms | mean ms | share of mean |");
    System.out.println("|---|---|---|---|");
    for (Map.Entry<String, long[]> e : phases.entrySet()) {
      long[] v = e.getValue().clone();
      Arrays.sort(v);
      double mean = Arrays.stream(v).average().orElse(0) / 1e6;
      System.out.printf("| %s | %.2f | %.2f | %.1f%% |%n", e.getKey(), v[(ops - 1) / 2] / 1e6, mean,
          100 * mean / meanTotal);
    }
    System.out.println("first measured write's sequence: " + firstSequence);
    // The p99 in pieces: the writes that ran automatic maintenance after their publish, by what it did.
    String[] kindNames = {"no maintenance", "a table compaction (+ __manifest when due with it)", "only __manifest compacted"};
    for (int kind = 0; kind < 3; kind++) {
      final int kk = kind;
      long[] v = java.util.stream.IntStream.range(0, ops).filter(k -> kinds[k] == kk).mapToLong(k -> totals[k]).sorted()
          .toArray();
      if (v.length > 0) {
        System.out.printf("writes with %s: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", kindNames[kind], v.length,
            v[(v.length - 1) / 2] / 1e6, v[Math.max(0, (int) Math.ceil(v.length * 0.99) - 1)] / 1e6, v[v.length - 1] / 1e6);
      }
    }
    // The slowest writes, phase by phase: what the p99 is made of (a maintenance run, a GC pause, a sync).
    Integer[] order = new Integer[ops];
    for (int k = 0; k < ops; k++) {
      order[k] = k;
    }
    Arrays.sort(order, (a, b) -> Long.compare(totals[b], totals[a]));
    for (int r = 0; r < Math.min(3, ops); r++) {
      int k = order[r];
      System.out.printf("slowest #%d: write %d, %.2f ms (GC %d collections %d ms, JIT %d ms):%s%n", r + 1, k,
          totals[k] / 1e6, gcCounts[k], gcMillis[k], jitMillis[k], detail[k]);
    }
    // The tail of the writes that ran no maintenance: their own slowest, and how much of the time over
    // their median was a GC or JIT compilation during the write (cumulative JVM counters).
    Integer[] plain = Arrays.stream(order).filter(k -> kinds[k] == 0).toArray(Integer[]::new);
    for (int r = 0; r < Math.min(3, plain.length); r++) {
      int k = plain[r];
      System.out.printf("slowest without maintenance #%d: write %d, %.2f ms (GC %d collections %d ms, JIT %d ms,"
          + " CPU pressure %.1f ms, I/O pressure %.1f ms%s):%s%n",
          r + 1, k, totals[k] / 1e6, gcCounts[k], gcMillis[k], jitMillis[k], cpuStall[k] / 1e3, ioStall[k] / 1e3,
          k > 0 && kinds[k - 1] != 0 ? "; the write before ran maintenance" : "", detail[k]);
    }
    int tail = Math.max(1, plain.length / 20);
    long tailGc = 0;
    long tailGcWrites = 0;
    long tailJit = 0;
    for (int r = 0; r < Math.min(tail, plain.length); r++) {
      tailGc += gcMillis[plain[r]];
      tailGcWrites += gcCounts[plain[r]] > 0 ? 1 : 0;
      tailJit += jitMillis[plain[r]];
    }
    long allGcWrites = Arrays.stream(plain).filter(k -> gcCounts[k] > 0).count();
    long afterMaintenance = Arrays.stream(plain).limit(tail).filter(k -> k > 0 && kinds[k - 1] != 0).count();
    // PSI (Linux /proc/pressure): time some task of the machine waited for a CPU or for I/O while the
    // write ran, as a share of the write's time; the tail against the median write.
    double[] cpuShare = Arrays.stream(plain).mapToDouble(k -> cpuStall[k] * 1e3 / Math.max(1, totals[k])).toArray();
    double[] ioShare = Arrays.stream(plain).mapToDouble(k -> ioStall[k] * 1e3 / Math.max(1, totals[k])).toArray();
    double tailCpu = 0;
    double tailIo = 0;
    for (int r = 0; r < Math.min(tail, plain.length); r++) {
      tailCpu += cpuShare[r];
      tailIo += ioShare[r];
    }
    int n = Math.max(1, Math.min(tail, plain.length));
    double[] sc = cpuShare.clone();
    double[] si = ioShare.clone();
    Arrays.sort(sc);
    Arrays.sort(si);
    System.out.printf("pressure during writes without maintenance (share of the write's time some task waited):"
        + " CPU median %.0f%%, slowest 5%% %.0f%%; I/O median %.0f%%, slowest 5%% %.0f%%%n",
        100 * sc[(sc.length - 1) / 2], 100 * tailCpu / n, 100 * si[(si.length - 1) / 2], 100 * tailIo / n);
    System.out.printf("slowest 5%% without maintenance: %d followed a write that ran maintenance%n", afterMaintenance);
    System.out.printf("slowest 5%% without maintenance (%d writes): %d had a GC (%d ms in all), JIT %d ms in all;"
        + " of all %d such writes %d had a GC%n", Math.min(tail, plain.length), tailGcWrites, tailGc, tailJit,
        plain.length, allGcWrites);
  }

  /** @return the "some" total of {@code /proc/pressure/<what>} in microseconds, or 0 without PSI */
  private static long pressure(String what) {
    try {
      String line = Files.readAllLines(Path.of("/proc/pressure/" + what)).get(0);
      return Long.parseLong(line.substring(line.indexOf("total=") + 6).trim());
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long gcMillis() {
    long t = 0;
    for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      t += Math.max(0, b.getCollectionTime());
    }
    return t;
  }

  private static long gcCount() {
    long n = 0;
    for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, b.getCollectionCount());
    }
    return n;
  }

  private static long jitMillis() {
    java.lang.management.CompilationMXBean c = java.lang.management.ManagementFactory.getCompilationMXBean();
    return c != null && c.isCompilationTimeMonitoringSupported() ? c.getTotalCompilationTime() : 0;
  }
}
