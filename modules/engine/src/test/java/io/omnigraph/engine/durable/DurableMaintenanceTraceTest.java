package io.omnigraph.engine.durable;

import static io.omnigraph.testkit.graph.PeopleGraph.PEOPLE;
import static io.omnigraph.testkit.graph.PeopleGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.engine.durable.DurableCommitTraceTest.Event;
import io.omnigraph.engine.durable.DurableCommitTraceTest.Kind;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local-disk durability of the writers besides load and mutation (docs/write-protocol.md,
 * "Durability"), proven on the file-system calls of real runs as in {@link DurableCommitTraceTest}:
 * a child JVM under {@code strace -f -y} creates a branch, writes on it (forking three tables),
 * writes on main, merges the branch into main and optimizes; a second child deletes the branch and
 * runs cleanup. From the traces this test checks:
 *
 * <ul>
 *   <li>every file the first child left under the root, new or replaced, was fsynced before the
 *       acknowledgement of the call that wrote it, and its directory after it appeared (the branch's
 *       contents record and cloned tree, the table forks' records, the merge's chains, the
 *       optimize's compacted and indexed versions and the compacted {@code __manifest});</li>
 *   <li>the merge syncs its committed chains before it confirms its sidecar (a confirmed sidecar is
 *       rolled forward onto them);</li>
 *   <li>optimize syncs each table's new versions before it writes the next table's files (its
 *       Armed sidecar is rolled forward onto whatever it finds);</li>
 *   <li>every removal of the second child (branch record and tree, table fork refs, cleanup) is made
 *       durable before its acknowledgement: the nearest directory still there was fsynced after it.</li>
 * </ul>
 */
class DurableMaintenanceTraceTest {
  @TempDir Path dir;

  @Test
  void branchMergeOptimizeAndRemovalsAreDurableBeforeTheAck() throws Exception {
    Path strace = Stream.of("/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace").map(Path::of)
        .filter(Files::isExecutable).findFirst().orElseThrow(() -> new AssertionError(
            "strace is not installed: this test needs it (apt-get install -y strace; .ci/run installs it)"));
    Path root = dir.toRealPath().resolve("g");
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      g.load(LoadMode.APPEND, new ByteArrayInputStream(PEOPLE.getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults());
    }
    List<String> problems = new ArrayList<>();

    // ---- phase 1: create, fork, write, merge, optimize
    Map<Path, Long> before = DurableCommitTraceTest.tree(root);
    List<Event> ev = trace(strace, root, "create");
    Map<Path, Long> after = DurableCommitTraceTest.tree(root);
    int[] acks = acks(ev, 5);
    int checked = 0;
    Map<Integer, Integer> syncs = syncsPerCall(ev, acks);
    for (Map.Entry<Path, Long> f : after.entrySet()) {
      Path file = f.getKey();
      if (f.getValue() < 0 || f.getValue().equals(before.get(file)) || exempt(file)) {
        continue;
      }
      int created = DurableCommitTraceTest.lastOf(ev, Kind.CREATE, file);
      int call = created < 0 ? 0 : callOf(created, acks);
      if (created < 0 || call == 0 || call >= acks.length) {
        problems.add(root.relativize(file) + " was not created by one of the five calls");
        continue;
      }
      checked++;
      if (!DurableCommitTraceTest.fileSynced(ev, file, created, acks[call])) {
        problems.add("call " + call + ": " + root.relativize(file) + " not fsynced before the ack");
      }
      if (DurableCommitTraceTest.syncOf(ev, file.getParent(), created, acks[call]) < 0) {
        problems.add("call " + call + ": directory " + root.relativize(file.getParent()) + " not fsynced after "
            + file.getFileName() + " appeared and before the ack");
      }
    }
    for (Map.Entry<Path, Long> d : after.entrySet()) {
      if (d.getValue() >= 0 || before.containsKey(d.getKey())) {
        continue;
      }
      int made = DurableCommitTraceTest.lastOf(ev, Kind.MKDIR, d.getKey());
      int call = made < 0 ? 0 : callOf(made, acks);
      if (call == 0 || call >= acks.length) {
        problems.add("new directory " + root.relativize(d.getKey()) + " without a mkdir in a call");
      } else if (DurableCommitTraceTest.syncOf(ev, d.getKey().getParent(), made, acks[call]) < 0) {
        problems.add("call " + call + ": parent of new directory " + root.relativize(d.getKey()) + " not fsynced");
      }
    }
    problems.addAll(mergeSyncsBeforeConfirm(ev, root, acks[3], acks[4]));
    problems.addAll(optimizeSyncsEachTableBeforeTheNext(ev, root, acks[4], acks[5], after.keySet()));
    assertThat(checked).as("files the five calls left").isGreaterThanOrEqualTo(20);

    // ---- phase 2: branch delete, cleanup
    List<Event> ev2 = trace(strace, root, "remove");
    int[] acks2 = acks(ev2, 2);
    Map<Integer, Integer> syncs2 = syncsPerCall(ev2, acks2);
    int removals = 0;
    for (int call = 1; call < acks2.length; call++) {
      int from = acks2[call - 1];
      Set<Path> removed = new HashSet<>();
      Set<Path> tempSources = new HashSet<>();
      for (int i = from; i < acks2[call]; i++) {
        Event e = ev2.get(i);
        if (e.kind() == Kind.UNLINK) {
          removed.add(e.path());
        } else if (e.kind() == Kind.CREATE && e.source() != null) {
          tempSources.add(e.source());
        }
      }
      for (int i = from; i < acks2[call]; i++) {
        Event e = ev2.get(i);
        if (e.kind() != Kind.UNLINK || !e.path().startsWith(root) || exempt(e.path())
            || tempSources.contains(e.path())) {
          continue;
        }
        removals++;
        Path kept = e.path().getParent();
        while (removed.contains(kept)) {
          kept = kept.getParent();
        }
        if (DurableCommitTraceTest.syncOf(ev2, kept, i, acks2[call]) < 0) {
          problems.add("removal call " + call + ": " + root.relativize(e.path()) + " removed, but "
              + root.relativize(kept) + " not fsynced after it and before the ack");
        }
      }
    }
    System.out.println("DurableMaintenanceTraceTest: sync calls per call " + syncs + " (branch create, branch"
        + " write, main write, merge, optimize), " + syncs2 + " (branch delete, cleanup); " + checked
        + " files and " + removals + " removals checked");
    assertThat(removals).as("removals of the branch delete").isGreaterThanOrEqualTo(3);
    assertThat(problems).isEmpty();
  }

  private List<Event> trace(Path strace, Path root, String phase) throws Exception {
    Path out = dir.resolve("trace-" + phase + ".txt");
    ChildJvm.Result r = ChildJvm.main(DurableMaintenanceChild.class, root.toString(), dir.toString(), phase)
        .wrappedIn(strace.toString(), "-f", "-y", "-qq", "-s", "4096", "-o", out.toString(),
            "-e", "trace=%file,fsync,fdatasync,sync_file_range,syncfs")
        .run(Duration.ofMinutes(4));
    assertThat(r.exitCode()).as(r.output()).isZero();
    // Kept for diagnosis: target/durable-maintenance-<phase>.trace
    Files.copy(out, Path.of("target", "durable-maintenance-" + phase + ".trace"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return DurableCommitTraceTest.parse(Files.readAllLines(out), root);
  }

  /** acks[0] = 0; acks[k] = the index of call k's acknowledgement. */
  private static int[] acks(List<Event> ev, int calls) {
    int[] acks = new int[calls + 1];
    for (int i = 0; i < ev.size(); i++) {
      if (ev.get(i).kind() == Kind.ACK && ev.get(i).ack() <= calls) {
        acks[ev.get(i).ack()] = i;
      }
    }
    for (int k = 1; k <= calls; k++) {
      assertThat(acks[k]).as("ack marker %d in the trace", k).isGreaterThan(acks[k - 1]);
    }
    return acks;
  }

  private static int callOf(int index, int[] acks) {
    for (int k = 1; k < acks.length; k++) {
      if (index < acks[k]) {
        return k;
      }
    }
    return acks.length;
  }

  private static Map<Integer, Integer> syncsPerCall(List<Event> ev, int[] acks) {
    Map<Integer, Integer> out = new TreeMap<>();
    for (int i = 0; i < ev.size(); i++) {
      if (ev.get(i).kind() == Kind.SYNC && callOf(i, acks) < acks.length) {
        out.merge(callOf(i, acks), 1, Integer::sum);
      }
    }
    return out;
  }

  /**
   * The lease, lock files and temp names (ours {@code name#digits}, Lance's {@code .tmp*}) are not
   * graph state; a published write's sidecar removal is not durable by design.
   */
  private static boolean exempt(Path p) {
    String name = p.getFileName().toString();
    return name.equals("__write_lease.json") || name.startsWith(".omnigraph-lock") || name.contains("#")
        || name.startsWith(".tmp")
        || (p.getParent() != null && p.getParent().getFileName().toString().equals("__recovery"));
  }

  /** The dataset directory ({@code nodes/<id>} or {@code edges/<id>}) of a table file, or null. */
  private static Path tableOf(Path root, Path p) {
    if (!p.startsWith(root) || p.equals(root)) {
      return null;
    }
    Path rel = root.relativize(p);
    String first = rel.getName(0).toString();
    if ((first.equals("nodes") || first.equals("edges")) && rel.getNameCount() >= 3) {
      return root.resolve(rel.subpath(0, 2));
    }
    return null;
  }

  /** Merge (events in [from, to)): every table file it synced is synced before the sidecar's confirming rename. */
  private static List<String> mergeSyncsBeforeConfirm(List<Event> ev, Path root, int from, int to) {
    Path recovery = root.resolve("__recovery");
    Path sidecar = null;
    int confirm = -1;
    for (int i = from; i < to; i++) {
      Event e = ev.get(i);
      if (e.kind() == Kind.CREATE && recovery.equals(e.path().getParent()) && e.path().toString().endsWith(".json")) {
        if (sidecar == null) {
          sidecar = e.path();
        } else if (e.path().equals(sidecar)) {
          confirm = i;
        }
      }
    }
    if (confirm < 0) {
      return List.of("merge: no armed and confirmed sidecar found (was the merge a fast-forward?)");
    }
    List<String> out = new ArrayList<>();
    int tableSyncs = 0;
    for (int i = from; i < to; i++) {
      Event e = ev.get(i);
      if (e.kind() == Kind.SYNC && tableOf(root, e.path()) != null && !Files.isDirectory(e.path())) {
        tableSyncs++;
        if (i > confirm) {
          out.add("merge: " + root.relativize(e.path()) + " synced after the sidecar was confirmed");
        }
      }
    }
    if (tableSyncs == 0) {
      out.add("merge: no table file synced at all");
    }
    return out;
  }

  /**
   * Optimize (events in [from, to)): the files it creates in one table and leaves behind are synced
   * before it creates a file in another table.
   */
  private static List<String> optimizeSyncsEachTableBeforeTheNext(List<Event> ev, Path root, int from, int to,
      Set<Path> left) {
    List<String> out = new ArrayList<>();
    Set<Path> tables = new HashSet<>();
    for (int i = from; i < to; i++) {
      Event e = ev.get(i);
      if (e.kind() != Kind.CREATE || exempt(e.path()) || !left.contains(e.path())) {
        continue; // a file the final versions do not reach (an index a later compaction replaced) needs no sync
      }
      Path table = tableOf(root, e.path());
      if (table == null) {
        continue;
      }
      tables.add(table);
      int next = -1;
      for (int j = i + 1; j < to && next < 0; j++) {
        Event n = ev.get(j);
        Path other = n.kind() == Kind.CREATE && !exempt(n.path()) ? tableOf(root, n.path()) : null;
        if (other != null && !other.equals(table)) {
          next = j;
        }
      }
      if (next >= 0 && !DurableCommitTraceTest.fileSynced(ev, e.path(), i, next)) {
        out.add("optimize: " + root.relativize(e.path()) + " not synced before the next table's first file "
            + root.relativize(ev.get(next).path()));
      }
    }
    if (tables.size() < 2) {
      out.add("optimize touched " + tables.size() + " table(s); this check needs at least two");
    }
    return out;
  }
}
