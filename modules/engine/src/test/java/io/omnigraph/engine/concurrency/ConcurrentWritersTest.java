package io.omnigraph.engine.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.jvm.ChildJvm;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent writers on one graph: 8 threads sharing one handle, and separately 4 OS processes
 * (child JVMs), on local disk and on the S3 emulator, running loads ({@link ConcurrentWorkload})
 * and, separately, {@code .gq} mutations ({@link ConcurrentMutationWorkload}). After every run:
 * every acknowledged write is present, every rejection is a typed conflict, no update is lost
 * (model check) and the commit history is one chain.
 *
 * <p>Each scenario runs {@code -Domnigraph.concurrency.runs=N} times (default 1); the issue's
 * "20 runs in a row" is {@code -Domnigraph.concurrency.runs=20} (docs/concurrency.md).
 * One cell alone: {@code -Dtest='ConcurrentWritersTest#mutationsFourProcessesOnS3'}.
 */
public class ConcurrentWritersTest {
  static final int THREADS = 8;
  static final int PROCESSES = 4;
  static final int RUNS = Integer.getInteger("omnigraph.concurrency.runs", 1);

  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @TempDir Path dir;

  @TestFactory
  Stream<DynamicTest> eightThreadsOnLocalDisk() {
    return runs(run -> threads(dir.resolve("threads-" + run).toString(), Map.of(), WriterWorkload.LOADS));
  }

  @TestFactory
  Stream<DynamicTest> fourProcessesOnLocalDisk() {
    return runs(run -> processes(dir.resolve("procs-" + run).toString(), Map.of(), WriterWorkload.LOADS));
  }

  @TestFactory
  Stream<DynamicTest> eightThreadsOnS3() {
    return runs(run -> threads(s3Uri(), s3Options(), WriterWorkload.LOADS));
  }

  @TestFactory
  Stream<DynamicTest> fourProcessesOnS3() {
    return runs(run -> processes(s3Uri(), s3Options(), WriterWorkload.LOADS));
  }

  @TestFactory
  Stream<DynamicTest> mutationsEightThreadsOnLocalDisk() {
    return runs(run -> threads(dir.resolve("mthreads-" + run).toString(), Map.of(), WriterWorkload.MUTATIONS));
  }

  @TestFactory
  Stream<DynamicTest> mutationsFourProcessesOnLocalDisk() {
    return runs(run -> processes(dir.resolve("mprocs-" + run).toString(), Map.of(), WriterWorkload.MUTATIONS));
  }

  @TestFactory
  Stream<DynamicTest> mutationsEightThreadsOnS3() {
    return runs(run -> threads(s3Uri(), s3Options(), WriterWorkload.MUTATIONS));
  }

  @TestFactory
  Stream<DynamicTest> mutationsFourProcessesOnS3() {
    return runs(run -> processes(s3Uri(), s3Options(), WriterWorkload.MUTATIONS));
  }

  interface Run {
    void run(int n) throws Exception;
  }

  static Stream<DynamicTest> runs(Run body) {
    return IntStream.rangeClosed(1, RUNS).mapToObj(n -> DynamicTest.dynamicTest("run " + n + " of " + RUNS,
        () -> body.run(n)));
  }

  static String s3Uri() {
    return "s3://" + S3.server().createBucket() + "/graphs/concurrent";
  }

  static Map<String, String> s3Options() {
    S3ProxyServer server = S3.server();
    return S3AdapterOptions.forEmulator(server.endpoint());
  }

  /** Creates the graph and writes the workload's seed. */
  static void create(String uri, Map<String, String> options, WriterWorkload workload) {
    try (Graph g = Omnigraph.init(uri, workload.schema(), new OpenOptions(options))) {
      workload.seed(g);
    }
  }

