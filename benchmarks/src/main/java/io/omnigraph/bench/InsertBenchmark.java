package io.omnigraph.bench;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.Omnigraph;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.Dataset;
import org.lance.WriteParams;

/**
 * The small-insert benchmark: latency of a strict insert of 1 and of 100 new rows into a graph whose
 * table already holds {@code --base} rows (default 100,000), against raw lance-java appending the
 * same rows to a dataset of the same size with one commit ({@code Dataset.write} in APPEND mode), in
 * the same JVM and the same run, interleaved operation by operation (engine, raw, engine, ...) so
 * both see the same machine state. Until the {@code .gq} mutation executor is on main, the engine
 * insert is {@code Graph.load(APPEND)} of the rows, which runs the same prepare → effect window →
 * publish path (strict insert with id probe, write lease, exact commit, manifest CAS).
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-insert -DskipTests [-Dbench.insert.args="--base 100000 --ops 100"]</pre>
 *
 * Prints p50 and p99 per implementation and size and the p50 ratio engine/raw.
 */
public final class InsertBenchmark {
  private InsertBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--base", "100000", "--ops", "100", "--warmup", "20",
        "--sizes", "1,100", "--work", "target/bench-work"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int base = Integer.parseInt(a.get("--base"));
    int ops = Integer.parseInt(a.get("--ops"));
    int warmup = Integer.parseInt(a.get("--warmup"));
    Path work = Path.of(a.get("--work")).resolve("insert");
    deleteTree(work);
    Files.createDirectories(work);
    List<String> report = new ArrayList<>();
    report.add("| rows per insert | base rows | ops | engine p50 ms | engine p99 ms | raw p50 ms | raw p99 ms | p50 ratio | engine phases (p50 ms) |");
    report.add("|---|---|---|---|---|---|---|---|---|");
    try (BufferAllocator allocator = new RootAllocator();
        Graph g = Omnigraph.init(work.resolve("graph").toString(), BenchData.SCHEMA)) {
      g.load(LoadMode.OVERWRITE, new ByteArrayInputStream(BenchData.ndjson(0, base)), LoadOptions.defaults());
      String raw = work.resolve("raw.lance").toUri().toString();
      try (VectorSchemaRoot rows = BenchData.arrow(0, base, allocator)) {
        Dataset.write().allocator(allocator).reader(BenchData.reader(rows, allocator)).uri(raw)
            .mode(WriteParams.WriteMode.CREATE).execute().close();
      }
      long next = base;
      for (String s : a.get("--sizes").split(",")) {
        int size = Integer.parseInt(s.trim());
        long[] engine = new long[ops];
        long[] lance = new long[ops];
        Map<String, long[]> phases = new LinkedHashMap<>();
        for (int i = -warmup; i < ops; i++) {
          LoadResult result = engineInsert(g, next, size);
          long e = result.phaseNanos().getOrDefault("total", 0L);
          next += size;
          long r = rawAppend(allocator, raw, next, size);
          next += size;
          if (i >= 0) {
            engine[i] = e;
            lance[i] = r;
            int at = i;
            result.phaseNanos().forEach((k, v) -> phases.computeIfAbsent(k, x -> new long[ops])[at] = v);
          }
        }
        double e50 = percentile(engine, 50);
        double r50 = percentile(lance, 50);
        StringBuilder ph = new StringBuilder();
        phases.forEach((k, v) -> {
          if (!k.equals("total")) {
            ph.append(ph.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.1f", k, percentile(v, 50)));
          }
        });
        report.add(String.format(Locale.ROOT, "| %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %s |", size, base, ops,
            e50, percentile(engine, 99), r50, percentile(lance, 99), e50 / r50, ph));
        System.err.printf(Locale.ROOT, "  size %d: engine p50 %.2f ms, raw p50 %.2f ms%n", size, e50, r50);
      }
    }
    deleteTree(work);
    report.forEach(System.out::println);
  }

  /** @return the load result, its phases plus {@code total} (wall time of the call) */
  private static LoadResult engineInsert(Graph g, long from, int count) {
    byte[] input = BenchData.ndjson(from, count);
    long t0 = System.nanoTime();
    LoadResult r = g.load(LoadMode.APPEND, new ByteArrayInputStream(input), LoadOptions.defaults());
    long total = System.nanoTime() - t0;
    Map<String, Long> phases = new LinkedHashMap<>(r.phaseNanos());
    phases.put("total", total);
    return new LoadResult(r.commitId(), r.mode(), r.rowsRead(), r.rowsByTable(), phases);
  }

  private static long rawAppend(BufferAllocator allocator, String uri, long from, int count) {
    try (VectorSchemaRoot rows = BenchData.arrow(from, count, allocator)) {
      long t0 = System.nanoTime();
      Dataset.write().allocator(allocator).reader(BenchData.reader(rows, allocator)).uri(uri)
          .mode(WriteParams.WriteMode.APPEND).execute().close();
      return System.nanoTime() - t0;
    }
  }

  /** @return the nearest-rank percentile of {@code nanos}, in milliseconds */
  static double percentile(long[] nanos, int p) {
    long[] sorted = nanos.clone();
    java.util.Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)] / 1e6;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
