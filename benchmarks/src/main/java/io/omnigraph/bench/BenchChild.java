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
import java.util.List;

import java.util.stream.Collectors;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.merge.MergeInsertParams;

/**
 * One measured run in its own JVM: {@code <engine|raw> <overwrite|merge> <rows> <workDir>}. Runs the
 * scenario once at a small size to warm up the JIT, resets the peak-RSS mark (Linux
 * {@code /proc/self/clear_refs}), runs the measured operation, and prints one {@code RESULT} line:
 * {@code RESULT impl scenario rows nanos peakRssKiB rssMode phases}.
 */
public final class BenchChild {
  /** Rows of the merge scenario (the keyed per-table limit). */
  static final int MERGE_ROWS = 8192;

  private BenchChild() {}

  public static void main(String[] args) throws Exception {
    String impl = args[0];
    String scenario = args[1];
    int rows = Integer.parseInt(args[2]);
    Path work = Path.of(args[3]);
    Files.createDirectories(work);
    run(impl, scenario, Math.min(rows, 2000), work.resolve("warmup"), false);
    Measurement m = run(impl, scenario, rows, work.resolve("measured"), true);
    System.out.println("RESULT " + impl + " " + scenario + " " + rows + " " + m.nanos + " " + m.peakKib + " "
        + m.rssMode + " " + m.phases);
  }

  record Measurement(long nanos, long peakKib, String rssMode, String phases) {}

  static Measurement run(String impl, String scenario, int rows, Path dir, boolean measure) throws Exception {
    boolean engine = impl.equals("engine");
    boolean merge = scenario.equals("merge");
    int mergeRows = Math.min(MERGE_ROWS, Math.max(1, rows / 2));
    try (BufferAllocator allocator = new RootAllocator()) {
      if (engine) {
        try (Graph g = Omnigraph.init(dir.resolve("graph").toString(), BenchData.SCHEMA)) {
          byte[] input;
          if (merge) {
            g.load(LoadMode.OVERWRITE, new ByteArrayInputStream(BenchData.ndjson(0, rows)), LoadOptions.defaults());
            input = BenchData.ndjson(rows, measure ? MERGE_ROWS : mergeRows);
          } else {
            input = BenchData.ndjson(0, rows);
          }
          String rss = prepareMeasurement();
          long t0 = System.nanoTime();
          LoadResult r = g.load(merge ? LoadMode.MERGE : LoadMode.OVERWRITE, new ByteArrayInputStream(input),
              LoadOptions.defaults());
          long nanos = System.nanoTime() - t0;
          String phases = r.phaseNanos().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining(","));
          return new Measurement(nanos, peakKib(), rss, phases);
        }
      }
      String uri = dir.resolve("raw.lance").toUri().toString();
      if (merge) {
        try (VectorSchemaRoot base = BenchData.arrow(0, rows, allocator)) {
          Dataset.write().allocator(allocator).reader(BenchData.reader(base, allocator)).uri(uri)
              .mode(WriteParams.WriteMode.CREATE).execute().close();
        }
        try (VectorSchemaRoot added = BenchData.arrow(rows, measure ? MERGE_ROWS : mergeRows, allocator);
            Dataset ds = Dataset.open(uri, allocator)) {
          String rss = prepareMeasurement();
          long t0 = System.nanoTime();
          MergeInsertParams p = new MergeInsertParams(List.of("id")).withMatchedUpdateAll()
              .withNotMatched(MergeInsertParams.WhenNotMatched.InsertAll);
          try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, BenchData.reader(added, allocator), stream);
            ds.mergeInsert(p, stream).dataset().close();
          }
          long nanos = System.nanoTime() - t0;
          return new Measurement(nanos, peakKib(), rss, "-");
        }
      }
      try (VectorSchemaRoot data = BenchData.arrow(0, rows, allocator)) {
        String rss = prepareMeasurement();
        long t0 = System.nanoTime();
        Dataset.write().allocator(allocator).reader(BenchData.reader(data, allocator)).uri(uri)
            .mode(WriteParams.WriteMode.CREATE).execute().close();
        long nanos = System.nanoTime() - t0;
        return new Measurement(nanos, peakKib(), rss, "-");
      }
    }
  }

  /** Collects garbage and resets the kernel's peak-RSS mark, so the peak covers only the operation. */
  static String prepareMeasurement() {
    System.gc();
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
      return "operation";
    } catch (IOException | UnsupportedOperationException e) {
      // Without clear_refs (non-Linux, restricted /proc) the peak covers the whole process; reported as such.
      return "process";
    }
  }

  /** @return VmHWM of this process in KiB, or -1 when /proc is unavailable */
  static long peakKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return -1;
  }

}
