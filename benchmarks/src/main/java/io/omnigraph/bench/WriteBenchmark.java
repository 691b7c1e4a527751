package io.omnigraph.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The write benchmark against the peers (issue 18, item 5): bulk load of the same NDJSON into a
 * durable store, and 1-row insert latency into the loaded graph, for OmniGraph, Kùzu and Neo4j
 * embedded.
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-write -DskipTests \
 *     [-Dbench.write.args="--sizes 10000,100000 --rounds 5 --warmup 10 --ops 50"]</pre>
 *
 * Data per size N: N persons ({@code pid}, {@code name}, {@code age}), N/10 companies, a WorksAt
 * edge for nine persons in ten and 2 Knows edges out of every person (so 100,000 persons come with
 * 10,000 companies and 290,000 edges). Each measurement is a fresh child JVM
 * ({@link WriteBenchChild}); each round runs every system once per size, in a rotated order
 * (ABC, BCA, CAB, ...): a load into a fresh directory, then (for the insert sizes, default the
 * largest) a child that opens that store and times {@code --ops} 1-row inserts after
 * {@code --warmup}, each its own durable commit. The table shows medians over the rounds (of each
 * round's load time, peak RSS, insert p50 and p99) and the load average ({@code /proc/loadavg},
 * 1 minute) seen before each child, min–max.
 *
 * <p>Durability: OmniGraph syncs every file of a commit and its directory entries before it
 * returns (docs/write-protocol.md, "Durability"); Kùzu 0.11 and Neo4j 5.26 run with their
 * defaults, which force their write-ahead / transaction log at commit.
 */
