package io.omnigraph.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The read benchmark: OmniGraph (local disk, and on the S3 emulator) against Kùzu and Neo4j
 * embedded, same data ({@link ReadBenchData}), same six questions ({@link ReadSystems}).
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-read -DskipTests \
 *     [-Dbench.read.args="--sizes 10000,100000 --rounds 3 --iterations 50"]</pre>
 *
 * For each size every disk-backed system builds its store once in a child JVM (not measured; its
 * build time is reported). Then {@code --rounds} rounds each start one measuring child JVM per
 * system, in alternating order (ABCD, DCBA, ...); a child warms up and reports every query's p50
 * over {@code --iterations} executions. The table shows, per query, the median over rounds of
 * those p50s, and the OmniGraph/peer ratios (below 1 = OmniGraph faster). Every system's answers
 * are checked against the others' (row counts and a checksum of the rows); any difference fails
 * the run.
 */
public final class ReadBenchmark {
  private ReadBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--sizes", "10000,100000", "--rounds", "3", "--iterations",
        "50", "--work", "target/bench-read-work", "--systems", "omnigraph,kuzu,neo4j,omnigraph-s3"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int rounds = Integer.parseInt(a.get("--rounds"));
    String iterations = a.get("--iterations");
    List<String> systems = List.of(a.get("--systems").split(","));
    Path work = Path.of(a.get("--work"));
    List<String> report = new ArrayList<>();
    boolean answersDiffer = false;
    for (String size : a.get("--sizes").split(",")) {
      int persons = Integer.parseInt(size.trim());
      Map<String, String> built = new LinkedHashMap<>();
      for (String system : systems) {
        if (system.equals("omnigraph-s3")) {
          continue; // in-memory emulator: each measuring child builds its own copy
        }
        Path dir = work.resolve(system + "-" + persons);
        LoadBenchmark.deleteTree(dir);
        for (String line : child(List.of("prepare", system, Integer.toString(persons), dir.toString()))) {
          if (line.startsWith("PREPARED ")) {
            built.put(system, line.split(" ")[2]);
          }
        }
      }
      // query -> system -> p50s over rounds; query -> system -> "rows/checksum"
      Map<String, Map<String, List<Double>>> p50 = new TreeMap<>();
      Map<String, Map<String, String>> answers = new TreeMap<>();
      for (int r = 0; r < rounds; r++) {
        List<String> order = new ArrayList<>(systems);
        if (r % 2 == 1) {
          java.util.Collections.reverse(order);
        }
        for (String system : order) {
          Path dir = work.resolve(system + "-" + persons);
          for (String line : child(List.of("measure", system, Integer.toString(persons), dir.toString(), iterations))) {
            if (!line.startsWith("RESULT ")) {
              continue;
            }
            String[] f = line.split(" ");
            p50.computeIfAbsent(f[2], k -> new LinkedHashMap<>()).computeIfAbsent(system, k -> new ArrayList<>())
                .add(Long.parseLong(f[3]) / 1e6);
            String answer = f[5] + " rows, crc " + f[6];
            String previous = answers.computeIfAbsent(f[2], k -> new LinkedHashMap<>()).putIfAbsent(system, answer);
            if (previous != null && !previous.equals(answer)) {
              System.err.println("ANSWERS DIFFER between rounds: " + system + " " + f[2] + ": " + previous + " vs " + answer);
              answersDiffer = true;
            }
          }
          System.err.printf(Locale.ROOT, "  round %d %s persons=%d done%n", r, system, persons);
        }
      }
      for (Map.Entry<String, Map<String, String>> e : answers.entrySet()) {
        if (e.getValue().values().stream().distinct().count() > 1) {
          System.err.println("ANSWERS DIFFER for " + e.getKey() + " at " + persons + " persons: " + e.getValue());
          answersDiffer = true;
        }
      }
      report.add("");
      report.add(String.format(Locale.ROOT, "%,d persons (build ms: %s)", persons, built));
      StringBuilder head = new StringBuilder("| query |");
      StringBuilder rule = new StringBuilder("|---|");
      for (String s : systems) {
        head.append(' ').append(s).append(" p50 ms |");
        rule.append("---|");
      }
      for (String peer : List.of("kuzu", "neo4j")) {
        if (systems.contains("omnigraph") && systems.contains(peer)) {
          head.append(" omnigraph / ").append(peer).append(" |");
          rule.append("---|");
        }
      }
      head.append(" rows (all runs) |");
      rule.append("---|");
      report.add(head.toString());
      report.add(rule.toString());
      for (String q : ReadSystems.QUERIES) {
        Map<String, List<Double>> bySystem = p50.getOrDefault(q, Map.of());
        StringBuilder row = new StringBuilder("| " + q + " |");
        Map<String, Double> med = new LinkedHashMap<>();
        for (String s : systems) {
          List<Double> xs = bySystem.getOrDefault(s, List.of());
          double m = xs.isEmpty() ? Double.NaN : LoadBenchmark.median(xs.stream().mapToDouble(Double::doubleValue).toArray());
          med.put(s, m);
          row.append(String.format(Locale.ROOT, " %.2f |", m));
        }
        for (String peer : List.of("kuzu", "neo4j")) {
          if (systems.contains("omnigraph") && systems.contains(peer)) {
            row.append(String.format(Locale.ROOT, " %.2fx |", med.get("omnigraph") / med.get(peer)));
          }
        }
        row.append(' ').append(answers.getOrDefault(q, Map.of()).values().stream().findFirst().orElse("-")).append(" |");
        report.add(row.toString());
      }
    }
    System.out.println();
    System.out.println("Read benchmark (" + System.getProperty("os.name") + ", "
        + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version") + ", "
        + a.get("--rounds") + " rounds x " + iterations + " measured executions; p50 = median over rounds of each round's p50)");
    report.forEach(System.out::println);
    if (answersDiffer) {
      System.out.println("ANSWERS DIFFER between systems or rounds: see the lines above; the timings are not comparable.");
      System.exit(1);
    }
  }

  private static List<String> child(List<String> childArgs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djava.io.tmpdir")) {
        cmd.add(arg);
      }
    }
    // Neo4j's documented JVM flags for Java 17.
    cmd.addAll(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-Xmx3g"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ReadBenchChild.class.getName());
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
      throw new IllegalStateException("read benchmark child " + childArgs + " failed with exit " + exit);
    }
    return lines;
  }
}
