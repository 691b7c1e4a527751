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
 * The bulk-adopt merge benchmark (issue 14, docs/benchmarks.md). Per size, {@code --pairs} matched
 * pairs of child JVMs ({@link MergeBenchChild}) in the order AB BA AB BA AB (A = engine, B = raw):
 * the engine child times {@code Graph.merge("f", "main")} of N all-new rows that branch {@code f}
 * appended in loads of at most 8,192 rows onto a {@code main} of {@code --base} rows; the raw child
 * times one lance-java APPEND of the same N rows into a raw dataset of {@code --base} rows. Prints per
 * size the median times, the median of the per-pair time ratios, the paired peak-RSS delta (engine
 * peak − raw peak of the measured operation, VmHWM after a reset; median and max), the merge outcome,
 * the route it took and its transaction count.
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-merge -DskipTests [-Dbench.merge.args="--sizes 10000,100000 --pairs 5 --base 1000"]</pre>
 */
public final class MergeBenchmark {
  private MergeBenchmark() {}

  record Run(String impl, int rows, long nanos, long peakKib, String rssMode, String outcome, String route,
      int transactions) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--sizes", "10000,100000", "--pairs", "5", "--base", "1000",
        "--work", "target/bench-work", "--child-jvm-args", ""));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int pairs = Integer.parseInt(a.get("--pairs"));
    int base = Integer.parseInt(a.get("--base"));
    Path work = Path.of(a.get("--work")).resolve("merge");
    List<String> report = new ArrayList<>();
    report.add("| rows | pairs | merge median ms | raw median ms | median ratio | peak RSS delta median / max (MiB) | outcome | route | transactions |");
    report.add("|---|---|---|---|---|---|---|---|---|");
    for (String s : a.get("--sizes").split(",")) {
      int n = Integer.parseInt(s.trim());
      List<Run> engine = new ArrayList<>();
      List<Run> raw = new ArrayList<>();
      for (int p = 0; p < pairs; p++) {
        List<String> order = p % 2 == 0 ? List.of("engine", "raw") : List.of("raw", "engine");
        for (String impl : order) {
          Path dir = work.resolve(n + "-" + p + "-" + impl);
          LoadBenchmark.deleteTree(dir);
          Run r = child(impl, n, base, dir, a.get("--child-jvm-args"));
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
        + " rows; peak RSS = VmHWM of the measured operation)");
    report.forEach(System.out::println);
  }

  private static Run child(String impl, int rows, int base, Path dir, String jvmArgs)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djava.io.tmpdir")) {
        cmd.add(arg);
      }
    }
    cmd.add("-Xmx2g");
    // e.g. a JFR recording per child: --child-jvm-args -Dx=y;-XX:StartFlightRecording=filename=m-{impl}-{rows}.jfr
    for (String extra : jvmArgs.trim().split("[\\s;]+")) {
      if (!extra.isEmpty()) {
        cmd.add(extra.replace("{impl}", impl).replace("{rows}", Integer.toString(rows)));
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(MergeBenchChild.class.getName());
    cmd.addAll(List.of(impl, Integer.toString(rows), Integer.toString(base), dir.toString()));
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
      throw new IllegalStateException("merge benchmark child " + cmd.subList(cmd.size() - 4, cmd.size())
          + " failed with exit " + exit);
    }
    // RESULT impl rows nanos peakKiB rssMode outcome route transactions
    String[] f = result.split(" ");
    return new Run(f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), f[5], f[6], f[7],
        Integer.parseInt(f[8]));
  }
}
