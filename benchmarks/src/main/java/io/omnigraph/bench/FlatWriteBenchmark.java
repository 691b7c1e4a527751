package io.omnigraph.bench;

import io.omnigraph.api.Graph;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Flat write cost (docs/benchmarks.md, "Flat write cost"): the latency (p50, p99) and the
 * object-store request count (p50, mean, max) of a 1-row insert mutation on the S3 emulator,
 * through the test kit's FaultProxy (which counts every request), or with {@code --flat local} the
 * latency on local disk (a graph under {@code --work}, no request count), on a fresh graph and after
 * {@code --points} earlier 1-row writes (default 0, 100 and 1,000), with automatic maintenance
 * as {@code --maintenance} says (default: the built-in policy, 16 fragments; {@code off} for the
 * comparison without it). The comparator is the same graph's fresh figures: each later point is
 * reported as a ratio to them (issue target: p50 within 1.25x, requests equal).
 *
 * <pre>./mvnw -B -ntp -pl benchmarks -am verify -Pbench-insert -DskipTests '-Dbench.insert.args=--flat s3'
 * ./mvnw -B -ntp -pl benchmarks -am verify -Pbench-insert -DskipTests '-Dbench.insert.args=--flat local'
 * ./mvnw -B -ntp -pl benchmarks -am verify -Pbench-insert -DskipTests '-Dbench.insert.args=--flat s3 --maintenance off --points 0,100'</pre>
 */
final class FlatWriteBenchmark {
  private FlatWriteBenchmark() {}

  static void run(Map<String, String> a) throws Exception {
    String where = a.get("--flat");
    if (!where.equals("s3") && !where.equals("local")) {
      throw new IllegalArgumentException("--flat supports s3 (the emulator through the FaultProxy) or local (a"
          + " directory under --work), not " + where);
    }
    int ops = Integer.parseInt(a.getOrDefault("--ops", "100"));
    List<Integer> points = new ArrayList<>();
    for (String p : a.getOrDefault("--points", "0,100,1000").split(",")) {
      points.add(Integer.parseInt(p.trim()));
    }
    MaintenancePolicy policy = a.containsKey("--maintenance") ? MaintenancePolicy.parse(a.get("--maintenance"))
        : MaintenancePolicy.builtIn();
    if (where.equals("local")) {
      java.nio.file.Path work = java.nio.file.Path.of(a.getOrDefault("--work", "target/bench-work")).resolve("flat");
      InsertBenchmark.deleteTree(work);
      java.nio.file.Files.createDirectories(work);
      try (Graph g = Omnigraph.init(work.resolve("graph").toString(), BenchData.SCHEMA, OpenOptions.defaults().withMaintenance(policy))) {
        measure(g, null, "local disk (" + work + ")", policy, ops, points);
      } finally {
        InsertBenchmark.deleteTree(work);
      }
      return;
    }
    try (S3ProxyServer server = S3ProxyServer.start(); FaultProxy proxy = FaultProxy.start(server.endpoint())) {
      String bucket = server.createBucket();
      OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(proxy.endpoint()), policy);
      try (Graph g = Omnigraph.init("s3://" + bucket + "/flat", BenchData.SCHEMA, options)) {
        measure(g, proxy, "S3 emulator via FaultProxy", policy, ops, points);
      }
    }
  }

  /** Measures {@code ops} 1-row inserts at each point; counts requests through {@code proxy} (null: not counted). */
  private static void measure(Graph g, FaultProxy proxy, String where, MaintenancePolicy policy, int ops,
      List<Integer> points) {
    List<String> report = new ArrayList<>();
    report.add("| earlier 1-row writes | ops | p50 ms | p99 ms | p50 ratio | requests p50 | requests mean | requests max |"
        + " requests p50 ratio |");
    report.add("|---|---|---|---|---|---|---|---|---|");
    PreparedMutation add = g.prepareMutation(InsertBenchmark.insertQuery(1), "add");
    long written = 0;
    double freshP50 = 0;
    double freshRequests = 0;
    System.out.println("flat write cost: " + where + ", maintenance " + policy + ", " + ops
        + " measured 1-row insert mutations per point");
    for (int point : points) {
      while (written < point) {
        insert(g, add, written++);
      }
      long[] nanos = new long[ops];
      long[] requests = new long[ops];
      for (int i = 0; i < ops; i++) {
        if (proxy != null) {
          proxy.clearLog();
        }
        long t0 = System.nanoTime();
        insert(g, add, written++);
        nanos[i] = System.nanoTime() - t0;
        requests[i] = proxy == null ? 0 : proxy.requests().size();
      }
      double p50 = InsertBenchmark.percentile(nanos, 50);
      double r50 = InsertBenchmark.percentile(requests, 50) * 1e6; // percentile() reports in ms
      double mean = java.util.Arrays.stream(requests).average().orElse(0);
      long max = java.util.Arrays.stream(requests).max().orElse(0);
      if (point == points.get(0)) {
        freshP50 = p50;
        freshRequests = r50;
      }
      double p99 = InsertBenchmark.percentile(nanos, 99);
      report.add(proxy == null
          ? String.format(Locale.ROOT, "| %d | %d | %.2f | %.2f | %.2f | — | — | — | — |", point, ops, p50, p99,
              p50 / freshP50)
          : String.format(Locale.ROOT, "| %d | %d | %.2f | %.2f | %.2f | %.0f | %.1f | %d | %.2f |", point, ops, p50,
              p99, p50 / freshP50, r50, mean, max, r50 / freshRequests));
      System.err.printf(Locale.ROOT, "  after %d writes: p50 %.2f ms, p99 %.2f ms, requests p50 %.0f mean %.1f max %d%n",
          point, p50, p99, r50, mean, max);
    }
    report.forEach(System.out::println);
  }

  private static void insert(Graph g, PreparedMutation add, long i) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("s0", BenchData.sku(i));
    values.put("q0", BenchData.qty(i));
    values.put("p0", BenchData.price(i));
    values.put("l0", BenchData.label(i));
    MutationResult m = g.mutate(add, QueryParams.of(values), MutationOptions.defaults());
    if (m.commitId() == null || m.affectedNodes() != 1) {
      throw new IllegalStateException("1-row insert changed " + m.affectedNodes());
    }
    if (!m.warnings().isEmpty()) {
      throw new IllegalStateException("maintenance warning: " + m.warnings());
    }
  }
}
