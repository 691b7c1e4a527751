package io.omnigraph.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.jvm.ChildJvm;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash matrix of a branch merge on local disk (docs/failpoints.md, "Crash matrix"): a child
 * JVM merges branch {@code f} into {@code main} — a chain of four chunks on {@code node:Person} and
 * one on {@code edge:Knows} (chunks capped at 2 rows) — and halts at one failpoint; the test
 * reopens (the open-time sweep runs) and requires exactly the before or the after state, the
 * expected audit row, no sidecar left, and a working next write. Recovery cells crash the sweep
 * itself once more before the final open.
 *
 * <p>The merge takes both routes: {@code node:Person} the ordered route (an update and new rows;
 * {@code main} changed the table after the fork) in four chunks, {@code edge:Knows} the
 * proven-insert route (all-new on {@code f}, untouched on {@code main}) in the fifth — so
 * {@code after_chunk_commit#5} is a crash right after the proven chunk. Runs on local disk (every
 * cell) and on the S3 emulator (the cells in {@link #S3_CELLS}; every cell with
 * {@value #S3_ALL_PROPERTY}{@code =true}).
 */
class MergeCrashMatrixTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      edge Knows: Person -> Person
      """;

  static final String BEFORE = "before";
  static final String ROLLED_BACK = "before (RolledBack)";
  static final String AFTER = "after";
  static final String ROLLED_FORWARD = "after (RolledForward)";

  static final String S3_ALL_PROPERTY = "omnigraph.mergecrash.s3.all";

  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @TempDir Path tmp;
  int graphs;

  /** Where a cell's graph lives. */
  record Backend(String name, java.util.function.Supplier<String> freshUri, Map<String, String> options) {}

  record Cell(String failpoint, int hit, String recoveryFailpoint, String expected) {
    String label() {
      return (failpoint == null ? "(no failpoint)" : failpoint + (hit > 1 ? "#" + hit : ""))
          + (recoveryFailpoint == null ? "" : " then recovery @ " + recoveryFailpoint);
    }
  }

  static final List<Cell> CELLS = List.of(
      new Cell(null, 0, null, AFTER),
      new Cell(Failpoints.MERGE_BEFORE_ARM, 1, null, BEFORE),
      new Cell(Failpoints.SIDECAR_WRITE, 1, null, BEFORE),
      new Cell(Failpoints.MERGE_AFTER_ARM, 1, null, BEFORE),
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 1, null, ROLLED_BACK),
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 3, null, ROLLED_BACK),
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 5, null, ROLLED_BACK),
      new Cell(Failpoints.SIDECAR_CONFIRM, 1, null, ROLLED_BACK),
      new Cell(Failpoints.MERGE_AFTER_CONFIRM, 1, null, ROLLED_FORWARD),
      new Cell(Failpoints.MERGE_BEFORE_PUBLISH, 1, null, ROLLED_FORWARD),
      new Cell(Failpoints.PUBLISH_BEFORE, 1, null, ROLLED_FORWARD),
      new Cell(Failpoints.PUBLISH_AFTER, 1, null, ROLLED_FORWARD),
      new Cell(Failpoints.MERGE_AFTER_PUBLISH, 1, null, ROLLED_FORWARD),
      new Cell(Failpoints.SIDECAR_DELETE, 1, null, ROLLED_FORWARD),
      // during recovery: a compensation that died after its restore (recognised, never restored twice)
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 3, Failpoints.MERGE_RECOVERY_AFTER_RESTORE, ROLLED_BACK),
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 5, Failpoints.RECOVERY_POST_RESTORE_PRE_PUBLISH, ROLLED_BACK),
      new Cell(Failpoints.MERGE_AFTER_CONFIRM, 1, Failpoints.RECOVERY_BEFORE_ROLL_FORWARD_PUBLISH, ROLLED_FORWARD),
      new Cell(Failpoints.MERGE_AFTER_CONFIRM, 1, Failpoints.AUDIT_APPEND, ROLLED_FORWARD),
      // after the chain's second and fourth chunk too, so every chunk commit of the chain is a cell
      // (kept last: S3_CELLS picks cells by index)
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 2, null, ROLLED_BACK),
      new Cell(Failpoints.MERGE_AFTER_CHUNK_COMMIT, 4, null, ROLLED_BACK));

  /**
   * The S3 emulator's default cells (each a child JVM against s3proxy, ~10 s on a quiet machine):
   * the clean run, a crash after the ordered route's first chunk and after the proven-insert chunk
   * (rolled back), after confirm and at publish (rolled forward), and a crash of the recovery
   * itself each way. Every cell with {@value #S3_ALL_PROPERTY}{@code =true}.
   */
  static final List<Cell> S3_CELLS = List.of(CELLS.get(0), CELLS.get(4), CELLS.get(6), CELLS.get(8), CELLS.get(10),
      CELLS.get(14), CELLS.get(16));

  @Test
  void everyMergeFailpointOnLocalDiskLeavesTheBeforeOrTheAfterState() {
    matrix(new Backend("local", () -> tmp.resolve("g" + (++graphs)).toString(), Map.of()), CELLS);
  }

  @Test
  void mergeFailpointsOnTheS3EmulatorLeaveTheBeforeOrTheAfterState() {
    S3ProxyServer server = S3.server();
    Map<String, String> options = S3AdapterOptions.forEmulator(server.endpoint());
    matrix(new Backend("s3", () -> "s3://" + server.createBucket() + "/graphs/g", options),
        Boolean.getBoolean(S3_ALL_PROPERTY) ? CELLS : S3_CELLS);
  }

  private void matrix(Backend backend, List<Cell> cells) {
    Map<String, String> matrix = new TreeMap<>();
    List<String> divergent = new ArrayList<>();
    for (Cell c : cells) {
      String got = run(backend, c, divergent);
      matrix.put(c.label(), got);
    }
    StringBuilder b = new StringBuilder("merge crash matrix (" + backend.name() + "):\n");
    matrix.forEach((k, v) -> b.append("  ").append(k).append(" -> ").append(v).append('\n'));
    System.out.println(b);
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  static void load(Graph g, String branch, LoadMode mode, String ndjson) {
    g.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withBranch(branch));
  }

  static String export(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Exports with unkeyed edge ids blanked (a merge keeps ids, so they are compared too; kept for clarity). */
  private String run(Backend backend, Cell c, List<String> divergent) {
    String uri = backend.freshUri().get();
    OpenOptions open = new OpenOptions(backend.options());
    String before;
    List<String> beforeCommits;
    try (Graph g = Omnigraph.init(uri, SCHEMA, open)) {
      load(g, "main", LoadMode.MERGE, """
          {"type":"Person","data":{"name":"a","age":1}}
          {"type":"Person","data":{"name":"b","age":2}}
          """);
      g.createBranch("f", null);
      load(g, "f", LoadMode.MERGE, """
          {"type":"Person","data":{"name":"b","age":20}}
          {"type":"Person","data":{"name":"c"}}
          {"type":"Person","data":{"name":"d"}}
          {"type":"Person","data":{"name":"e"}}
          {"type":"Person","data":{"name":"g"}}
          {"type":"Person","data":{"name":"h"}}
          {"edge":"Knows","from":"a","to":"c","data":{"id":"k1"}}
          """);
      load(g, "main", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"m\"}}\n");
      before = export(g);
      beforeCommits = g.commits().stream().map(io.omnigraph.api.CommitInfo::id).toList();
    }
    List<String> args = new ArrayList<>(List.of(uri));
    backend.options().forEach((k, v) -> {
      args.add("--option");
      args.add(k + "=" + v);
    });
    args.addAll(List.of("merge", "f"));
    Map<String, String> props = new TreeMap<>(Map.of("omnigraph.merge.chunk_rows", "2"));
    if (c.failpoint() != null) {
      props.put(Failpoints.SYSTEM_PROPERTY, c.failpoint() + "=halt@" + c.hit());
    }
    ChildJvm.Result child;
    try (ChildJvm.Running r = CrashWriter.child(props, args).startLogged(tmp.resolve("children"))) {
      child = r.await(5, java.util.concurrent.TimeUnit.MINUTES);
    }
    int wantExit = c.failpoint() == null ? 0 : Failpoints.HALT_STATUS;
    if (child.exitCode() != wantExit || (c.failpoint() != null
        && !child.output().contains(Failpoints.HALT_MARKER + c.failpoint()))) {
      divergent.add(c.label() + ": child exited " + child.exitCode() + ":\n" + child.output());
      return "exit " + child.exitCode();
    }
    if (c.recoveryFailpoint() != null) {
      ChildJvm.Result rec = CrashWriter.child(Map.of(Failpoints.SYSTEM_PROPERTY, c.recoveryFailpoint() + "=halt@1"),
          recoveryArgs(uri, backend)).runLogged(tmp.resolve("children"));
      if (rec.exitCode() != Failpoints.HALT_STATUS) {
        divergent.add(c.label() + ": the recovering open did not halt (" + rec.exitCode() + "):\n" + rec.output());
        return "recovery not halted";
      }
    }
    String after = afterState(before);
    try (Graph g = Omnigraph.open(uri, open)) {
      String now = export(g);
      List<io.omnigraph.api.CommitInfo> commits = g.commits();
      List<String> ids = commits.stream().map(io.omnigraph.api.CommitInfo::id).toList();
      boolean oneMore = ids.size() == beforeCommits.size() + 1 && ids.subList(1, ids.size()).equals(beforeCommits);
      List<RecoveryRecord> audit = g.recoveries();
      String outcome;
      if (now.equals(before) && ids.equals(beforeCommits) && audit.isEmpty()) {
        outcome = BEFORE;
      } else if (now.equals(before) && oneMore && audit.size() == 1 && audit.get(0).kind().equals("RolledBack")
          && audit.get(0).writerKind().equals("BranchMerge") && audit.get(0).graphCommitId().equals(ids.get(0))
          && "omnigraph:recovery".equals(commits.get(0).actor())) {
        outcome = ROLLED_BACK;
      } else if (now.equals(after) && oneMore && commits.get(0).parents().size() == 2 && audit.size() <= 1
          && (audit.isEmpty() || (audit.get(0).kind().equals("RolledForward")
              && audit.get(0).graphCommitId().equals(ids.get(0))))) {
        outcome = audit.isEmpty() ? AFTER : ROLLED_FORWARD;
      } else {
        divergent.add(c.label() + ": neither before nor after: " + now + " commits " + ids + " audit " + audit);
        return "DIVERGED";
      }
      if (!outcome.equals(c.expected())) {
        divergent.add(c.label() + ": expected " + c.expected() + ", got " + outcome + "; audit " + audit);
      }
      List<String> sidecars = CrashWrites.sidecars(uri, backend.options());
      if (!sidecars.isEmpty()) {
        divergent.add(c.label() + ": sidecars left " + sidecars);
      }
      try {
        load(g, "main", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"z\"}}\n"
            + "{\"edge\":\"Knows\",\"from\":\"a\",\"to\":\"z\",\"data\":{\"id\":\"kz\"}}\n");
      } catch (RuntimeException e) {
        divergent.add(c.label() + ": the next write failed: " + e);
      }
      return outcome;
    }
  }

  private static List<String> recoveryArgs(String uri, Backend backend) {
    List<String> args = new ArrayList<>(List.of(uri));
    backend.options().forEach((k, v) -> {
      args.add("--option");
      args.add(k + "=" + v);
    });
    args.add("open");
    return args;
  }

  private String expectedAfter;

  /** The state a clean merge leaves: computed once, in this JVM, on a graph built the same way. */
  private String afterState(String before) {
    if (expectedAfter == null) {
      String uri = tmp.resolve("reference").toString();
      try (Graph g = Omnigraph.init(uri, SCHEMA)) {
        load(g, "main", LoadMode.MERGE, before);
        load(g, "main", LoadMode.MERGE, """
            {"type":"Person","data":{"name":"b","age":20}}
            {"type":"Person","data":{"name":"c"}}
            {"type":"Person","data":{"name":"d"}}
            {"type":"Person","data":{"name":"e"}}
            {"type":"Person","data":{"name":"g"}}
            {"type":"Person","data":{"name":"h"}}
            {"edge":"Knows","from":"a","to":"c","data":{"id":"k1"}}
            """);
        expectedAfter = export(g);
      }
    }
    return expectedAfter;
  }
}
