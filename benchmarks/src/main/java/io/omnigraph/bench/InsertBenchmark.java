package io.omnigraph.bench;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
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
 * both see the same machine state. The engine insert is a {@code .gq} insert mutation
 * ({@code --engine mutate}, the default: one prepared query with one {@code insert Item} statement
 * per row, run through {@code Graph.mutate}; {@code Item} is keyed, so each insert is an upsert by
 * id whose probe finds nothing) or {@code Graph.load(APPEND)} of the same rows ({@code --engine
 * load}: a strict insert with its KeyConflict probe). Both run prepare → effect window → publish
 * (write lease, token revalidation, exact commit, manifest CAS).
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-insert -DskipTests [-Dbench.insert.args="--base 100000 --ops 100 --engine mutate"]</pre>
 *
 * <p>{@code --flat s3} or {@code --flat local} runs {@link FlatWriteBenchmark} instead (flat write cost with automatic maintenance).
 *
 * Prints p50 and p99 per implementation and size and the p50 ratio engine/raw.
 */
public final class InsertBenchmark {
  private InsertBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>(Map.of("--base", "100000", "--ops", "100", "--warmup", "20",
        "--sizes", "1,100", "--work", "target/bench-work", "--engine", "mutate"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    if (a.containsKey("--flat")) {
      FlatWriteBenchmark.run(a); // request counts and latency after 0 / 100 / 1,000 writes (docs/benchmarks.md)
      return;
    }
    int base = Integer.parseInt(a.get("--base"));
    int ops = Integer.parseInt(a.get("--ops"));
    int warmup = Integer.parseInt(a.get("--warmup"));
    boolean mutate = switch (a.get("--engine")) {
      case "mutate" -> true;
      case "load" -> false;
      default -> throw new IllegalArgumentException("--engine must be mutate or load, not " + a.get("--engine"));
    };
    Path work = Path.of(a.get("--work")).resolve("insert");
    deleteTree(work);
    Files.createDirectories(work);
    List<String> report = new ArrayList<>();
    System.out.println("engine insert: " + (mutate ? "Graph.mutate (.gq insert of keyed Item rows)" : "Graph.load(APPEND)"));
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
        PreparedMutation query = mutate ? g.prepareMutation(insertQuery(size), "add") : null;
        long[] engine = new long[ops];
        long[] lance = new long[ops];
        Map<String, long[]> phases = new LinkedHashMap<>();
        for (int i = -warmup; i < ops; i++) {
          LoadResult result = mutate ? engineMutate(g, query, next, size) : engineInsert(g, next, size);
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

  /** @return a query {@code add} inserting {@code rows} Item nodes, row r from parameters {@code $s<r>, $q<r>, $p<r>, $l<r>} */
  static String insertQuery(int rows) {
    StringBuilder params = new StringBuilder();
    StringBuilder body = new StringBuilder();
    for (int r = 0; r < rows; r++) {
      params.append(r == 0 ? "" : ", ").append("$s").append(r).append(": String, $q").append(r).append(": I64, $p")
          .append(r).append(": F64, $l").append(r).append(": String");
      body.append("  insert Item { sku: $s").append(r).append(", qty: $q").append(r).append(", price: $p").append(r)
          .append(", label: $l").append(r).append(" }\n");
    }
    return "query add(" + params + ") {\n" + body + "}\n";
  }

  /** @return the mutation's wall time as a result with the single phase {@code total} (a mutation reports no phases) */
  private static LoadResult engineMutate(Graph g, PreparedMutation query, long from, int count) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (int r = 0; r < count; r++) {
      long i = from + r;
      values.put("s" + r, BenchData.sku(i));
      values.put("q" + r, BenchData.qty(i));
      values.put("p" + r, BenchData.price(i));
      values.put("l" + r, BenchData.label(i));
    }
    long t0 = System.nanoTime();
    MutationResult m = g.mutate(query, QueryParams.of(values), MutationOptions.defaults());
    long total = System.nanoTime() - t0;
    if (m.commitId() == null || m.affectedNodes() != count) {
      throw new IllegalStateException("insert mutation of " + count + " rows changed " + m.affectedNodes());
    }
    return new LoadResult(m.commitId(), LoadMode.APPEND, count, Map.of("node:Item", (long) count), Map.of("total", total));
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

  static void deleteTree(Path dir) throws IOException {
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
