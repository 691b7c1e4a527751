package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.RecordedRequest;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Counts the object-store requests of one 1-row strict insert (a {@code load --mode append} of one
 * node) on the S3 emulator, through the test kit's FaultProxy in front of it, and writes the list
 * to {@code target/s3-insert-requests.txt} (docs/benchmarks.md, "Small-insert benchmark and request count").
 */
class S3InsertRequestsTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @Test
  void aOneRowInsertMakesExactlyTheListedRequests() throws Exception {
    S3ProxyServer server = S3.server();
    try (FaultProxy proxy = FaultProxy.start(server.endpoint())) {
      String bucket = server.createBucket();
      String uri = "s3://" + bucket + "/graphs/requests";
      OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(proxy.endpoint()));
      try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
        GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("warm", 1));
        proxy.clearLog();
        GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("one", 2));
        List<RecordedRequest> requests = proxy.requests();
        List<String> lines = new ArrayList<>();
        Map<String, Integer> byKind = new TreeMap<>();
        String prefix = "/" + bucket + "/graphs/requests/";
        for (RecordedRequest r : requests) {
          String path = r.path().startsWith(prefix) ? r.path().substring(prefix.length()) : r.path();
          lines.add(r.sequence() + " " + r.method() + " " + r.target() + " -> " + r.status());
          byKind.merge(r.method() + " " + topLevel(path), 1, Integer::sum);
        }
        List<String> described = requests.stream().map(r -> describe(r, "graphs/requests/")).toList();
        Path out = Path.of(System.getProperty("basedir", ".")).resolve("target/s3-insert-requests.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, "requests of one 1-row append load: " + requests.size() + "\n" + byKind + "\n"
            + String.join("\n", lines) + "\n\n" + String.join("\n", described) + "\n");
        System.out.println("S3 requests per 1-row insert: " + requests.size() + " " + byKind);
        assertThat(requests).allMatch(r -> r.status() < 500);
        assertThat(requests.stream().filter(r -> r.path().endsWith("/" + io.omnigraph.engine.write.WriteLease.PATH)))
            .extracting(RecordedRequest::method).containsExactly("PUT", "PUT"); // IfMatch on the version the warm-up released, then release
        // Exactly the requests docs/maintenance.md lists, each with its reason: any request more
        // (or a different one) fails here.
        assertThat(described).as(String.join("\n", described)).containsExactlyInAnyOrderElementsOf(FRESH_INSERT);
        assertThat(requests).hasSize(FRESH_INSERT.size());
      }
    }
  }

  /**
   * The requests of a 1-row append load into a graph with one earlier insert, as {@link #describe}
   * writes them, in protocol order (docs/maintenance.md, "Request count of a 1-row insert").
   */
  static final List<String> FRESH_INSERT = List.of(
      "LIST __recovery/", // entry barrier
      "LIST __manifest/_versions/", // capture: the latest manifest version (the handle kept it)
      // (no GET of nodes/*/data: the id probe knows the ids of the fragment this handle wrote)
      "PUT nodes/*/data/*.lance", // the staged fragment
      "PUT __write_lease.json", // take the lease
      "LIST __manifest/_versions/", // revalidate the token inside the effect window
      "LIST __recovery/", // under-gate re-list
      "LIST nodes/*/_versions/", // the table's live HEAD equals its pin
      "PUT __recovery/*.json", // arm the sidecar
      "LIST nodes/*/_versions/", // Lance's commit: latest version
      "PUT nodes/*/_transactions/*.txn", // Lance's commit: transaction
      "PUT nodes/*/_versions/*.manifest", // Lance's commit: the new version
      "PUT __recovery/*.json", // confirm the sidecar
      "PUT __manifest/data/*.lance", // publish: the new manifest rows
      "PUT __manifest/_deletions/*.arrow", // publish: the replaced graph_head row, by address
      "LIST __manifest/_versions/", // publish commit: latest version
      "PUT __manifest/_transactions/*.txn", // publish commit: transaction
      "PUT __manifest/_versions/*.manifest", // publish commit: the new version
      "DELETE __recovery/*.json", // retire the sidecar
      "PUT __write_lease.json"); // release the lease

  /**
   * The same insert after 20 earlier inserts without automatic maintenance, on the handle that
   * wrote them: the id probe remembers the ids of the fragments this handle wrote and the publish
   * replaces the graph-head row by address, so none of the 20 one-row fragments is read and the
   * insert makes exactly the requests of the fresh insert, one for one (docs/maintenance.md, "Flat
   * write cost"; it made 39 before the probe memory, one GET per earlier fragment).
   */
  @Test
  void withoutMaintenanceAnInsertAfterTwentyWritesMakesExactlyTheFreshRequests() throws Exception {
    S3ProxyServer server = S3.server();
    try (FaultProxy proxy = FaultProxy.start(server.endpoint())) {
      String bucket = server.createBucket();
      String uri = "s3://" + bucket + "/graphs/grown";
      // Without automatic maintenance: only the handle's own memory keeps the count flat.
      OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(proxy.endpoint()),
          io.omnigraph.api.MaintenancePolicy.off());
      try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
        for (int i = 0; i < 20; i++) {
          GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("p" + i, i));
        }
        proxy.clearLog();
        GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("late", 99));
        List<RecordedRequest> requests = proxy.requests();
        Map<String, Integer> byKind = new TreeMap<>();
        String prefix = "/" + bucket + "/graphs/grown/";
        for (RecordedRequest r : requests) {
          String path = r.path().startsWith(prefix) ? r.path().substring(prefix.length()) : r.path();
          byKind.merge(r.method() + " " + topLevel(path), 1, Integer::sum);
        }
        Path out = Path.of(System.getProperty("basedir", ".")).resolve("target/s3-insert-requests-after-20.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, "requests of a 1-row append load after 20 earlier ones: " + requests.size() + "\n" + byKind
            + "\n");
        System.out.println("S3 requests per 1-row insert after 20 inserts: " + requests.size() + " " + byKind);
        assertThat(requests).allMatch(r -> r.status() < 500);
        List<String> described = requests.stream().map(r -> describe(r, "graphs/grown/")).toList();
        assertThat(described).as(String.join("\n", described)).containsExactlyInAnyOrderElementsOf(FRESH_INSERT);
        assertThat(requests).hasSize(FRESH_INSERT.size());
      }
    }
  }

  /** Earlier writes of {@link #withAutomaticMaintenanceTheRequestCountStaysTheFreshCount} (the figures: 100 and 1,000). */
  static final String WRITES_PROPERTY = "omnigraph.requests.writes";
  static final String INSERT = "query add($name: String, $age: I32) { insert Person { name: $name, age: $age } }";

  /**
   * With automatic maintenance on, the request count of a 1-row insert mutation does not grow with
   * the number of earlier writes (docs/maintenance.md, "Flat write cost"): after {@value
   * #WRITES_PROPERTY} earlier writes (default 40; the figures are 100 and 1,000), every
   * write that does not itself run maintenance makes exactly the requests, one for one, of the
   * second write on a fresh graph ({@link #FRESH_INSERT}: the id probe reads no fragment, neither
   * the 1-row ones earlier writes left nor the ones compaction made). The writes that run
   * maintenance (a table compaction once in {@code threshold} writes, the {@code __manifest}
   * compaction on another write about as often) make more, within twice their first steady run. Request counts are
   * deterministic, not timings. Without maintenance the count after 20 writes grows (above).
   */
  @Test
  void withAutomaticMaintenanceTheRequestCountStaysTheFreshCount() throws Exception {
    int earlier = Integer.getInteger(WRITES_PROPERTY, 40);
    int threshold = 8;
    S3ProxyServer server = S3.server();
    try (FaultProxy proxy = FaultProxy.start(server.endpoint())) {
      String bucket = server.createBucket();
      String uri = "s3://" + bucket + "/graphs/flat";
      OpenOptions options = new OpenOptions(S3AdapterOptions.forEmulator(proxy.endpoint()),
          io.omnigraph.api.MaintenancePolicy.atFragments(threshold));
      try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
        io.omnigraph.api.PreparedMutation add = g.prepareMutation(INSERT, "add");
        List<int[]> counts = new ArrayList<>(); // {write, requests, maintenance ran}
        List<List<String>> lists = new ArrayList<>();
        long automatic = 0;
        int total = earlier + 2 * threshold;
        for (int i = 1; i <= total; i++) {
          proxy.clearLog();
          var r = g.mutate(add, io.omnigraph.api.QueryParams.of(Map.of("name", "p" + i, "age", i)),
              io.omnigraph.api.MutationOptions.defaults());
          int n = proxy.requests().size();
          lists.add(proxy.requests().stream().map(q -> describe(q, "graphs/flat/")).toList());
          assertThat(r.warnings()).isEmpty();
          // Commits are counted only where they are asserted on (a commit list reads __manifest):
          // a write ran maintenance when it made more requests than the fresh count.
          counts.add(new int[] {i, n, 0});
        }
        long commits = g.commits().stream().filter(c -> io.omnigraph.engine.maintenance.AutoMaintenance.MESSAGE
            .equals(c.message())).count();
        int fresh = counts.get(1)[1];
        StringBuilder report = new StringBuilder("write requests\n");
        counts.forEach(c -> report.append(c[0]).append(' ').append(c[1]).append(c[1] > fresh ? " maintenance" : "")
            .append('\n'));
        report.append("\nwrite 2:\n").append(String.join("\n", lists.get(1))).append('\n');
        for (int k = 2 * threshold; k < counts.size(); k++) {
          if (counts.get(k)[1] > fresh) { // the first steady maintenance write, and the write after it
            report.append("\nwrite ").append(k + 1).append(" (maintenance):\n").append(String.join("\n", lists.get(k)))
                .append('\n');
            if (k + 1 < counts.size()) {
              report.append("\nwrite ").append(k + 2).append(" (after maintenance):\n")
                  .append(String.join("\n", lists.get(k + 1))).append('\n');
            }
            break;
          }
        }
        Path out = Path.of(System.getProperty("basedir", ".")).resolve("target/s3-insert-requests-maintained.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        System.out.println("S3 requests per 1-row insert mutation with automatic maintenance (threshold " + threshold
            + "):\n" + report);
        // The fresh write is the protocol's list, no more.
        assertThat(lists.get(1)).as(report.toString()).containsExactlyInAnyOrderElementsOf(FRESH_INSERT);
        assertThat(commits).as(report.toString()).isGreaterThanOrEqualTo((total - threshold) / threshold);
        List<Integer> maintained = new ArrayList<>();
        for (int k = 1; k < counts.size(); k++) {
          if (counts.get(k)[1] != fresh) {
            maintained.add(k);
          } else {
            // Every other write, however many came before it, is the fresh write, request for request.
            assertThat(lists.get(k)).as("write %d vs write 2\n%s", k + 1, report)
                .containsExactlyInAnyOrderElementsOf(lists.get(1));
          }
        }
        // After the first cycles (init's manifest fragments make the first runs come early), a table
        // compaction (the write that also arms an Optimize sidecar) runs once per threshold's worth of
        // writes, and the __manifest compaction on another write about as often (the table run's publish
        // adds a fragment to __manifest; docs/maintenance.md, "Automatic maintenance"). Their own requests
        // grow only with the size of what they rewrite (__manifest keeps every commit's rows: docs/
        // maintenance.md, "Cost, measured"), never with the writes in between.
        List<Integer> steady = maintained.stream().filter(k -> k >= 2 * threshold).toList();
        long arms = lists.get(1).stream().filter("PUT __recovery/*.json"::equals).count();
        List<Integer> tableRuns = steady.stream()
            .filter(k -> lists.get(k).stream().filter("PUT __recovery/*.json"::equals).count() > arms).toList();
        List<Integer> manifestRuns = steady.stream().filter(k -> !tableRuns.contains(k)).toList();
        assertThat(tableRuns).as(report.toString()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(manifestRuns).as(report.toString()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(steady.get(steady.size() - 1)).as(report.toString()).isGreaterThanOrEqualTo(earlier);
        for (List<Integer> runs : List.of(tableRuns, manifestRuns)) {
          for (int j = 1; j < runs.size(); j++) {
            int gap = runs.get(j) - runs.get(j - 1);
            if (runs == tableRuns) {
              assertThat(gap).as(report.toString()).isEqualTo(threshold);
            } else {
              assertThat(gap).as(report.toString()).isBetween(threshold - 1, threshold + 1);
            }
            assertThat(counts.get(runs.get(j))[1]).as("maintenance write %d vs %d\n%s", runs.get(j) + 1,
                runs.get(0) + 1, report).isBetween(counts.get(runs.get(0))[1], 2 * counts.get(runs.get(0))[1]);
          }
        }
        int last = steady.get(steady.size() - 1);
        Files.writeString(out, report + "\nwrite " + (last + 1) + " (the last maintenance):\n"
            + String.join("\n", lists.get(last)) + "\n");
      }
    }
  }

  /**
   * One request as {@code METHOD path} relative to the graph root, a LIST as {@code LIST <prefix>},
   * with the names that change from run to run (table directories, data, version, transaction,
   * deletion and sidecar files) replaced by {@code *}.
   */
  static String describe(RecordedRequest r, String graphPrefix) {
    String method = r.method();
    String path = r.path().replaceFirst("^/[^/]+/?", "");
    if (r.query().contains("list-type=2")) {
      method = "LIST";
      path = "";
      for (String kv : r.query().split("&")) {
        if (kv.startsWith("prefix=")) {
          path = java.net.URLDecoder.decode(kv.substring("prefix=".length()), java.nio.charset.StandardCharsets.UTF_8);
        }
      }
    }
    if (path.startsWith(graphPrefix)) {
      path = path.substring(graphPrefix.length());
    }
    String[] seg = path.split("/", -1);
    if (seg.length > 1 && (seg[0].equals("nodes") || seg[0].equals("edges"))) {
      seg[1] = "*";
    }
    String last = seg[seg.length - 1];
    String dir = seg.length > 1 ? seg[seg.length - 2] : "";
    int dot = last.lastIndexOf('.');
    if (dot > 0 && List.of("data", "_versions", "_transactions", "_deletions", "__recovery").contains(dir)) {
      seg[seg.length - 1] = "*" + last.substring(dot);
    }
    return method + " " + String.join("/", seg);
  }

  private static String topLevel(String path) {
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash) + "/…";
  }
}
