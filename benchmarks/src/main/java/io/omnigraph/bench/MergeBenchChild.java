package io.omnigraph.bench;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.Omnigraph;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.Dataset;
import org.lance.WriteParams;

/**
 * One measured bulk-adopt run in its own JVM ({@link MergeBenchmark}):
 * {@code <engine|raw> <rows> <baseRows> <workDir>}. Runs the scenario once at a small size to warm up
 * the JIT, then sets up the measured run, resets the peak-RSS mark ({@link BenchChild#prepareMeasurement})
 * and times only the operation. Prints {@code RESULT impl rows nanos peakRssKiB rssMode outcome route
 * transactions}.
 *
 * <ul>
 *   <li>{@code engine}: a graph whose {@code main} holds {@code baseRows} rows; branch {@code f}
 *       appends the N new rows in loads of at most 8,192 rows; the operation is
 *       {@code merge("f", "main")}.
 *   <li>{@code raw}: a raw Lance dataset of {@code baseRows} rows; the N rows are built in memory
 *       first; the operation is one lance-java {@code Dataset.write} APPEND of them.
 * </ul>
 */
public final class MergeBenchChild {
  private MergeBenchChild() {}

  public static void main(String[] args) throws Exception {
    String impl = args[0];
    int rows = Integer.parseInt(args[1]);
    int base = Integer.parseInt(args[2]);
    Path work = Path.of(args[3]);
    Files.createDirectories(work);
    run(impl, Math.min(rows, 2000), Math.min(base, 200), work.resolve("warmup"));
    String r = run(impl, rows, base, work.resolve("measured"));
    System.out.println("RESULT " + impl + " " + rows + " " + r);
  }

  /** @return {@code nanos peakKiB rssMode outcome route transactions} */
  static String run(String impl, int rows, int base, Path dir) throws Exception {
    Files.createDirectories(dir);
    if (impl.equals("engine")) {
      try (Graph g = Omnigraph.init(dir.resolve("graph").toString(), BenchData.SCHEMA)) {
        g.load(LoadMode.OVERWRITE, new ByteArrayInputStream(BenchData.ndjson(0, base)), LoadOptions.defaults());
        g.createBranch("f", null);
        for (int from = 0; from < rows; from += 8192) {
          int count = Math.min(8192, rows - from);
          g.load(LoadMode.APPEND, new ByteArrayInputStream(BenchData.ndjson(base + from, count)),
              LoadOptions.defaults().withBranch("f"));
        }
        String rss = BenchChild.prepareMeasurement();
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
    }
    try (BufferAllocator allocator = new RootAllocator()) {
      String uri = dir.resolve("raw.lance").toUri().toString();
      try (VectorSchemaRoot rowsAtBase = BenchData.arrow(0, base, allocator)) {
        Dataset.write().allocator(allocator).reader(BenchData.reader(rowsAtBase, allocator)).uri(uri)
            .mode(WriteParams.WriteMode.CREATE).execute().close();
      }
      try (VectorSchemaRoot added = BenchData.arrow(base, rows, allocator)) {
        String rss = BenchChild.prepareMeasurement();
        long t0 = System.nanoTime();
        Dataset.write().allocator(allocator).reader(BenchData.reader(added, allocator)).uri(uri)
            .mode(WriteParams.WriteMode.APPEND).execute().close();
        long nanos = System.nanoTime() - t0;
        return nanos + " " + BenchChild.peakKib() + " " + rss + " - raw 1";
      }
    }
  }
}
