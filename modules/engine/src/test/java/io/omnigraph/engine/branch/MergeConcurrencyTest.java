package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeOutcome;
import io.omnigraph.api.MergeResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.crash.CrashWriter;
import io.omnigraph.testkit.graph.MutationGraph;
import io.omnigraph.testkit.jvm.ChildJvm;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merges racing writers on the target, writers on the source and each other (docs/branches.md,
 * "Concurrency"), on threads of one JVM and in separate JVMs, on local disk and on the S3 emulator,
 * over real Lance: no lost update, every rejection typed (a merge or write whose read set moved is
 * {@code read_set_conflict}, has no effect, and is retried by the caller), main's history one chain
 * of first parents whose merge commits are exactly the merges that answered {@code merged}, each
 * with the captured source head as its second parent.
 *
 * <p>Each variant runs {@value #DEFAULT_THREAD_RUNS} (threads) or 1 (processes) fresh graphs by
 * default; {@code -D}{@value #RUNS_PROPERTY}{@code =20} runs each 20 times in a row.
 */
class MergeConcurrencyTest {
  static final String RUNS_PROPERTY = "omnigraph.mergeconcurrency.runs";
  static final int DEFAULT_THREAD_RUNS = 2;

  /** Rows each branch has before the race, rows each racing writer adds. */
  static final int BRANCH_ROWS = 3;
  static final int WRITES = 3;

  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @TempDir Path dir;
  int graphs;

  record Backend(String name, String uri, OpenOptions options) {}

  Backend local() {
    return new Backend("local", dir.resolve("g" + (++graphs)).toString(), OpenOptions.defaults());
  }

  Backend s3() {
    return new Backend("s3", "s3://" + S3.server().createBucket() + "/graphs/g",
        new OpenOptions(S3AdapterOptions.forEmulator(S3.server().endpoint())));
  }

  static int runs(int byDefault) {
    return Integer.getInteger(RUNS_PROPERTY, byDefault);
  }

  @Test
  void threadsOnLocalDisk() throws Exception {
    for (int run = 0; run < runs(DEFAULT_THREAD_RUNS); run++) {
      threads(local());
    }
  }

  @Test
  void threadsOnTheS3Emulator() throws Exception {
    for (int run = 0; run < runs(1); run++) {
      threads(s3());
    }
  }

  @Test
  void processesOnLocalDisk() throws Exception {
    for (int run = 0; run < runs(1); run++) {
      processes(local());
    }
  }

  @Test
  void processesOnTheS3Emulator() throws Exception {
    for (int run = 0; run < runs(1); run++) {
      processes(s3());
    }
  }

  static String person(String name) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":30}}\n";
  }

  static void load(Graph g, String branch, String... names) {
    StringBuilder b = new StringBuilder();
    for (String n : names) {
      b.append(person(n));
    }
    g.load(LoadMode.MERGE, new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withBranch(branch));
  }

  /** main: root; branches f1, f2 with their own rows; then main moves (no merge can fast-forward). */
  static void seed(Graph g) {
    load(g, "main", "root");
    for (String b : List.of("f1", "f2")) {
      g.createBranch(b, null);
      List<String> rows = new ArrayList<>();
      for (int i = 0; i < BRANCH_ROWS; i++) {
        rows.add(b + "-" + i);
      }
      load(g, b, rows.toArray(String[]::new));
    }
    load(g, "main", "m0");
  }

  /** Every row any racer wrote: seeded, target writers w0/w1, the source writer s on f1. */
  static List<String> expectedRows() {
    List<String> rows = new ArrayList<>(List.of("root", "m0"));
    for (String b : List.of("f1", "f2")) {
      for (int i = 0; i < BRANCH_ROWS; i++) {
        rows.add(b + "-" + i);
      }
    }
    for (String w : List.of("w0", "w1", "s")) {
      for (int i = 0; i < WRITES; i++) {
        rows.add(w + "-" + i);
      }
    }
    return rows;
  }

  static boolean retriable(ConflictException e) {
    return e.detail().orElse(null) instanceof ErrorDetail.ReadSetConflict;
  }

  static MergeResult mergeRetrying(Graph g, String source, List<String> retried) {
    for (int attempt = 0; ; attempt++) {
      try {
        return g.merge(source, "main", MergeOptions.defaults());
      } catch (ConflictException e) {
        if (!retriable(e) || attempt >= 50) {
          throw e;
        }
        retried.add("merge " + source);
      }
    }
  }

  static void addRetrying(Graph g, String branch, String name, List<String> retried) {
    for (int attempt = 0; ; attempt++) {
      try {
        g.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name, "age", 30)),
            MutationOptions.defaults().withBranch(branch));
        return;
      } catch (ConflictException e) {
        if (!retriable(e) || attempt >= 50) {
          throw e;
        }
        retried.add("write " + branch);
      }
    }
  }

  /** Merges f1 and f2 into main while two writers write main and one writes f1, all on threads. */
  void threads(Backend backend) throws Exception {
    try (Graph g = Omnigraph.init(backend.uri(), SCHEMA, backend.options())) {
      seed(g);
      List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
      List<String> retried = Collections.synchronizedList(new ArrayList<>());
      List<MergeResult> merges = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (String b : List.of("f1", "f2")) {
        threads.add(new Thread(() -> {
          try {
            go.await();
            merges.add(mergeRetrying(g, b, retried));
          } catch (Throwable t) {
            failures.add(t);
          }
        }));
      }
      for (String w : List.of("w0", "w1", "s")) {
        String branch = w.equals("s") ? "f1" : "main";
        threads.add(new Thread(() -> {
          try {
            go.await();
            for (int i = 0; i < WRITES; i++) {
              addRetrying(g, branch, w + "-" + i, retried);
            }
          } catch (Throwable t) {
            failures.add(t);
          }
        }));
      }
      threads.forEach(Thread::start);
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(failures).as("untyped or unretriable failures").isEmpty();
      // the source writer may have raced the first merge of f1: merging again brings what it missed
      merges.add(mergeRetrying(g, "f1", retried));
      check(g, merges);
      System.out.println("merge concurrency (threads, " + backend.name() + "): retried " + retried);
    }
  }

  /** The same race, each racer a separate JVM (CrashWriter merge-retry / load-each). */
  void processes(Backend backend) throws Exception {
    try (Graph g = Omnigraph.init(backend.uri(), SCHEMA, backend.options())) {
      seed(g);
    }
    Path files = Files.createDirectories(dir.resolve("rows" + graphs));
    List<List<String>> commands = new ArrayList<>();
    for (String b : List.of("f1", "f2")) {
      commands.add(List.of("merge-retry", b));
    }
    for (String w : List.of("w0", "w1", "s")) {
      List<String> c = new ArrayList<>(List.of("load-each", w.equals("s") ? "f1" : "main"));
      for (int i = 0; i < WRITES; i++) {
        Path f = files.resolve(w + "-" + i + ".ndjson");
        Files.writeString(f, person(w + "-" + i));
        c.add(f.toString());
      }
      commands.add(c);
    }
    List<ChildJvm.Running> children = new ArrayList<>();
    try {
      for (List<String> c : commands) {
        List<String> args = new ArrayList<>(List.of(backend.uri()));
        backend.options().storageOptions().forEach((k, v) -> {
          args.add("--option");
          args.add(k + "=" + v);
        });
        args.addAll(c);
        children.add(CrashWriter.child(Map.of(), args).startLogged(dir.resolve("children")));
      }
      List<String> outputs = new ArrayList<>();
      for (ChildJvm.Running r : children) {
        ChildJvm.Result res = r.await(5, TimeUnit.MINUTES);
        assertThat(res.exitCode()).as("child exit (2 = an unretriable typed error):\n" + res.output()).isZero();
        outputs.add(res.output());
      }
      try (Graph g = Omnigraph.open(backend.uri(), backend.options())) {
        List<MergeResult> merges = new ArrayList<>();
        for (String out : outputs) {
          for (String line : out.split("\n")) {
            if (line.startsWith("merged ")) {
              String[] p = line.trim().split(" ");
              merges.add(new MergeResult(MergeOutcome.fromCode(p[1]), "?", "main", p[3], null, p[2], Map.of(), false));
            }
          }
        }
        assertThat(merges).as("one merge per merging child").hasSize(2);
        merges.add(mergeRetrying(g, "f1", new ArrayList<>()));
        check(g, merges);
      }
    } finally {
      children.forEach(ChildJvm.Running::close);
    }
  }

  /**
   * No lost update; main's history one chain of first parents; its two-parent commits exactly the
   * merges that answered {@code merged}, each with the source head it captured as second parent.
   */
  static void check(Graph g, List<MergeResult> merges) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    String main = out.toString(StandardCharsets.UTF_8);
    for (String name : expectedRows()) {
      assertThat(main).as("row " + name + " on main").contains("\"name\":\"" + name + "\"");
    }
    List<CommitInfo> commits = g.commits();
    for (int i = 0; i + 1 < commits.size(); i++) {
      assertThat(commits.get(i).parents().get(0)).as("first parent of " + commits.get(i).id())
          .isEqualTo(commits.get(i + 1).id());
    }
    Map<String, String> mergeCommits = new java.util.TreeMap<>();
    commits.stream().filter(c -> c.parents().size() == 2).forEach(c -> mergeCommits.put(c.id(), c.parents().get(1)));
    Map<String, String> merged = new java.util.TreeMap<>();
    merges.stream().filter(r -> r.outcome() == MergeOutcome.MERGED).forEach(r -> merged.put(r.commitId(),
        r.sourceCommitId()));
    assertThat(mergeCommits).as("merge commits on main = merges answered merged (id -> second parent)")
        .isEqualTo(merged);
    assertThat(merged).as("f1 and f2 each merged at least once").hasSizeGreaterThanOrEqualTo(2);
    assertThat(g.recoveries()).isEmpty();
  }
}
