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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Throughput with many writers (issue 18, item 3): durable 1-row inserts on disjoint keys into a
 * loaded OmniGraph graph by one writer thread, by {@code --threads} threads of one process (one
 * shared handle), and by {@code --processes} processes of one writer thread each; commits/s and
 * p99 latency per scenario.
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-throughput -DskipTests \
 *     [-Dbench.throughput.args="--persons 10000 --rounds 3 --ops 40 --threads 8 --processes 4"]</pre>
 *
 * Per round and scenario (rotated order) a fresh graph of {@code --persons} persons is bulk loaded
 * (the write benchmark's data, {@link WriteBenchmark#writeNdjson}) by a child JVM; then the
 * scenario's child JVM(s) ({@link WriteBenchChild} {@code throughput}) open it, insert one unmeasured
 * row per writer, report READY, and all start when the parent creates a start file. Every writer
 * inserts {@code --ops} rows, each its own durable commit. Commits/s = all measured commits /
 * (last writer's end − first writer's start), p99 over every measured insert of the scenario;
 * medians over rounds. Conflicts (a writer of another process publishing first 32 times in a row)
 * are retried and counted.
 */
public final class WriterThroughputBenchmark {
  private WriterThroughputBenchmark() {}

  record Scenario(String name, int processes, int threads) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--persons", "10000", "--rounds", "3", "--ops", "40",
        "--threads", "8", "--processes", "4", "--work", "target/bench-throughput-work"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int persons = Integer.parseInt(a.get("--persons"));
    int rounds = Integer.parseInt(a.get("--rounds"));
    int ops = Integer.parseInt(a.get("--ops"));
    int threads = Integer.parseInt(a.get("--threads"));
    int processes = Integer.parseInt(a.get("--processes"));
    List<Scenario> scenarios = List.of(new Scenario("1 writer", 1, 1),
        new Scenario(threads + " threads, 1 process", 1, threads),
        new Scenario(processes + " processes, 1 thread each", processes, 1));
    Path work = Path.of(a.get("--work")).toAbsolutePath();
    LoadBenchmark.deleteTree(work);
    Files.createDirectories(work);
    Path ndjson = work.resolve("input.ndjson");
    WriteBenchmark.writeNdjson(persons, ndjson);
    double[] loadRange = {Double.MAX_VALUE, 0};
    long started = System.nanoTime();
    Map<String, List<Double>> rate = new LinkedHashMap<>();
    Map<String, List<Double>> p50 = new LinkedHashMap<>();
    Map<String, List<Double>> p99 = new LinkedHashMap<>();
    Map<String, Long> conflicts = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      List<Scenario> order = new ArrayList<>(scenarios);
      java.util.Collections.rotate(order, -(r % order.size()));
      for (Scenario s : order) {
        Path dir = work.resolve("r" + r + "-" + s.processes() + "x" + s.threads());
        Files.createDirectories(dir);
        sampleLoad(loadRange);
        List<Process> load = launch(List.of("load", "omnigraph", Integer.toString(persons), dir.toString(),
            ndjson.toString()));
        drain(load.get(0), null);
        Path startFile = dir.resolve("start");
        sampleLoad(loadRange);
        List<Process> writers = new ArrayList<>();
        for (int p = 0; p < s.processes(); p++) {
          writers.addAll(launch(List.of("throughput", "omnigraph", Integer.toString(persons), dir.toString(),
              Integer.toString(s.threads()), Integer.toString(ops), "p" + p, startFile.toString())));
        }
        List<BufferedReader> outs = new ArrayList<>();
        for (Process p : writers) {
          BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
          outs.add(out);
          for (String line; ; ) {
            line = out.readLine();
            if (line == null) {
              throw new IllegalStateException("a throughput child ended before READY (exit " + p.waitFor() + ")");
            }
            if (line.equals("READY")) {
              break;
            }
          }
        }
        Files.createFile(startFile);
        long first = Long.MAX_VALUE;
        long last = 0;
        long n = 0;
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < writers.size(); i++) {
          String[] f = drain(writers.get(i), outs.get(i)).split(" ");
          first = Math.min(first, Long.parseLong(f[1]));
          last = Math.max(last, Long.parseLong(f[2]));
          n += Long.parseLong(f[3]);
          conflicts.merge(s.name(), Long.parseLong(f[4]), Long::sum);
          for (String x : f[5].split(",")) {
            latencies.add(Long.parseLong(x));
          }
        }
        double[] lat = latencies.stream().mapToDouble(Long::doubleValue).sorted().toArray();
        rate.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(n / ((last - first) / 1e6));
        p50.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(lat[(lat.length - 1) / 2] / 1e6);
        p99.computeIfAbsent(s.name(), k -> new ArrayList<>())
            .add(lat[Math.max(0, (int) Math.ceil(lat.length * 0.99) - 1)] / 1e6);
        LoadBenchmark.deleteTree(dir);
        System.err.printf(Locale.ROOT, "  round %d %s done (%.0f s)%n", r, s.name(), (System.nanoTime() - started) / 1e9);
      }
    }
    sampleLoad(loadRange);
    System.out.println();
    System.out.printf(Locale.ROOT, "Writer throughput (%s, %d cores, Java %s; graph of %,d persons, %d rounds, %d durable"
        + " 1-row inserts per writer on disjoint keys; medians over rounds; load average %.2f-%.2f; wall %.0f s)%n",
        System.getProperty("os.name"), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        persons, rounds, ops, loadRange[0], loadRange[1], (System.nanoTime() - started) / 1e9);
    System.out.println();
    System.out.println("| writers | commits/s | × 1 writer | insert p50 ms | insert p99 ms | conflicts retried |");
    System.out.println("|---|---|---|---|---|---|");
    double single = LoadBenchmark.median(rate.get(scenarios.get(0).name()).stream().mapToDouble(Double::doubleValue)
        .toArray());
    for (Scenario s : scenarios) {
      double m = LoadBenchmark.median(rate.get(s.name()).stream().mapToDouble(Double::doubleValue).toArray());
      System.out.printf(Locale.ROOT, "| %s | %s | %.2f | %s | %s | %d |%n", s.name(), range(rate.get(s.name()), "%.1f"),
          m / single, range(p50.get(s.name()), "%.1f"), range(p99.get(s.name()), "%.1f"), conflicts.get(s.name()));
    }
  }

  private static String range(List<Double> xs, String fmt) {
    double[] v = xs.stream().mapToDouble(Double::doubleValue).toArray();
    return String.format(Locale.ROOT, fmt + " (" + fmt + "–" + fmt + ")", LoadBenchmark.median(v),
        Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0));
  }

  private static void sampleLoad(double[] range) {
    try {
      double l = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
      range[0] = Math.min(range[0], l);
      range[1] = Math.max(range[1], l);
    } catch (IOException | RuntimeException e) {
      // not Linux: no load figure
    }
  }

  private static List<Process> launch(List<String> childArgs) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djava.io.tmpdir") || arg.startsWith("-Domnigraph.native.cache=")) {
        cmd.add(arg);
      }
    }
    cmd.addAll(List.of("-Xmx1g", "-cp", System.getProperty("java.class.path"), WriteBenchChild.class.getName()));
    cmd.addAll(childArgs);
    return List.of(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
  }

  /** Reads a child's output to its end; @return its last THROUGHPUT line, or null. */
  private static String drain(Process p, BufferedReader reader) throws IOException, InterruptedException {
    BufferedReader r = reader != null ? reader
        : new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String result = null;
    for (String line; (line = r.readLine()) != null; ) {
      if (line.startsWith("THROUGHPUT ")) {
        result = line;
      }
    }
    int exit = p.waitFor();
    if (exit != 0) {
      throw new IllegalStateException("throughput benchmark child failed with exit " + exit);
    }
    return result;
  }
}
