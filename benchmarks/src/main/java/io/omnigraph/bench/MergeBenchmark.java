package io.omnigraph.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bulk-adopt merge benchmark (issue 14, docs/benchmarks.md), after the seed's phased protocol.
 * Per size, {@code --pairs} matched pairs in the order AB BA AB BA AB (A = engine, B = comparator);
 * every run is a setup child that persists a fresh fixture and exits, then a measured child
 * ({@link MergeBenchChild}) that opens it: {@code main} of {@code --base} rows, branch {@code f}
 * that appended N all-new rows in loads of at most 8,192 rows. The engine child times
 * {@code Graph.merge("f", "main")}; the comparator child ({@code --comparator raw}, the seed's)
 * opens the same graph, then times lance-java streaming the N rows out of branch {@code f} and
 * appending them straight to {@code main}'s table in one commit ({@code --comparator memory}: the
 * harness's earlier comparator, an APPEND of rows already in memory to a separate dataset). Prints
 * per size the median times, the median of the per-pair time ratios, the signed paired peak-RSS
 * delta (engine peak − comparator peak, each the measured child's VmHWM from a mark reset after
 * its JIT warm-up and before the open of the measured fixture; median and max — the seed gates
 * the max), the merge outcome, the route and its transaction count.
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-merge -DskipTests [-Dbench.merge.args="--sizes 10000,100000 --pairs 5 --base 1000"]</pre>
 */
public final class MergeBenchmark {
  private MergeBenchmark() {}

  record Run(String impl, int rows, long nanos, long peakKib, String rssMode, String outcome, String route,
      int transactions) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--sizes", "10000,100000", "--pairs", "5", "--base", "1000",
        "--work", "target/bench-work", "--child-jvm-args", "", "--comparator", "raw"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int pairs = Integer.parseInt(a.get("--pairs"));
    int base = Integer.parseInt(a.get("--base"));
    String comparator = a.get("--comparator");
    if (!comparator.equals("raw") && !comparator.equals("memory")) {
      throw new IllegalArgumentException("--comparator is raw or memory, not " + comparator);
    }
    Path work = Path.of(a.get("--work")).resolve("merge");
    List<String> report = new ArrayList<>();
    report.add("| rows | pairs | merge median ms | raw median ms | median ratio | peak RSS delta median / max (MiB) | outcome | route | transactions |");
    report.add("|---|---|---|---|---|---|---|---|---|");
    for (String s : a.get("--sizes").split(",")) {
      int n = Integer.parseInt(s.trim());
      List<Run> engine = new ArrayList<>();
      List<Run> raw = new ArrayList<>();
      for (int p = 0; p < pairs; p++) {
        List<String> order = p % 2 == 0 ? List.of("engine", comparator) : List.of(comparator, "engine");
        for (String impl : order) {
          Path dir = work.resolve(n + "-" + p + "-" + impl);
          LoadBenchmark.deleteTree(dir);
          child(List.of("setup", Integer.toString(n), Integer.toString(base), dir.toString()), "");
          String[] f = child(List.of("operation", impl, Integer.toString(n), Integer.toString(base), dir.toString()),
              a.get("--child-jvm-args").replace("{impl}", impl).replace("{rows}", Integer.toString(n)));
          // RESULT impl rows nanos peakKiB rssMode outcome route transactions
          Run r = new Run(f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), f[5], f[6], f[7],
              Integer.parseInt(f[8]));
          LoadBenchmark.deleteTree(dir);
          (impl.equals("engine") ? engine : raw).add(r);
          System.err.printf(Locale.ROOT, "  %s rows=%d pair=%d: %.1f ms, peak %d KiB (%s) %s %s%n", impl, n, p,
              r.nanos / 1e6, r.peakKib, r.rssMode, r.outcome, r.route);
        }
      }
      double[] ratios = new double[pairs];
      double[] rss = new double[pairs];
      for (int p = 0; p < pairs; p++) {
        ratios[p] = (double) engine.get(p).nanos / raw.get(p).nanos;
        rss[p] = (engine.get(p).peakKib - raw.get(p).peakKib) / 1024.0;
      }
      Run last = engine.get(engine.size() - 1);
      report.add(String.format(Locale.ROOT, "| %,d | %d | %.1f | %.1f | %.2f× | %.1f / %.1f | %s | %s | %d |", n, pairs,
          LoadBenchmark.median(engine.stream().mapToDouble(r -> r.nanos / 1e6).toArray()),
          LoadBenchmark.median(raw.stream().mapToDouble(r -> r.nanos / 1e6).toArray()), LoadBenchmark.median(ratios),
          LoadBenchmark.median(rss), Arrays.stream(rss).max().orElse(0), last.outcome, last.route, last.transactions));
      System.out.println("size " + n + ": merge " + engine.stream().map(r -> r.nanos / 1e6).toList() + " ms, raw "
          + raw.stream().map(r -> r.nanos / 1e6).toList() + " ms; routes "
          + engine.stream().map(Run::route).distinct().toList());
    }
    System.out.println();
    System.out.println("Merge benchmark (" + System.getProperty("os.name") + ", " + Runtime.getRuntime().availableProcessors()
        + " cores, Java " + System.getProperty("java.version") + "; base " + base
        + " rows; comparator " + comparator + "; peak RSS = VmHWM of the measured child from open to end of operation)");
    report.forEach(System.out::println);
  }

  /** Runs one {@link MergeBenchChild} phase in its own JVM; @return the fields of its RESULT line */
  private static String[] child(List<String> childArgs, String jvmArgs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djava.io.tmpdir")) {
        cmd.add(arg);
      }
    }
    cmd.add("-Xmx2g");
    // e.g. a JFR recording per measured child: --child-jvm-args -XX:StartFlightRecording=filename=m-{impl}-{rows}.jfr
    for (String extra : jvmArgs.trim().split("[\\s;]+")) {
      if (!extra.isEmpty()) {
        cmd.add(extra);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(MergeBenchChild.class.getName());
    cmd.addAll(childArgs);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String result = null;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("RESULT ")) {
          result = line;
        }
      }
    }
    int exit = p.waitFor();
    if (exit != 0 || result == null) {
      throw new IllegalStateException("merge benchmark child " + childArgs + " failed with exit " + exit);
    }
    return result.split(" ");
  }
}