  static void threads(String uri, Map<String, String> options, WriterWorkload workload) throws Exception {
    create(uri, options, workload);
    List<ConcurrentWorkload.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    try (Graph g = Omnigraph.open(uri, new OpenOptions(options))) {
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < THREADS; w++) {
          int writer = w;
          writers.add(pool.submit(() -> {
            start.await();
            outcomes.addAll(workload.run(g, writer, workload.ops()));
            return null;
          }));
        }
        start.countDown();
        for (Future<?> f : writers) {
          f.get(5, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      report(workload, uri, "threads", outcomes);
      assertThat(outcomes).hasSize(THREADS * workload.ops());
      assertThat(workload.check(g, outcomes)).isEmpty();
    }
  }

  static void processes(String uri, Map<String, String> options, WriterWorkload workload) throws Exception {
    create(uri, options, workload);
    List<Process> children = new ArrayList<>();
    List<ConcurrentWorkload.Outcome> outcomes = new ArrayList<>();
    try {
      List<BufferedReader> outputs = new ArrayList<>();
      for (int w = 0; w < PROCESSES; w++) {
        Process p = writerChild(workload, uri, w, options).start();
        children.add(p);
        outputs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
      }
      for (int w = 0; w < PROCESSES; w++) {
        awaitLine(outputs.get(w), "READY", w);
      }
      for (Process p : children) {
        OutputStream in = p.getOutputStream();
        in.write('\n');
        in.flush();
      }
      for (int w = 0; w < PROCESSES; w++) {
        List<String> lines = readUntilDone(outputs.get(w), w);
        for (String l : lines) {
          outcomes.add(ConcurrentWorkload.Outcome.parse(l));
        }
        assertThat(children.get(w).waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(children.get(w).exitValue()).isZero();
      }
    } finally {
      for (Process p : children) {
        p.destroyForcibly();
      }
    }
    report(workload, uri, "processes", outcomes);
    assertThat(outcomes).hasSize(PROCESSES * workload.ops());
    try (Graph g = Omnigraph.open(uri, new OpenOptions(options))) {
      assertThat(workload.check(g, outcomes)).isEmpty();
    }
  }

  /** Prints what the writers got (per kind: acknowledged, and each rejection code and member). */
  static void report(WriterWorkload workload, String uri, String writers, List<ConcurrentWorkload.Outcome> outcomes) {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    for (ConcurrentWorkload.Outcome o : outcomes) {
      String what = o.acked() ? (o.commitOrCode().equals("-") ? "acked-no-commit" : "acked")
          : o.commitOrCode() + "(" + o.member() + ")";
      counts.merge(o.kind() + " " + what, 1, Integer::sum);
    }
    System.out.println("concurrency " + workload + " " + writers + " on " + (uri.startsWith("s3:") ? "s3" : "fs")
        + ": " + counts);
  }

  private static void awaitLine(BufferedReader r, String expected, int writer) throws Exception {
    StringBuilder seen = new StringBuilder();
    for (String line; (line = r.readLine()) != null; ) {
      if (line.equals(expected)) {
        return;
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("writer process " + writer + " ended before " + expected + ":\n" + seen);
  }

  private static List<String> readUntilDone(BufferedReader r, int writer) throws Exception {
    List<String> outcomes = new ArrayList<>();
    StringBuilder seen = new StringBuilder();
    for (String line; (line = r.readLine()) != null; ) {
      if (line.equals("DONE")) {
        return outcomes;
      }
      if (line.startsWith("ACK ") || line.startsWith("REJECT ")) {
        outcomes.add(line);
      } else {
        seen.append(line).append('\n');
      }
    }
    throw new AssertionError("writer process " + writer + " failed:\n" + seen);
  }

  /** One writer process: a {@link ConcurrentWriterChild} on {@code uri} with the graph's open options. */
  static ChildJvm writerChild(WriterWorkload workload, String uri, int writer, Map<String, String> options) {
    List<String> args = new ArrayList<>(List.of(workload.name(), uri, Integer.toString(writer),
        Integer.toString(workload.ops())));
    options.forEach((k, v) -> args.add(k + "=" + v));
    return ChildJvm.main(ConcurrentWriterChild.class, args);
  }
}
