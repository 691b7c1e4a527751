package io.omnigraph.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.jvm.ChildJvm;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
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
 * Crash cells of a lazy table fork (docs/branches.md, "Lazy table forks"; docs/failpoints.md,
 * "Crash matrix"): a child JVM loads into branch {@code f}, whose {@code node:Person} table is still
 * the parent's, and halts at {@code table_fork.post_native} — the table's native ref exists, nothing
 * staged on it or published. Two shapes, on local disk and on the S3 emulator:
 *
 * <ul>
 *   <li>{@code ref}: as the kill left it (an exact, untouched fork);</li>
 *   <li>{@code clone-only}: the ref's contents record removed afterwards, which is exactly what a
 *       kill inside Lance's branch create, between its clone of {@code tree/f} and its record write,
 *       leaves (the shape the branch kill loop hit).</li>
 * </ul>
 *
 * Each reopen must show {@code f} as before (no commit, no sidecar), and the same load, run again,
 * must succeed and give the after state: the next fork adopts the exact ref and reclaims the
 * clone-only tree.
 */
class TableForkCrashTest {
  static final String SCHEMA = MergeCrashMatrixTest.SCHEMA;
  static final String INPUT = """
      {"type":"Person","data":{"name":"b","age":20}}
      {"type":"Person","data":{"name":"c"}}
      """;

  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @TempDir Path tmp;
  int graphs;

  @Test
  void aForkInterruptedOnLocalDiskIsAdoptedOrReclaimedByTheNextFork() {
    cells(new MergeCrashMatrixTest.Backend("local", () -> tmp.resolve("g" + (++graphs)).toString(), Map.of()));
  }

  @Test
  void aForkInterruptedOnTheS3EmulatorIsAdoptedOrReclaimedByTheNextFork() {
    S3ProxyServer server = S3.server();
    cells(new MergeCrashMatrixTest.Backend("s3", () -> "s3://" + server.createBucket() + "/graphs/g",
        S3AdapterOptions.forEmulator(server.endpoint())));
  }

  private void cells(MergeCrashMatrixTest.Backend backend) {
    Map<String, String> matrix = new TreeMap<>();
    List<String> divergent = new ArrayList<>();
    for (boolean cloneOnly : List.of(false, true)) {
      String label = Failpoints.TABLE_FORK_POST_NATIVE + (cloneOnly ? " (clone-only)" : " (ref)");
      matrix.put(label, run(backend, cloneOnly, label, divergent));
    }
    StringBuilder b = new StringBuilder("table fork crash cells (" + backend.name() + "):\n");
    matrix.forEach((k, v) -> b.append("  ").append(k).append(" -> ").append(v).append('\n'));
    System.out.println(b);
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  private String run(MergeCrashMatrixTest.Backend backend, boolean cloneOnly, String label, List<String> divergent) {
    String uri = backend.freshUri().get();
    OpenOptions open = new OpenOptions(backend.options());
    String before;
    List<String> beforeCommits;
    String tablePath;
    try (Graph g = Omnigraph.init(uri, SCHEMA, open)) {
      MergeCrashMatrixTest.load(g, "main", LoadMode.MERGE, """
          {"type":"Person","data":{"name":"a","age":1}}
          {"type":"Person","data":{"name":"b","age":2}}
          """);
      g.createBranch("f", null);
      before = export(g, "f");
      beforeCommits = commits(g, "f");
      tablePath = io.omnigraph.engine.TestSeams.tablePath(g, "node:Person");
    }
    List<String> args = new ArrayList<>(List.of(uri));
    backend.options().forEach((k, v) -> {
      args.add("--option");
      args.add(k + "=" + v);
    });
    args.addAll(List.of("branch-load", "f", "merge", CrashWrites.inputFile(tmp, INPUT).toString()));
    ChildJvm.Result child;
    try (ChildJvm.Running r = CrashWriter.child(Map.of(Failpoints.SYSTEM_PROPERTY,
        Failpoints.TABLE_FORK_POST_NATIVE + "=halt@1"), args).startLogged(tmp.resolve("children"))) {
      child = r.await(5, java.util.concurrent.TimeUnit.MINUTES);
    }
    if (child.exitCode() != Failpoints.HALT_STATUS
        || !child.output().contains(Failpoints.HALT_MARKER + Failpoints.TABLE_FORK_POST_NATIVE)) {
      divergent.add(label + ": child exited " + child.exitCode() + ":\n" + child.output());
      return "exit " + child.exitCode();
    }
    if (cloneOnly) {
      int removed = removeRefRecord(uri, backend.options(), tablePath, "f");
      if (removed != 1) {
        divergent.add(label + ": expected one contents record of ref f under " + tablePath + ", removed " + removed);
        return "no record";
      }
    }
    try (Graph g = Omnigraph.open(uri, open)) {
      if (!export(g, "f").equals(before) || !commits(g, "f").equals(beforeCommits) || !g.recoveries().isEmpty()) {
        divergent.add(label + ": f is not as before: " + export(g, "f") + " commits " + commits(g, "f"));
        return "DIVERGED";
      }
      List<String> sidecars = CrashWrites.sidecars(uri, backend.options());
      if (!sidecars.isEmpty()) {
        divergent.add(label + ": sidecars left " + sidecars);
      }
      try {
        MergeCrashMatrixTest.load(g, "f", LoadMode.MERGE, INPUT);
      } catch (RuntimeException e) {
        divergent.add(label + ": the next write on f failed: " + e);
        return "before, next write failed";
      }
      String after = export(g, "f");
      if (!after.contains("\"c\"") || !after.contains("20") || commits(g, "f").size() != beforeCommits.size() + 1) {
        divergent.add(label + ": the next write on f did not land: " + after);
      }
      return "before; next write adopts/reclaims and lands";
    }
  }

  /** Deletes the contents record of ref {@code name} of the table at {@code tablePath}: Lance keeps it under {@code _refs/branches/}. */
  static int removeRefRecord(String uri, Map<String, String> options, String tablePath, String name) {
    String dir = tablePath.replaceAll("/+$", "") + "/_refs/branches";
    int removed = 0;
    try (StorageAdapter a = StorageAdapters.open(uri, options)) {
      for (String p : a.list(dir).toList()) {
        String file = p.substring(p.lastIndexOf('/') + 1);
        if (file.equals(name + ".json")) {
          a.delete(p);
          removed++;
        }
      }
    } catch (StorageException e) {
      throw new AssertionError("cannot remove the ref record under " + dir, e);
    }
    return removed;
  }

  static String export(Graph g, String branch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out, branch);
    return out.toString(StandardCharsets.UTF_8);
  }

  static List<String> commits(Graph g, String branch) {
    return g.commits(branch).stream().map(io.omnigraph.api.CommitInfo::id).toList();
  }
}
