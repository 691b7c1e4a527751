package io.omnigraph.bench;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeResult;
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
 * The bulk-adopt merge benchmark (issue 14, docs/benchmarks.md): per size, on a fresh graph whose
 * {@code main} holds {@code --base} rows, branch {@code f} loads N all-new rows in appends of at most
 * 8,192 rows; the timed operation is {@code Graph.merge("f", "main")}. The comparator (the seed's)
 * commits the same N rows straight into a raw Lance dataset of the same base size with lance-java
 * ({@code Dataset.write} APPEND, one commit). Pairs alternate engine, raw, engine, … in one JVM;
 * prints per size the median times, their ratio and the route the merge took. Peak-RSS deltas need
 * one child JVM per operation and are not measured by this harness.
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-merge -DskipTests [-Dbench.merge.args="--sizes 10000,100000 --pairs 5 --base 1000"]</pre>
 */
public final class MergeBenchmark {
  private MergeBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--sizes", "10000,100000", "--pairs", "5", "--base", "1000",
        "--work", "target/bench-work"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    int pairs = Integer.parseInt(a.get("--pairs"));
    int base = Integer.parseInt(a.get("--base"));
    Path work = Path.of(a.get("--work")).resolve("merge");
    List<String> report = new ArrayList<>();
    report.add("| rows | pairs | merge median ms | raw median ms | ratio | outcome | route | transactions |");
    report.add("|---|---|---|---|---|---|---|---|");
    for (String s : a.get("--sizes").split(",")) {
      int n = Integer.parseInt(s.trim());
      List<Double> engine = new ArrayList<>();
      List<Double> raw = new ArrayList<>();
      MergeResult last = null;
      for (int p = 0; p < pairs; p++) {
        deleteTree(work);
        Files.createDirectories(work);
        try (Graph g = Omnigraph.init(work.resolve("graph").toString(), BenchData.SCHEMA)) {
          g.load(LoadMode.OVERWRITE, new ByteArrayInputStream(BenchData.ndjson(0, base)), LoadOptions.defaults());
          g.createBranch("f", null);
          for (int from = 0; from < n; from += 8192) {
            int count = Math.min(8192, n - from);
            g.load(LoadMode.APPEND, new ByteArrayInputStream(BenchData.ndjson(base + from, count)),
                LoadOptions.defaults().withBranch("f"));
          }
          long t0 = System.nanoTime();
          last = g.merge("f", "main", MergeOptions.defaults());
          engine.add((System.nanoTime() - t0) / 1e6);
          if (last.tables().values().stream().mapToLong(MergeResult.TableMerge::inserted).sum() != n) {
            throw new IllegalStateException("merge adopted " + last.tables() + ", expected " + n + " rows");
          }
        }
        try (BufferAllocator allocator = new RootAllocator()) {
          String uri = work.resolve("raw.lance").toUri().toString();
          try (VectorSchemaRoot rows = BenchData.arrow(0, base, allocator)) {
            Dataset.write().allocator(allocator).reader(BenchData.reader(rows, allocator)).uri(uri)
                .mode(WriteParams.WriteMode.CREATE).execute().close();
          }
          try (VectorSchemaRoot rows = BenchData.arrow(base, n, allocator)) {
            long t0 = System.nanoTime();
            Dataset.write().allocator(allocator).reader(BenchData.reader(rows, allocator)).uri(uri)
                .mode(WriteParams.WriteMode.APPEND).execute().close();
            raw.add((System.nanoTime() - t0) / 1e6);
          }
        }
      }
      double em = median(engine);
      double rm = median(raw);
      MergeResult.TableMerge t = last.tables().values().iterator().next();
      report.add(String.format(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.2f× | %s | %s | %d |", n, pairs, em, rm,
          em / rm, last.outcome().code(), t.route(), t.transactions()));
      System.out.println("size " + n + ": merge " + engine + " ms, raw " + raw + " ms");
    }
    report.forEach(System.out::println);
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(Comparator.naturalOrder());
    int m = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> all = Files.walk(p)) {
      for (Path x : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    }
  }
}
