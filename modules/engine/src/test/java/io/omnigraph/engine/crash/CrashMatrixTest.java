package io.omnigraph.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash matrix (issue 7 item 4): for every failpoint on the write path, a child JVM runs the
 * write and halts there ({@code Runtime.halt}); the test reopens the graph and requires that it is
 * exactly the state before the write or exactly the state after it (row-level, against
 * {@link GraphModel}), that its history is the old chain or the old chain plus one commit, that no
 * recovery sidecar is left, that the recovery audit says what happened (no row, one RolledBack row
 * for the recovery commit, or one RolledForward row for the write's own commit, as
 * {@link #expectedOutcome} requires per failpoint), and that the next write succeeds (nothing is
 * wedged). One control cell
 * per writer runs without a failpoint and must reach the after state, which proves the model.
 *
 * <p>Runs on local disk and on the S3 emulator (the child gets the s3proxy endpoint). The matrix
 * (failpoint × backend → outcome) is printed after the run; any divergence fails the test.
 *
 * <p>Failpoints that no production code passes yet are listed as "not placed" and skipped; they
 * join the matrix automatically when their call sites land.
 */
class CrashMatrixTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      node Company {
        title: String @key
      }
      edge WorksAt: Person -> Company @card(0..1) {
        since: I32?
      }
      """;
  static final Map<String, String> KEYS = Map.of("Person", "name", "Company", "title");

  static final String BASE = """
      {"type":"Person","data":{"name":"p0","age":30}}
      {"type":"Person","data":{"name":"p1","age":31}}
      {"type":"Person","data":{"name":"p2"}}
      {"type":"Company","data":{"title":"c0"}}
      {"type":"Company","data":{"title":"c1"}}
      {"edge":"WorksAt","from":"p0","to":"c0","data":{"id":"e0","since":2001}}
      {"edge":"WorksAt","from":"p1","to":"c1","data":{"id":"e1"}}
      """;

  /** A write under test: mode and input, and how many tables it commits. */
  record Writer(String name, LoadMode mode, String ndjson, int tables) {}

  static final Writer MERGE3 = new Writer("load merge (3 tables)", LoadMode.MERGE, """
      {"type":"Person","data":{"name":"p1","age":41}}
      {"type":"Person","data":{"name":"p3","age":23}}
      {"type":"Company","data":{"title":"c2"}}
      {"edge":"WorksAt","from":"p3","to":"c2","data":{"id":"e3","since":2023}}
      """, 3);
  static final Writer APPEND2 = new Writer("load append (2 tables)", LoadMode.APPEND, """
      {"type":"Person","data":{"name":"p4"}}
      {"edge":"WorksAt","from":"p4","to":"c1","data":{"id":"e4","since":2024}}
      """, 2);
  static final Writer OVERWRITE2 = new Writer("load overwrite (2 tables)", LoadMode.OVERWRITE, """
      {"type":"Person","data":{"name":"q0","age":50}}
      {"type":"Person","data":{"name":"q1"}}
      {"edge":"WorksAt","from":"q0","to":"c1","data":{"id":"f0"}}
      """, 2);

  /** The write-path failpoints in the order a write passes them; per-table ones fire once per table. */
  static final List<String> WRITE_PATH = List.of(Failpoints.WRITE_POST_STAGE_PRE_EFFECT, Failpoints.SIDECAR_WRITE,
      Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT, Failpoints.TABLE_COMMIT_BEFORE, Failpoints.TABLE_COMMIT_AFTER,
      Failpoints.SIDECAR_CONFIRM, Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, Failpoints.PUBLISH_BEFORE,
      Failpoints.PUBLISH_AFTER, Failpoints.SIDECAR_DELETE);
  static final Set<String> PER_TABLE = Set.of(Failpoints.TABLE_COMMIT_BEFORE, Failpoints.TABLE_COMMIT_AFTER);

  /**
   * The outcome each cell must reach: a halt before the first table commit leaves the graph
   * untouched (the armed, effect-free sidecar is discarded without an audit row); a halt after a
   * table commit and before the sidecar is confirmed is rolled back (one recovery commit, one
   * RolledBack audit row); from the confirmation on the write is rolled forward (its own commit, one
   * RolledForward audit row, also when the publish landed and only Phase D was lost).
   *
   * @throws AssertionError for a failpoint this table does not classify (a new failpoint must be
   *     given its expected outcome)
   */
  static String expectedOutcome(String failpoint, int hit) {
    if (failpoint == null) {
      return "after";
    }
    return switch (failpoint) {
      case Failpoints.WRITE_POST_STAGE_PRE_EFFECT, Failpoints.SIDECAR_WRITE, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT ->
          "before";
      case Failpoints.TABLE_COMMIT_BEFORE -> hit == 1 ? "before" : ROLLED_BACK;
      case Failpoints.TABLE_COMMIT_AFTER, Failpoints.SIDECAR_CONFIRM -> ROLLED_BACK;
      case Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, Failpoints.PUBLISH_BEFORE, Failpoints.PUBLISH_AFTER,
          Failpoints.SIDECAR_DELETE -> ROLLED_FORWARD;
      default -> throw new AssertionError("no expected crash outcome for failpoint " + failpoint);
    };
  }

  static final String ROLLED_BACK = "before (RolledBack)";
  static final String ROLLED_FORWARD = "after (RolledForward)";

  static final String CONTROL = "(no failpoint)";

  /** The next write after a crash: touches every table, so a table left drifted cannot hide. */
  static final String FOLLOW_UP = """
      {"type":"Person","data":{"name":"z9","age":99}}
      {"type":"Company","data":{"title":"after-crash"}}
      {"edge":"WorksAt","from":"z9","to":"after-crash","data":{"id":"z9e"}}
      """;

  /** backend → cell label → outcome, printed at the end. */
  static final Map<String, Map<String, String>> MATRIX = new TreeMap<>();
  static final List<String> DIVERGENCES = new ArrayList<>();
  static final AtomicInteger COVERED = new AtomicInteger();

  @TempDir Path tmp;

  interface Backend {
    String name();

    String freshUri();

    Map<String, String> options();
  }

  @Test
  void everyWritePathFailpointOnLocalDiskLeavesTheBeforeOrTheAfterState() {
    AtomicInteger n = new AtomicInteger();
    Backend local = new Backend() {
      public String name() {
        return "local";
      }

      public String freshUri() {
        return tmp.resolve("g" + n.incrementAndGet()).toString();
      }

      public Map<String, String> options() {
        return Map.of();
      }
    };
    List<String> divergent = new ArrayList<>();
    for (Writer w : List.of(MERGE3, APPEND2, OVERWRITE2)) {
      divergent.addAll(runWriter(local, w));
    }
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  @Test
  void everyWritePathFailpointOnTheS3EmulatorLeavesTheBeforeOrTheAfterState() {
    S3ProxyServer server = S3.server();
    Map<String, String> options = Map.of("endpoint", server.endpoint().toString(), "allow-http", "true",
        "path-style", "true", "region", S3ProxyServer.REGION, "access-key-id", S3ProxyServer.ACCESS_KEY_ID,
        "secret-access-key", S3ProxyServer.SECRET_ACCESS_KEY);
    Backend s3 = new Backend() {
      public String name() {
        return "s3";
      }

      public String freshUri() {
        return "s3://" + server.createBucket() + "/graphs/g";
      }

      public Map<String, String> options() {
        return options;
      }
    };
    assertThat(runWriter(s3, MERGE3)).as("divergent cells").isEmpty();
  }

  @AfterAll
  static void printMatrix() {
    StringBuilder b = new StringBuilder("\nCrash matrix (failpoint x backend -> outcome); cells run: " + COVERED.get()
        + "\n");
    java.util.TreeSet<String> labels = new java.util.TreeSet<>();
    MATRIX.values().forEach(m -> labels.addAll(m.keySet()));
    int width = labels.stream().mapToInt(String::length).max().orElse(10);
    b.append(String.format("%-" + width + "s", "cell"));
    MATRIX.keySet().forEach(k -> b.append(" | ").append(String.format("%-32s", k)));
    b.append('\n');
    for (String l : labels) {
      b.append(String.format("%-" + width + "s", l));
      for (Map<String, String> col : MATRIX.values()) {
        b.append(" | ").append(String.format("%-32s", col.getOrDefault(l, "-")));
      }
      b.append('\n');
    }
    if (!DIVERGENCES.isEmpty()) {
      b.append("Divergences:\n");
      DIVERGENCES.forEach(d -> b.append("  ").append(d).append('\n'));
    }
    System.out.println(b);
  }

  private List<String> runWriter(Backend backend, Writer w) {
    Set<String> placed = placedFailpoints();
    List<String> divergent = new ArrayList<>();
    record Cell(String failpoint, int hit) {}
    List<Cell> cells = new ArrayList<>();
    cells.add(new Cell(null, 0));
    for (String f : WRITE_PATH) {
      if (PER_TABLE.contains(f)) {
        for (int i = 1; i <= w.tables(); i++) {
          cells.add(new Cell(f, i));
        }
      } else {
        cells.add(new Cell(f, 1));
      }
    }
    for (Cell c : cells) {
      String label = w.name() + " @ " + (c.failpoint() == null ? CONTROL
          : c.failpoint() + (PER_TABLE.contains(c.failpoint()) ? "#" + c.hit() : ""));
      String outcome;
      if (c.failpoint() != null && !placed.contains(c.failpoint())) {
        outcome = "not placed";
      } else {
        CellResult r = runCell(backend, w, c.failpoint(), c.hit());
        COVERED.incrementAndGet();
        outcome = r.outcome();
        if (r.divergence() != null) {
          divergent.add(backend.name() + " " + label + ": " + r.divergence());
          DIVERGENCES.add(backend.name() + " " + label + ": " + r.divergence());
        }
      }
      synchronized (MATRIX) {
        MATRIX.computeIfAbsent(backend.name(), k -> new TreeMap<>()).put(label, outcome);
      }
    }
    return divergent;
  }

  record CellResult(String outcome, String divergence) {}

  private CellResult runCell(Backend backend, Writer w, String failpoint, int hit) {
    String uri = backend.freshUri();
    OpenOptions open = new OpenOptions(backend.options());
    GraphModel before;
    List<String> beforeCommits;
    try (Graph g = Omnigraph.init(uri, SCHEMA, open)) {
      load(g, LoadMode.OVERWRITE, BASE);
      before = GraphModel.fromExport(KEYS, export(g));
      beforeCommits = commitIds(g);
    }
    GraphModel after = before.copy().apply(w.mode(), w.ndjson());
    Path input = write(w.ndjson());
    List<String> args = new ArrayList<>();
    args.add(uri);
    backend.options().forEach((k, v) -> {
      args.add("--option");
      args.add(k + "=" + v);
    });
    args.addAll(List.of("load", w.mode().wireName(), input.toString()));
    Map<String, String> props = failpoint == null ? Map.of()
        : Map.of(Failpoints.SYSTEM_PROPERTY, failpoint + "=halt@" + hit);
    ChildJvm.Result child;
    try (ChildJvm.Running r = ChildJvm.start(tmp.resolve("children"), CrashWriter.class, props, args)) {
      child = r.await(5, java.util.concurrent.TimeUnit.MINUTES);
    }
    int expectedExit = failpoint == null ? 0 : Failpoints.HALT_STATUS;
    if (child.exitCode() != expectedExit) {
      return new CellResult("exit " + child.exitCode(), "child exited " + child.exitCode() + ", expected "
          + expectedExit + " (" + (failpoint == null ? "a clean write" : "a halt at the failpoint") + "):\n"
          + child.output());
    }
    if (failpoint != null && !child.output().contains(Failpoints.HALT_MARKER + failpoint)) {
      return new CellResult("no marker", "child halted without the halt marker of " + failpoint + ":\n" + child.output());
    }
    String outcome;
    GraphModel state;
    try (Graph g = Omnigraph.open(uri, open)) {
      GraphModel actual = GraphModel.fromExport(KEYS, export(g));
      List<String> commits = commitIds(g);
      boolean oneMore = commits.size() == beforeCommits.size() + 1
          && commits.subList(1, commits.size()).equals(beforeCommits);
      List<io.omnigraph.api.RecoveryRecord> audit = g.recoveries();
      if (actual.equals(before) && commits.equals(beforeCommits) && audit.isEmpty()) {
        outcome = "before";
        state = before;
      } else if (actual.equals(before) && oneMore && audit.size() == 1 && audit.get(0).kind().equals("RolledBack")
          && audit.get(0).graphCommitId().equals(commits.get(0))
          && "omnigraph:recovery".equals(g.commits().get(0).actor())) {
        // A rollback publishes the restored heads as one commit by the recovery actor, and audits it.
        outcome = ROLLED_BACK;
        state = before;
      } else if (actual.equals(after) && oneMore && audit.size() <= 1) {
        outcome = audit.isEmpty() ? "after" : "after (" + audit.get(0).kind() + ")";
        if (!audit.isEmpty() && !(audit.get(0).kind().equals("RolledForward")
            && audit.get(0).graphCommitId().equals(commits.get(0)))) {
          return new CellResult("DIVERGED", "after state with an unexpected audit row " + audit.get(0));
        }
        state = after;
      } else {
        return new CellResult("DIVERGED", "reopened graph is neither before nor after: vs before [" + before.diff(actual)
            + "] vs after [" + after.diff(actual) + "], commits " + commits + " (before " + beforeCommits + ")");
      }
      String wanted = expectedOutcome(failpoint, hit);
      if (!outcome.equals(wanted)) {
        return new CellResult(outcome, "expected " + wanted + " (state and audit row), got " + outcome
            + "; audit " + audit);
      }
      List<String> sidecars = sidecars(uri, backend.options());
      if (!sidecars.isEmpty()) {
        return new CellResult(outcome + ", sidecars left", "sidecars left after reopen: " + sidecars);
      }
      // Nothing is wedged: the next write succeeds and lands exactly on the recovered state.
      String followUp = FOLLOW_UP;
      try {
        load(g, LoadMode.MERGE, followUp);
      } catch (RuntimeException e) {
        return new CellResult(outcome, "the next write failed: " + e);
      }
      GraphModel expected = state.copy().apply(LoadMode.MERGE, followUp);
      GraphModel now = GraphModel.fromExport(KEYS, export(g));
      if (!now.equals(expected)) {
        return new CellResult(outcome + ", next write diverged", "after the next write: " + expected.diff(now));
      }
    }
    return new CellResult(outcome, null);
  }

  /** Failpoints that some production call site passes (the rest cannot fire yet). */
  static Set<String> placedFailpoints() {
    return io.omnigraph.engine.failpoint.FailpointCallSites.placedNames();
  }

  static List<String> sidecars(String uri, Map<String, String> options) {
    try (StorageAdapter a = StorageAdapters.open(uri, options)) {
      return a.list("__recovery").toList();
    } catch (StorageException e) {
      throw new AssertionError("cannot list __recovery/ of " + uri, e);
    }
  }

  private Path write(String text) {
    try {
      Path p = Files.createTempFile(tmp, "input-", ".ndjson");
      Files.writeString(p, text);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void load(Graph g, LoadMode mode, String ndjson) {
    g.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults());
  }

  static String export(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  static List<String> commitIds(Graph g) {
    return g.commits().stream().map(CommitInfo::id).toList();
  }
}
