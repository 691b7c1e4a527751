package io.omnigraph.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.conformance.graph.GraphContract;
import io.omnigraph.server.OmnigraphServer;
import io.omnigraph.server.Tokens;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load and fault tests of the server on loopback (docs/server.md, "Load and fault tests"). Tagged
 * {@code load}: not part of the default build. Sizes come from system properties so the same tests
 * run small (proof that they work) and at full size (the coordinator's quiet-machine measurement):
 *
 * <pre>
 * ./mvnw -q -pl graph-contract-tests -am test -Dgraph.contract.excludedGroups= -Dgroups=load \
 *   -Dtest=ServerLoadTest -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Domnigraph.load.seconds=60 -Domnigraph.load.concurrency=16 -Domnigraph.ingest.rows=1000000
 * </pre>
 */
@Tag("load")
class ServerLoadTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String TOKEN = "load-token";
  static final int BATCH = Integer.getInteger("omnigraph.ingest.batch", 8192);

  @TempDir Path tmp;

  /** Mixed reads and 1-row mutations at fixed concurrency: throughput, p50/p99, and no 5xx. */
  @Test
  void mixedReadsAndOneRowMutationsAtFixedConcurrency() throws Exception {
    int seconds = Integer.getInteger("omnigraph.load.seconds", 3);
    int concurrency = Integer.getInteger("omnigraph.load.concurrency", 4);
    try (Graph graph = Omnigraph.init(tmp.resolve("g").toString(), GraphContract.SCHEMA);
        OmnigraphServer server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("g", graph)
            .tokens(Tokens.of(Map.of("load", TOKEN))).maxInFlightPerActor(concurrency).errorLog(System.err::println).start()) {
      graph.load(LoadMode.APPEND, new java.io.ByteArrayInputStream(GraphContract.DATA.getBytes(StandardCharsets.UTF_8)),
          LoadOptions.defaults());
      URI u = server.uri();
      String read = "{\"query\":" + JSON.writeValueAsString(
          "query q() { match { $a: Author } return { $a.handle, $a.name } order { $a.handle } limit 10 }") + "}";
      long started = System.nanoTime();
      long end = started + Duration.ofSeconds(seconds).toNanos();
      AtomicLong seq = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(concurrency);
      List<Future<long[][]>> workers = new ArrayList<>();
      for (int w = 0; w < concurrency; w++) {
        workers.add(pool.submit(() -> {
          List<Long> reads = new ArrayList<>();
          List<Long> writes = new ArrayList<>();
          long serverErrors = 0;
          long other = 0;
          while (System.nanoTime() < end) {
            long n = seq.incrementAndGet();
            boolean write = n % 2 == 0;
            String body = write ? "{\"query\":" + JSON.writeValueAsString(GraphContract.MUTATIONS)
                + ",\"name\":\"add_author\",\"params\":{\"handle\":\"w" + n + "\",\"name\":\"n\"}}" : read;
            long t0 = System.nanoTime();
            HttpResponse<String> r = Http.postJson(u, write ? "/graphs/g/mutate" : "/graphs/g/query", TOKEN, body);
            long t = System.nanoTime() - t0;
            if (r.statusCode() >= 500) {
              serverErrors++;
              System.err.println("5xx: " + r.body());
            } else if (r.statusCode() != 200) {
              other++;
            }
            (write ? writes : reads).add(t);
          }
          return new long[][] {toArray(reads), toArray(writes), {serverErrors, other}};
        }));
      }
      List<Long> reads = new ArrayList<>();
      List<Long> writes = new ArrayList<>();
      long serverErrors = 0;
      long other = 0;
      for (Future<long[][]> f : workers) {
        long[][] r = f.get();
        Arrays.stream(r[0]).forEach(reads::add);
        Arrays.stream(r[1]).forEach(writes::add);
        serverErrors += r[2][0];
        other += r[2][1];
      }
      double wall = (System.nanoTime() - started) / 1e9;
      pool.shutdown();
      List<Long> all = new ArrayList<>(reads);
      all.addAll(writes);
      System.out.printf(java.util.Locale.ROOT, "server load: %.1f s at concurrency %d: %d requests, throughput %.1f req/s,"
              + " p50 %.1f ms, p99 %.1f ms; 5xx %d; other non-200 %d%n",
          wall, concurrency, all.size(), all.size() / wall, pct(all, 50), pct(all, 99), serverErrors, other);
      System.out.printf(java.util.Locale.ROOT, "server load:   reads (query, 10 rows): %d, %.1f/s, p50 %.1f ms, p99 %.1f ms%n",
          reads.size(), reads.size() / wall, pct(reads, 50), pct(reads, 99));
      System.out.printf(java.util.Locale.ROOT, "server load:   1-row mutations (one commit each): %d, %.1f/s, p50 %.1f ms, p99 %.1f ms%n",
          writes.size(), writes.size() / wall, pct(writes, 50), pct(writes, 99));
      assertThat(serverErrors).isZero();
      assertThat(other).isZero();
      assertThat(reads).isNotEmpty();
      assertThat(writes).isNotEmpty();
      // every acknowledged 1-row mutation is one commit (plus genesis and the seed load)
      assertThat(writeCommits(graph)).hasSize(writes.size() + 2);
    }
  }

  /** N rows in bounded NDJSON requests (each one load, one commit), all present at the end. */
  @Test
  void ingestInBoundedRequests() throws Exception {
    int rows = Integer.getInteger("omnigraph.ingest.rows", 20_000);
    try (Graph graph = Omnigraph.init(tmp.resolve("g").toString(), GraphContract.SCHEMA);
        OmnigraphServer server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("g", graph)
            .tokens(Tokens.of(Map.of("load", TOKEN))).errorLog(System.err::println).start()) {
      long t0 = System.nanoTime();
      int requests = 0;
      for (int start = 0; start < rows; start += BATCH) {
        HttpResponse<String> r = postBatch(server.uri(), start, Math.min(BATCH, rows - start));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        requests++;
      }
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf(java.util.Locale.ROOT, "server ingest: %,d rows in %d load/ndjson requests of at most %,d rows"
          + " (one commit each) in %.1f s: ingest rate %,.0f rows/s, %.2f s per request%n",
          rows, requests, BATCH, s, rows / s, s / requests);
      assertThat(writeCommits(graph)).hasSize(requests + 1);
      assertThat(exportedHandles(graph)).hasSize(rows);
    }
  }

  /**
   * SIGKILL of a server (a real child JVM) during ingest: after a restart (whose open runs the
   * recovery sweep) every acknowledged request is present in full, and no request is partly present.
   */
  @Test
  void sigkillDuringIngestLosesNoAcknowledgedRequestAndPublishesNoPartialOne() throws Exception {
    int requests = Integer.getInteger("omnigraph.fault.requests", 12);
    int perRequest = Integer.getInteger("omnigraph.fault.rows", 2000);
    Path root = tmp.resolve("g");
    Omnigraph.init(root.toString(), GraphContract.SCHEMA).close();
    Process server = startServer(root);
    URI u = listenAddress(server);
    List<Integer> acknowledged = new ArrayList<>();
    Thread killer = new Thread(() -> {
      try {
        Thread.sleep(Long.getLong("omnigraph.fault.killAfterMs", 4000));
      } catch (InterruptedException e) {
        return;
      }
      server.destroyForcibly(); // SIGKILL
    });
    killer.start();
    for (int req = 0; req < requests; req++) {
      try {
        HttpResponse<String> r = postBatch(u, req * perRequest, perRequest);
        if (r.statusCode() == 200) {
          acknowledged.add(req);
        } else {
          break;
        }
      } catch (AssertionError connectionLost) {
        break;
      }
    }
    killer.join();
    server.waitFor(30, TimeUnit.SECONDS);
    System.out.printf("server fault: %d of %d requests acknowledged before SIGKILL%n", acknowledged.size(), requests);

    Process restarted = startServer(root);
    try {
      URI u2 = listenAddress(restarted);
      assertThat(Http.get(u2, "/graphs/g/commits", TOKEN).statusCode()).isEqualTo(200);
    } finally {
      restarted.destroyForcibly();
      restarted.waitFor(30, TimeUnit.SECONDS);
    }
    try (Graph graph = Omnigraph.open(root.toString())) {
      Set<String> present = exportedHandles(graph);
      for (int req = 0; req < requests; req++) {
        int have = 0;
        for (int i = 0; i < perRequest; i++) {
          if (present.contains("r" + (req * perRequest + i))) {
            have++;
          }
        }
        assertThat(have).as("rows of request %d", req).isIn(0, perRequest);
        if (acknowledged.contains(req)) {
          assertThat(have).as("acknowledged request %d", req).isEqualTo(perRequest);
        }
      }
      // one commit per request that is present, plus genesis
      assertThat(writeCommits(graph)).hasSize(present.size() / perRequest + 1);
    }
  }

  /**
   * SIGKILL of a server (a real child JVM) during a branch merge. Each round loads rows into a new
   * branch {@code f<k>} ({@code load/ndjson?branch=f<k>&from=main}), makes {@code main} diverge with a
   * 1-row mutation, and merges {@code f<k>} into {@code main} (a merge commit written in chunks of
   * {@code omnigraph.merge.chunk_rows} rows, each chunk followed by a pause armed through the
   * {@code branch_merge.after_chunk_commit} failpoint). In the last round the server is killed once
   * the merge's recovery sidecar exists and before its answer arrived. After a restart (whose open
   * runs the recovery sweep): every acknowledged request is present (loads on their branches,
   * mutations and merges on main); the killed merge is all or nothing on main (never some of its
   * rows, one merge commit or none); no sidecar is left; and merging the branch again completes it.
   */
  @Test
  void sigkillDuringAMergeLosesNoAcknowledgedRequestAndPublishesNoPartialMerge() throws Exception {
    int rounds = Integer.getInteger("omnigraph.fault.merges", 3);
    int perBranch = Integer.getInteger("omnigraph.fault.mergeRows", 300);
    int chunkRows = Integer.getInteger("omnigraph.fault.chunkRows", 100);
    long pauseMs = Long.getLong("omnigraph.fault.chunkPauseMs", 1500);
    long killAfterArmMs = Long.getLong("omnigraph.fault.killAfterArmMs", 400);
    Path root = tmp.resolve("g");
    try (Graph g = Omnigraph.init(root.toString(), GraphContract.SCHEMA)) {
      // some rows on main before the first branch
      g.load(LoadMode.APPEND, new java.io.ByteArrayInputStream(GraphContract.DATA.getBytes(StandardCharsets.UTF_8)),
          LoadOptions.defaults());
    }
    Process server = startServer(root, "-Domnigraph.merge.chunk_rows=" + chunkRows,
        "-Domnigraph.failpoints=branch_merge.after_chunk_commit=delay:" + pauseMs);
    URI u = listenAddress(server);
    int killed = rounds - 1;
    boolean answered;
    try {
      for (int k = 0; k < rounds; k++) {
        HttpResponse<String> load = postBatch(u, "m" + k + "_", 0, perBranch, "mode=merge&branch=f" + k + "&from=main");
        assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
        HttpResponse<String> mutate = Http.postJson(u, "/graphs/g/mutate", TOKEN, "{\"query\":"
            + JSON.writeValueAsString(GraphContract.MUTATIONS) + ",\"name\":\"add_author\",\"params\":{\"handle\":\"main"
            + k + "\",\"name\":\"n\"}}");
        assertThat(mutate.statusCode()).as(mutate.body()).isEqualTo(200);
        if (k < killed) {
          HttpResponse<String> merge = Http.postJson(u, "/graphs/g/branches/merge", TOKEN, "{\"source\":\"f" + k + "\"}");
          assertThat(merge.statusCode()).as(merge.body()).isEqualTo(200);
          assertThat(JSON.readTree(merge.body()).path("outcome").asText()).isEqualTo("merged");
        }
      }
      java.util.concurrent.CompletableFuture<HttpResponse<String>> merge = Http.CLIENT.sendAsync(
          HttpRequest.newBuilder(u.resolve("/graphs/g/branches/merge")).header("Authorization", "Bearer " + TOKEN)
              .header("Content-Type", "application/json").timeout(Duration.ofMinutes(5))
              .POST(HttpRequest.BodyPublishers.ofString("{\"source\":\"f" + killed + "\"}")).build(),
          HttpResponse.BodyHandlers.ofString());
      Path recovery = root.resolve("__recovery");
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (!hasSidecar(recovery)) {
        assertThat(merge).as("the merge answered before its sidecar was seen").isNotDone();
        assertThat(System.nanoTime()).as("the merge armed no sidecar within 2 minutes").isLessThan(deadline);
        Thread.sleep(5);
      }
      Thread.sleep(killAfterArmMs);
      answered = merge.isDone();
      server.destroyForcibly(); // SIGKILL, mid-merge: its sidecar is armed
      server.waitFor(30, TimeUnit.SECONDS);
      assertThat(answered).as("the merge must still be running when the server is killed").isFalse();
    } finally {
      server.destroyForcibly();
    }

    Process restarted = startServer(root);
    String outcome;
    try {
      URI u2 = listenAddress(restarted);
      HttpResponse<String> rec = Http.get(u2, "/graphs/g/recoveries", TOKEN);
      assertThat(rec.statusCode()).isEqualTo(200);
      JsonNode records = JSON.readTree(rec.body()).path("recoveries");
      outcome = records.isEmpty() ? "nothing to recover" : records.get(records.size() - 1).path("kind").asText();
    } finally {
      restarted.destroyForcibly();
      restarted.waitFor(30, TimeUnit.SECONDS);
    }
    try (Graph graph = Omnigraph.open(root.toString())) {
      assertThat(hasSidecar(root.resolve("__recovery"))).as("a sidecar left after the restart").isFalse();
      Set<String> main = exportedHandles(graph, "main");
      for (int k = 0; k < rounds; k++) {
        assertThat(main).as("acknowledged mutation on main, round %d", k).contains("main" + k);
        assertThat(exportedHandles(graph, "f" + k)).as("acknowledged load on branch f%d", k)
            .containsAll(handles("m" + k + "_", perBranch));
        if (k < killed) {
          assertThat(main).as("acknowledged merge of f%d", k).containsAll(handles("m" + k + "_", perBranch));
        }
      }
      Set<String> killedRows = new HashSet<>(handles("m" + killed + "_", perBranch));
      killedRows.retainAll(main);
      assertThat(killedRows.size()).as("rows of the killed merge on main: all or none").isIn(0, perBranch);
      boolean landed = killedRows.size() == perBranch;
      long mergeCommits = graph.commits("main").stream().filter(c -> c.parents().size() == 2).count();
      assertThat(mergeCommits).as("merge commits on main").isEqualTo(killed + (landed ? 1 : 0));
      System.out.printf("server fault (merge): SIGKILL %d ms after merge %d of %d armed its sidecar (no answer yet);"
          + " after restart: %s, the merge is %s on main, %d acknowledged requests all present%n",
          killAfterArmMs, killed + 1, rounds, outcome, landed ? "fully" : "not", 3 * killed + 2);
      // the next write works: merging the branch again completes (or finds it already merged)
      io.omnigraph.api.MergeResult again = graph.merge("f" + killed, null, io.omnigraph.api.MergeOptions.defaults());
      assertThat(again.outcome()).isEqualTo(landed ? io.omnigraph.api.MergeOutcome.ALREADY_UP_TO_DATE
          : io.omnigraph.api.MergeOutcome.MERGED);
      assertThat(exportedHandles(graph, "main")).containsAll(handles("m" + killed + "_", perBranch));
    }
  }

  private static boolean hasSidecar(Path recovery) throws java.io.IOException {
    if (!java.nio.file.Files.isDirectory(recovery)) {
      return false;
    }
    try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(recovery)) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(".json"));
    }
  }

  private static List<String> handles(String prefix, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(prefix + i);
    }
    return out;
  }

  private static Process startServer(Path root, String... jvmOptions) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir")));
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServerMain.class.getName(), root.toString(), TOKEN));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    return pb.start();
  }

  private static URI listenAddress(Process p) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("OMNIGRAPH_LISTEN_ADDR=")) {
        return URI.create("http://" + line.substring("OMNIGRAPH_LISTEN_ADDR=".length()));
      }
    }
    throw new AssertionError("the server exited before listening: " + p.waitFor());
  }

  private static HttpResponse<String> postBatch(URI u, int start, int count) {
    return postBatch(u, "r", start, count, "mode=merge");
  }

  /** One {@code load/ndjson} request of Author rows {@code <prefix><start>...<prefix><start+count-1>}. */
  private static HttpResponse<String> postBatch(URI u, String prefix, int start, int count, String query) {
    StringBuilder b = new StringBuilder(count * 64);
    for (int i = start; i < start + count; i++) {
      b.append("{\"type\":\"Author\",\"data\":{\"handle\":\"").append(prefix).append(i).append("\",\"name\":\"row ").append(i)
          .append("\",\"born\":").append(1900 + i % 100).append("}}\n");
    }
    try {
      return Http.CLIENT.send(HttpRequest.newBuilder(u.resolve("/graphs/g/load/ndjson?" + query))
          .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/x-ndjson")
          .timeout(Duration.ofMinutes(5)).POST(HttpRequest.BodyPublishers.ofString(b.toString())).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static Set<String> exportedHandles(Graph graph) throws Exception {
    return exportedHandles(graph, "main");
  }

  private static Set<String> exportedHandles(Graph graph, String branch) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out, io.omnigraph.api.ExportOptions.onBranch(branch).withTypes(List.of("Author")));
    Set<String> handles = new HashSet<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        JsonNode n = JSON.readTree(line);
        handles.add(n.path("data").path("handle").asText());
      }
    }
    return handles;
  }

  private static long[] toArray(List<Long> l) {
    return l.stream().mapToLong(Long::longValue).toArray();
  }

  private static double pct(List<Long> nanos, int p) {
    if (nanos.isEmpty()) {
      return 0;
    }
    long[] a = toArray(nanos);
    Arrays.sort(a);
    return a[Math.min(a.length - 1, (int) Math.ceil(p / 100.0 * a.length) - 1)] / 1e6;
  }

  /** The graph's commits without automatic maintenance commits (row-preserving, docs/maintenance.md). */
  static java.util.List<io.omnigraph.api.CommitInfo> writeCommits(Graph graph) {
    return graph.commits().stream()
        .filter(c -> !io.omnigraph.api.MaintenancePolicy.COMMIT_MESSAGE.equals(c.message())).toList();
  }
}