public final class WriteBenchmark {
  private WriteBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--sizes", "10000,100000", "--rounds", "5", "--warmup", "10",
        "--ops", "50", "--work", "target/bench-write-work", "--systems", "omnigraph,kuzu,neo4j"));
    a.put("--insert-sizes", "");
    a.put("--update-ops", "0"); // 1-row updates per insert size (opt-in; 0 = none)
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int rounds = Integer.parseInt(a.get("--rounds"));
    List<String> systems = List.of(a.get("--systems").split(","));
    List<Integer> sizes = new ArrayList<>();
    for (String s : a.get("--sizes").split(",")) {
      sizes.add(Integer.parseInt(s.trim()));
    }
    List<Integer> insertSizes = new ArrayList<>();
    if (a.get("--insert-sizes").isBlank()) {
      insertSizes.add(sizes.stream().max(Integer::compare).orElseThrow());
    } else {
      for (String s : a.get("--insert-sizes").split(",")) {
        insertSizes.add(Integer.parseInt(s.trim()));
      }
    }
    Path work = Path.of(a.get("--work")).toAbsolutePath();
    LoadBenchmark.deleteTree(work);
    Files.createDirectories(work);
    long started = System.nanoTime();
    double[] loadRange = {Double.MAX_VALUE, 0};
    // size -> system -> values over rounds
    Map<Integer, Map<String, List<Double>>> loadMs = new LinkedHashMap<>();
    Map<Integer, Map<String, List<Double>>> rssMiB = new LinkedHashMap<>();
    Map<Integer, Map<String, List<Double>>> indexMs = new LinkedHashMap<>();
    Map<Integer, Map<String, List<Double>>> p50 = new LinkedHashMap<>();
    Map<Integer, Map<String, List<Double>>> p99 = new LinkedHashMap<>();
    Map<Integer, Map<String, List<Double>>> u50 = new LinkedHashMap<>();
    Map<Integer, Map<String, List<Double>>> u99 = new LinkedHashMap<>();
    for (int size : sizes) {
      Path ndjson = work.resolve("input-" + size + ".ndjson");
      writeNdjson(size, ndjson);
      for (int r = 0; r < rounds; r++) {
        List<String> order = new ArrayList<>(systems);
        java.util.Collections.rotate(order, -(r % systems.size()));
        for (String system : order) {
          Path dir = work.resolve(system + "-" + size + "-r" + r);
          Files.createDirectories(dir);
          sampleLoad(loadRange);
          for (String line : child(List.of("load", system, Integer.toString(size), dir.toString(), ndjson.toString()))) {
            if (line.startsWith("LOAD ")) {
              String[] f = line.split(" ");
              loadMs.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                  .add(Double.parseDouble(f[2]));
              rssMiB.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                  .add(Long.parseLong(f[3]) / 1024.0);
              if (system.equals("omnigraph")) {
                indexMs.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                    .add(Double.parseDouble(f[4]));
              }
            }
          }
          if (insertSizes.contains(size)) {
            sampleLoad(loadRange);
            for (String line : child(List.of("insert", system, Integer.toString(size), dir.toString(), a.get("--warmup"),
                a.get("--ops")))) {
              if (line.startsWith("INSERT ")) {
                String[] f = line.split(" ");
                p50.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                    .add(Long.parseLong(f[2]) / 1e6);
                p99.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                    .add(Long.parseLong(f[3]) / 1e6);
              }
            }
          }
          int updateOps = Integer.parseInt(a.get("--update-ops"));
          if (insertSizes.contains(size) && updateOps > 0) {
            sampleLoad(loadRange);
            for (String line : child(List.of("update", system, Integer.toString(size), dir.toString(), a.get("--warmup"),
                Integer.toString(updateOps)))) {
              if (line.startsWith("UPDATE ")) {
                String[] f = line.split(" ");
                u50.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                    .add(Long.parseLong(f[2]) / 1e6);
                u99.computeIfAbsent(size, k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                    .add(Long.parseLong(f[3]) / 1e6);
              }
            }
          }
          LoadBenchmark.deleteTree(dir);
          System.err.printf(Locale.ROOT, "  round %d %s size=%d done (%.0f s)%n", r, system, size,
              (System.nanoTime() - started) / 1e9);
        }
      }
      Files.deleteIfExists(ndjson);
    }
    sampleLoad(loadRange);
    System.out.println();
    System.out.printf(Locale.ROOT, "Write benchmark (%s, %d cores, Java %s; %d rounds, fresh child JVM per measurement,"
        + " rotated order; medians over rounds; load average %.2f-%.2f; wall %.0f s)%n", System.getProperty("os.name"),
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), rounds, loadRange[0],
        loadRange[1], (System.nanoTime() - started) / 1e9);
    System.out.println("Class paths: " + (classPath == null ? "-" : classPath.description()) + ".");
    System.out.println("Durability: OmniGraph fsyncs every file and directory entry of a commit before it returns;"
        + " Kùzu and Neo4j defaults (log forced at commit).");
    System.out.println();
    System.out.println("| size | system | bulk load ms (key indexes built) | of which ensure-indices ms | peak RSS MiB"
        + " | 1-row insert p50 ms | 1-row insert p99 ms |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (int size : sizes) {
      for (String s : systems) {
        System.out.printf(Locale.ROOT, "| %,d | %s | %s | %s | %s | %s | %s |%n", size, s, med(loadMs, size, s, "%.0f"),
            s.equals("omnigraph") ? med(indexMs, size, s, "%.0f") : "(during the load)",
            med(rssMiB, size, s, "%.0f"), med(p50, size, s, "%.2f"), med(p99, size, s, "%.2f"));
      }
    }
    if (!u50.isEmpty()) {
      System.out.println();
      System.out.println("| size | system | 1-row update p50 ms | 1-row update p99 ms |");
      System.out.println("|---|---|---|---|");
      for (int size : sizes) {
        for (String s : systems) {
          if (!u50.getOrDefault(size, Map.of()).isEmpty()) {
            System.out.printf(Locale.ROOT, "| %,d | %s | %s | %s |%n", size, s, med(u50, size, s, "%.2f"),
                med(u99, size, s, "%.2f"));
          }
        }
      }
    }
  }

  private static String med(Map<Integer, Map<String, List<Double>>> m, int size, String system, String fmt) {
    List<Double> xs = m.getOrDefault(size, Map.of()).getOrDefault(system, List.of());
    if (xs.isEmpty()) {
      return "-";
    }
    double[] v = xs.stream().mapToDouble(Double::doubleValue).toArray();
    double lo = xs.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double hi = xs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    return String.format(Locale.ROOT, fmt + " (" + fmt + "–" + fmt + ")", LoadBenchmark.median(v), lo, hi);
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

  /** The benchmark's NDJSON (nodes, then edges), deterministic per size. */
  static void writeNdjson(int persons, Path file) throws IOException {
    int companies = Math.max(10, persons / 10);
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < persons; i++) {
        w.write("{\"type\":\"Person\",\"data\":{\"pid\":\"p" + i + "\",\"name\":\"person-" + i + "\",\"age\":"
            + ReadBenchData.age(i) + "}}\n");
      }
      for (int c = 0; c < companies; c++) {
        w.write("{\"type\":\"Company\",\"data\":{\"cid\":\"c" + c + "\",\"name\":\"company-" + c + "\"}}\n");
      }
      for (int i = 0; i < persons; i++) {
        if (i % 10 != 9) {
          w.write("{\"edge\":\"WorksAt\",\"from\":\"p" + i + "\",\"to\":\"c" + (int) ((i * 2654435761L) % companies)
              + "\",\"data\":{}}\n");
        }
      }
      for (int i = 0; i < persons; i++) {
        for (int k = 1; k <= 2; k++) {
          int t = (int) ((i + k * 7919L * (i % 13 + 1)) % persons);
          if (t == i) {
            t = (i + 1) % persons;
          }
          w.write("{\"edge\":\"Knows\",\"from\":\"p" + i + "\",\"to\":\"p" + t + "\",\"data\":{}}\n");
        }
      }
    }
  }

  private static ChildClassPath classPath;

  private static List<String> child(List<String> childArgs) throws IOException, InterruptedException {
    if (classPath == null) {
      classPath = ChildClassPath.fromSystemProperties();
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djava.io.tmpdir") || arg.startsWith("-Domnigraph.native.cache=")) {
        cmd.add(arg);
      }
    }
    // Neo4j's documented JVM flags for Java 17.
    cmd.addAll(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-Xmx3g"));
    cmd.add("-cp");
    cmd.add(classPath.forSystem(childArgs.get(1)));
    cmd.add(WriteBenchChild.class.getName());
    cmd.addAll(childArgs);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        lines.add(line);
      }
    }
    int exit = p.waitFor();
    if (exit != 0) {
      throw new IllegalStateException("write benchmark child " + childArgs + " failed with exit " + exit);
    }
    return lines;
  }
}
