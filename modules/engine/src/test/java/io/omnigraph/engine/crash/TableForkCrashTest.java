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
 * Crash cells of a first-touch table fork under the sidecar-before-ref rule (docs/branches.md,
 * "Lazy table forks"; docs/failpoints.md, "Crash matrix"): a child JVM loads into branch {@code f},
 * whose {@code node:Person} table is still the parent's, and halts after arming its sidecar. The
 * seed's two logical crash shapes, on local disk and on the S3 emulator:
 *
 * <ul>
 *   <li>fork not done — halt at {@code mutation.post_sidecar_pre_fork}: the sidecar names the fork
 *       ({@code table_branch} f, {@code source_fork_version}), no ref, no tree;</li>
 *   <li>fork done — halt at {@code table_fork.post_native}: the sidecar and an exact, untouched ref
 *       ({@code ref}); and the same with the ref's contents record removed afterwards
 *       ({@code clone-only}), which is exactly what a kill inside Lance's branch create, between its
 *       clone of {@code tree/f} and its record write, leaves.</li>
 * </ul>
 *
 * At the halt the sidecar must already be on storage and name the fork (the ref never exists
 * without it). Each reopen (a full recovery sweep) must show {@code f} as before (no commit, no
 * audit row), no sidecar, and no ref record or tree of {@code f} left under the table — recovery
 * removes the untouched ref and reclaims the clone-only tree; then the same load, run again, lands.
 *
 * <p>Two cells per backend do the same for an overwrite load, whose batches wait in a spool file
 * while it prepares ({@code io.omnigraph.engine.load.OverwriteSpool}): halted at
 * {@code mutation.post_sidecar_pre_fork} (fork not done, the spool file the only other trace, in
 * its directory) and at {@code mutation.post_fork_pre_commit} (the fork made and the spool staged
 * onto it as uncommitted data files); the reopen must leave nothing under {@code tree/f}.
 *
 * <p>Two more cells per backend do the same for a merge of {@code s} into {@code t} whose
 * {@code node:Person} table is still main's: halted at {@code branch_merge.after_arm} (fork not done)
 * and at {@code table_fork.post_native} (fork done); the reopen must show {@code t} as before, no
 * sidecar, no ref or tree of {@code t}, and the merge, run again, lands.
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
  int spoolDirs;

  @Test
  void bothForkCrashShapesOnLocalDiskAreRecoveredFromTheSidecarThatNamesTheFork() {
    cells(new MergeCrashMatrixTest.Backend("local", () -> tmp.resolve("g" + (++graphs)).toString(), Map.of()));
  }

  @Test
  void bothForkCrashShapesOnTheS3EmulatorAreRecoveredFromTheSidecarThatNamesTheFork() {
    S3ProxyServer server = S3.server();
    cells(new MergeCrashMatrixTest.Backend("s3", () -> "s3://" + server.createBucket() + "/graphs/g",
        S3AdapterOptions.forEmulator(server.endpoint())));
  }

  private void cells(MergeCrashMatrixTest.Backend backend) {
    Map<String, String> matrix = new TreeMap<>();
    List<String> divergent = new ArrayList<>();
    matrix.put(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT + " (fork not done)",
        run(backend, LoadMode.MERGE, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT, false, "fork not done", divergent));
    for (boolean cloneOnly : List.of(false, true)) {
      String label = Failpoints.TABLE_FORK_POST_NATIVE + (cloneOnly ? " (clone-only)" : " (ref)");
      matrix.put(label, run(backend, LoadMode.MERGE, Failpoints.TABLE_FORK_POST_NATIVE, cloneOnly, label, divergent));
    }
    // An overwrite load spools its batches while it prepares and stages them onto the fork after arming.
    for (String f : List.of(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT, Failpoints.TABLE_COMMIT_BEFORE)) {
      String label = "overwrite: " + f + (f.equals(Failpoints.TABLE_COMMIT_BEFORE)
          ? " (fork done, spool staged on it)" : " (fork not done, spool written)");
      matrix.put(label, run(backend, LoadMode.OVERWRITE, f, false, label, divergent));
    }
    for (String f : List.of(Failpoints.MERGE_AFTER_ARM, Failpoints.TABLE_FORK_POST_NATIVE)) {
      String label = "merge s into t: " + f + (f.equals(Failpoints.MERGE_AFTER_ARM) ? " (fork not done)" : " (ref)");
      matrix.put(label, runMerge(backend, f, label, divergent));
    }
    StringBuilder b = new StringBuilder("table fork crash cells (" + backend.name() + "):\n");
    matrix.forEach((k, v) -> b.append("  ").append(k).append(" -> ").append(v).append('\n'));
    System.out.println(b);
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  private String run(MergeCrashMatrixTest.Backend backend, LoadMode mode, String failpoint, boolean cloneOnly,
      String label, List<String> divergent) {
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
    args.addAll(List.of("branch-load", "f", mode.name().toLowerCase(java.util.Locale.ROOT),
        CrashWrites.inputFile(tmp, INPUT).toString()));
    Path spools = tmp.resolve("spool-" + (++spoolDirs));
    try {
      java.nio.file.Files.createDirectories(spools);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    ChildJvm.Result child;
    try (ChildJvm.Running r = CrashWriter.child(Map.of(Failpoints.SYSTEM_PROPERTY, failpoint + "=halt@1",
        io.omnigraph.engine.load.OverwriteSpool.DIR_PROPERTY, spools.toString()), args)
        .startLogged(tmp.resolve("children"))) {
      child = r.await(5, java.util.concurrent.TimeUnit.MINUTES);
    }
    if (child.exitCode() != Failpoints.HALT_STATUS
        || !child.output().contains(Failpoints.HALT_MARKER + failpoint)) {
      divergent.add(label + ": child exited " + child.exitCode() + ":\n" + child.output());
      return "exit " + child.exitCode();
    }
    // Sidecar-before-ref: whatever the halt left, the armed sidecar names the fork.
    List<String> armed = CrashWrites.sidecars(uri, backend.options());
    String body = armed.size() == 1 ? read(uri, backend.options(), armed.get(0)) : "";
    if (!body.contains("\"source_fork_version\"") || !body.contains("\"table_branch\" : \"f\"")) {
      divergent.add(label + ": at the halt the sidecar does not name the fork of f: " + armed + " " + body);
    }
    boolean forked = refRecords(uri, backend.options(), tablePath, "f") == 1;
    if (forked != !failpoint.equals(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT)) {
      divergent.add(label + ": at the halt the ref f is " + (forked ? "" : "not ") + "there");
    }
    // A halted process cannot remove its spool: the file is in the spool directory, nowhere else.
    int spooled = spools.toFile().list().length;
    if (spooled != (mode == LoadMode.OVERWRITE && failpoint.equals(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT) ? 1 : 0)) {
      divergent.add(label + ": at the halt the spool directory holds " + spooled + " file(s)");
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
      // Recovery removed the untouched ref and reclaimed the clone-only tree: nothing of f is left.
      int records = refRecords(uri, backend.options(), tablePath, "f");
      int tree = treeFiles(uri, backend.options(), tablePath, "f");
      if (records != 0 || tree != 0) {
        divergent.add(label + ": after recovery the table still has " + records + " ref record(s) and " + tree
            + " tree version file(s) of f");
      }
      // Everything under tree/f is gone, the staged data files of an overwrite included.
      int left = 0;
      for (String sub : List.of("data", "_versions", "_transactions")) {
        left += list(uri, backend.options(), tablePath.replaceAll("/+$", "") + "/tree/f/" + sub).size();
      }
      if (left != 0) {
        divergent.add(label + ": after recovery " + left + " file(s) are left under tree/f");
      }
      try {
        MergeCrashMatrixTest.load(g, "f", mode, INPUT);
      } catch (RuntimeException e) {
        divergent.add(label + ": the next write on f failed: " + e);
        return "before, next write failed";
      }
      String after = export(g, "f");
      if (!after.contains("\"c\"") || !after.contains("20") || commits(g, "f").size() != beforeCommits.size() + 1
          || (mode == LoadMode.OVERWRITE) == after.contains("\"a\"")) {
        divergent.add(label + ": the next write on f did not land: " + after);
      }
      return "before, no sidecar, no ref or tree of f; next write lands";
    }
  }

  /**
   * A merge of {@code s} into {@code t}, whose Person table is still main's (t has a commit of its own
   * on Knows), halted after its BranchMerge sidecar is armed: before the fork
   * ({@code branch_merge.after_arm}) or right after it ({@code table_fork.post_native}).
   */
  private String runMerge(MergeCrashMatrixTest.Backend backend, String failpoint, String label,
      List<String> divergent) {
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
      g.createBranch("s", null);
      g.createBranch("t", null);
      MergeCrashMatrixTest.load(g, "s", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"c\"}}\n");
      MergeCrashMatrixTest.load(g, "t", LoadMode.MERGE,
          "{\"edge\":\"Knows\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"id\":\"k1\"}}\n");
      before = export(g, "t");
      beforeCommits = commits(g, "t");
      tablePath = io.omnigraph.engine.TestSeams.tablePath(g, "node:Person");
    }
    List<String> args = new ArrayList<>(List.of(uri));
    backend.options().forEach((k, v) -> {
      args.add("--option");
      args.add(k + "=" + v);
    });
    args.addAll(List.of("merge-into", "s", "t"));
    ChildJvm.Result child;
    try (ChildJvm.Running r = CrashWriter.child(Map.of(Failpoints.SYSTEM_PROPERTY, failpoint + "=halt@1"), args)
        .startLogged(tmp.resolve("children"))) {
      child = r.await(5, java.util.concurrent.TimeUnit.MINUTES);
    }
    if (child.exitCode() != Failpoints.HALT_STATUS || !child.output().contains(Failpoints.HALT_MARKER + failpoint)) {
      divergent.add(label + ": child exited " + child.exitCode() + ":\n" + child.output());
      return "exit " + child.exitCode();
    }
    List<String> armed = CrashWrites.sidecars(uri, backend.options());
    String body = armed.size() == 1 ? read(uri, backend.options(), armed.get(0)) : "";
    if (!body.contains("\"source_fork_version\"") || !body.contains("\"table_branch\" : \"t\"")) {
      divergent.add(label + ": at the halt the sidecar does not name the fork of t: " + armed + " " + body);
    }
    boolean forked = refRecords(uri, backend.options(), tablePath, "t") == 1;
    if (forked != failpoint.equals(Failpoints.TABLE_FORK_POST_NATIVE)) {
      divergent.add(label + ": at the halt the ref t is " + (forked ? "" : "not ") + "there");
    }
    try (Graph g = Omnigraph.open(uri, open)) {
      if (!export(g, "t").equals(before) || !commits(g, "t").equals(beforeCommits) || !g.recoveries().isEmpty()) {
        divergent.add(label + ": t is not as before: " + export(g, "t") + " commits " + commits(g, "t"));
        return "DIVERGED";
      }
      List<String> sidecars = CrashWrites.sidecars(uri, backend.options());
      int records = refRecords(uri, backend.options(), tablePath, "t");
      int tree = treeFiles(uri, backend.options(), tablePath, "t");
      if (!sidecars.isEmpty() || records != 0 || tree != 0) {
        divergent.add(label + ": after recovery: sidecars " + sidecars + ", " + records + " ref record(s), " + tree
            + " tree version file(s) of t");
      }
      try {
        g.merge("s", "t", io.omnigraph.api.MergeOptions.defaults());
      } catch (RuntimeException e) {
        divergent.add(label + ": the merge again failed: " + e);
        return "before, merge again failed";
      }
      if (!export(g, "t").contains("\"c\"")) {
        divergent.add(label + ": the merge again did not land: " + export(g, "t"));
      }
      return "before, no sidecar, no ref or tree of t; the merge again lands";
    }
  }

  /** @return the number of contents records of ref {@code name} of the table at {@code tablePath} */
  static int refRecords(String uri, Map<String, String> options, String tablePath, String name) {
    return (int) list(uri, options, tablePath.replaceAll("/+$", "") + "/_refs/branches").stream()
        .filter(p -> p.substring(p.lastIndexOf('/') + 1).equals(name + ".json")).count();
  }

  /** @return the number of version files of the tree {@code tree/<name>} of the table at {@code tablePath} */
  static int treeFiles(String uri, Map<String, String> options, String tablePath, String name) {
    return list(uri, options, tablePath.replaceAll("/+$", "") + "/tree/" + name + "/_versions").size();
  }

  private static List<String> list(String uri, Map<String, String> options, String dir) {
    try (StorageAdapter a = StorageAdapters.open(uri, options)) {
      return a.list(dir).toList();
    } catch (StorageException e) {
      throw new AssertionError("cannot list " + dir, e);
    }
  }

  private static String read(String uri, Map<String, String> options, String path) {
    try (StorageAdapter a = StorageAdapters.open(uri, options)) {
      return a.readIfExists(path).map(io.omnigraph.api.storage.StoredObject::text).orElse("");
    } catch (StorageException e) {
      throw new AssertionError("cannot read " + path, e);
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
