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
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Ref;
import org.lance.Session;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * One phase of the bulk-adopt benchmark ({@link MergeBenchmark}) in its own JVM, after the seed's
 * phased protocol: a setup child persists the fixture and exits, so none of its allocations can
 * raise the measured child's peak RSS; the measured child opens the fixture and runs exactly one
 * arm; checks run after its peak is read.
 *
 * <ul>
 *   <li>{@code setup <rows> <base> <dir>}: a graph whose {@code main} holds {@code base} rows and
 *       whose branch {@code f} appended the N new rows in loads of at most 8,192 rows, at
 *       {@code dir/measured}, and the same at a small size at {@code dir/warmup}.
 *   <li>{@code operation <engine|raw|memory> <rows> <base> <dir>}: warms the JIT by running the
 *       same arm on the warm-up fixture, collects garbage, resets the peak-RSS mark, opens the
 *       measured graph with {@code Omnigraph.open} (both arms; the open counts in the peak, as in
 *       the seed's whole-child peak), then times only the operation. {@code engine}:
 *       {@code merge("f", "main")}. {@code raw} (the seed's comparator): with the graph handle
 *       still open, lance-java opens the graph's {@code main} table and its branch {@code f} with
 *       one extra Lance session, streams the new rows out of the branch (filter on {@code id}, 8,192
 *       rows a batch) and appends them straight to the table in one commit. {@code memory} (the
 *       harness's earlier, stricter comparator): appends the N rows, built in memory before the
 *       mark, to a separate raw dataset of {@code base} rows.
 * </ul>
 *
 * <p>Prints {@code RESULT impl rows nanos peakRssKiB rssMode outcome route transactions}.
 */
public final class MergeBenchChild {
  private MergeBenchChild() {}

  public static void main(String[] args) throws Exception {
    String phase = args[0];
    if (phase.equals("setup")) {
      int rows = Integer.parseInt(args[1]);
      int base = Integer.parseInt(args[2]);
      Path work = Path.of(args[3]);
      setup(Math.min(rows, 2000), Math.min(base, 200), work.resolve("warmup"));
      setup(rows, base, work.resolve("measured"));
      System.out.println("RESULT setup");
      return;
    }
    String impl = args[1];
    int rows = Integer.parseInt(args[2]);
    int base = Integer.parseInt(args[3]);
    Path work = Path.of(args[4]);
    operation(impl, Math.min(rows, 2000), Math.min(base, 200), work.resolve("warmup"));
    System.out.println("RESULT " + impl + " " + rows + " " + operation(impl, rows, base, work.resolve("measured")));
  }

  static void setup(int rows, int base, Path dir) throws IOException {
    Files.createDirectories(dir);
    try (Graph g = Omnigraph.init(graph(dir), BenchData.SCHEMA)) {
      g.load(LoadMode.OVERWRITE, new ByteArrayInputStream(BenchData.ndjson(0, base)), LoadOptions.defaults());
      g.createBranch("f", null);
      for (int from = 0; from < rows; from += 8192) {
        int count = Math.min(8192, rows - from);
        g.load(LoadMode.APPEND, new ByteArrayInputStream(BenchData.ndjson(base + from, count)),
            LoadOptions.defaults().withBranch("f"));
      }
    }
    if (Files.exists(dir.resolve("raw.lance"))) {
      throw new IllegalStateException("fixture " + dir + " is not fresh");
    }
    try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot rowsAtBase = BenchData.arrow(0, base, allocator)) {
      Dataset.write().allocator(allocator).reader(BenchData.reader(rowsAtBase, allocator)).uri(raw(dir))
          .mode(WriteParams.WriteMode.CREATE).execute().close();
    }
  }

  /** @return {@code nanos peakKiB rssMode outcome route transactions} */
  static String operation(String impl, int rows, int base, Path dir) throws Exception {
    if (impl.equals("memory")) {
      return memoryComparator(rows, base, dir);
    }
    String rss = BenchChild.prepareMeasurement();
    try (Graph g = Omnigraph.open(graph(dir))) {
      if (impl.equals("engine")) {
        long t0 = System.nanoTime();
        MergeResult r = g.merge("f", "main", MergeOptions.defaults());
        long nanos = System.nanoTime() - t0;
        long peak = BenchChild.peakKib();
        long inserted = r.tables().values().stream().mapToLong(MergeResult.TableMerge::inserted).sum();
        if (inserted != rows) {
          throw new IllegalStateException("merge adopted " + r.tables() + ", expected " + rows + " rows");
        }
        MergeResult.TableMerge t = r.tables().values().iterator().next();
        return nanos + " " + peak + " " + rss + " " + r.outcome().code() + " " + t.route() + " " + t.transactions();
      }
      String table = onlyNodeTable(dir);
      long nanos;
      long peak;
      try (BufferAllocator allocator = new RootAllocator()) {
        long t0 = System.nanoTime();
        try (Session session = Session.create();
            Dataset main = Dataset.open(allocator, table, new ReadOptions.Builder().setSession(session).build());
            Dataset source = main.checkout(Ref.ofBranch("f"));
            LanceScanner scan = LanceScanner.create(source, new ScanOptions.Builder()
                .filter("id >= '" + BenchData.sku(base) + "'").batchSize(8192).build(), allocator)) {
          // the write consumes and closes the stream
          ArrowReader stream = scan.scanBatches();
          Dataset.write().allocator(allocator).reader(stream).uri(table).session(session)
              .mode(WriteParams.WriteMode.APPEND).execute().close();
        }
        nanos = System.nanoTime() - t0;
        peak = BenchChild.peakKib();
        try (Dataset after = Dataset.open(table, allocator)) {
          if (after.countRows() != (long) base + rows) {
            throw new IllegalStateException("raw append left " + after.countRows() + " rows, expected " + (base + rows));
          }
        }
      }
      return nanos + " " + peak + " " + rss + " - raw 1";
    }
  }

  private static String memoryComparator(int rows, int base, Path dir) throws Exception {
    try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot added = BenchData.arrow(base, rows, allocator)) {
      String rss = BenchChild.prepareMeasurement();
      long t0 = System.nanoTime();
      Dataset.write().allocator(allocator).reader(BenchData.reader(added, allocator)).uri(raw(dir))
          .mode(WriteParams.WriteMode.APPEND).execute().close();
      long nanos = System.nanoTime() - t0;
      return nanos + " " + BenchChild.peakKib() + " " + rss + " - raw 1";
    }
  }

  private static String graph(Path dir) {
    return dir.resolve("graph").toString();
  }

  private static String raw(Path dir) {
    return dir.resolve("raw.lance").toUri().toString();
  }

  /** @return the graph's one node table (the benchmark schema has one node type) */
  private static String onlyNodeTable(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("graph").resolve("nodes"))) {
      List<Path> tables = s.filter(Files::isDirectory).toList();
      if (tables.size() != 1) {
        throw new IllegalStateException("expected one node table, found " + tables);
      }
      return tables.get(0).toString();
    }
  }
}
