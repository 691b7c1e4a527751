package io.omnigraph.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The load benchmark. For each size and scenario it runs {@code --pairs} matched pairs of child JVMs
 * ({@link BenchChild}) in the order AB BA AB ... (A = engine load, B = raw lance-java writing the
 * same Arrow data), and prints the median engine/raw time ratio and the peak-RSS delta of the
 * measured operation.
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench -DskipTests [-Dbench.args="--sizes 10000,100000 --pairs 5"]</pre>
 *
 * Scenarios: {@code overwrite} = load N node rows into an empty graph vs a raw Lance create of the
 * same rows; {@code merge} = merge 8,192 new rows into a table of N rows vs a raw Lance merge-insert
 * of the same rows.
 */
public final class LoadBenchmark {
  private LoadBenchmark() {}

  record Run(String impl, String scenario, int rows, long nanos, long peakKib, String rssMode, String phases) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--sizes", "10000,100000", "--pairs", "5",
        "--work", "target/bench-work", "--scenarios", "overwrite,merge"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int pairs = Integer.parseInt(a.get("--pairs"));
    Path work = Path.of(a.get("--work"));
    List<String> report = new ArrayList<>();
    report.add("| scenario | rows | pairs | engine median ms | raw median ms | median ratio | peak RSS delta median / max (MiB) | engine phases (median ms) |");
    report.add("|---|---|---|---|---|---|---|---|");
    for (String scenario : a.get("--scenarios").split(",")) {
      for (String size : a.get("--sizes").split(",")) {
        int rows = Integer.parseInt(size.trim());
        List<Run> engine = new ArrayList<>();
        List<Run> raw = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
          List<String> order = p % 2 == 0 ? List.of("engine", "raw") : List.of("raw", "engine");
          for (String impl : order) {
            Path dir = work.resolve(scenario + "-" + rows + "-" + p + "-" + impl);
            deleteTree(dir);
            Run r = child(impl, scenario, rows, dir);
            (impl.equals("engine") ? engine : raw).add(r);
            deleteTree(dir);
            System.err.printf(Locale.ROOT, "  %s %s rows=%d pair=%d: %.1f ms, peak %d KiB (%s)%n", impl, scenario, rows,
                p, r.nanos / 1e6, r.peakKib, r.rssMode);
          }
        }
        double[] ratios = new double[pairs];
        double[] rss = new double[pairs];
        for (int p = 0; p < pairs; p++) {
          ratios[p] = (double) engine.get(p).nanos / raw.get(p).nanos;
          rss[p] = (engine.get(p).peakKib - raw.get(p).peakKib) / 1024.0;
        }
        report.add(String.format(Locale.ROOT, "| %s | %,d | %d | %.1f | %.1f | %.2fx | %.1f / %.1f | %s |", scenario, rows,
            pairs, median(engine.stream().mapToDouble(r -> r.nanos / 1e6).toArray()),
            median(raw.stream().mapToDouble(r -> r.nanos / 1e6).toArray()), median(ratios), median(rss),
            Arrays.stream(rss).max().orElse(0), phases(engine)));
      }
    }
    System.out.println();
    System.out.println("Load benchmark (" + System.getProperty("os.name") + ", " + Runtime.getRuntime().availableProcessors()
        + " cores, Java " + System.getProperty("java.version") + "; peak RSS = VmHWM of the measured operation)");
    report.forEach(System.out::println);
  }

  private static String phases(List<Run> runs) {
    Map<String, List<Double>> byPhase = new LinkedHashMap<>();
    for (Run r : runs) {
      for (String kv : r.phases.split(",")) {
        String[] p = kv.split("=");
        if (p.length == 2) {
          byPhase.computeIfAbsent(p[0], k -> new ArrayList<>()).add(Long.parseLong(p[1]) / 1e6);
        }
      }
    }
    StringBuilder b = new StringBuilder();
    byPhase.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ')
        .append(String.format(Locale.ROOT, "%.1f", median(v.stream().mapToDouble(Double::doubleValue).toArray()))));
    return b.toString();
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static Run child(String impl, String scenario, int rows, Path dir) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djava.io.tmpdir")) {
        cmd.add(arg);
      }
    }
    cmd.add("-Xmx2g");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(BenchChild.class.getName());
    cmd.addAll(List.of(impl, scenario, Integer.toString(rows), dir.toString()));
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
      throw new IllegalStateException("benchmark child " + cmd.subList(cmd.size() - 4, cmd.size()) + " failed with exit "
          + exit);
    }
    String[] f = result.split(" ");
    return new Run(f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), f[6],
        f.length > 7 ? f[7] : "-");
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
