package io.omnigraph.engine.durable;

import static io.omnigraph.testkit.graph.PeopleGraph.PEOPLE;
import static io.omnigraph.testkit.graph.PeopleGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local-disk durability (docs/write-protocol.md, "Durability"), proven on the real file-system
 * calls of real writes: a child JVM runs three writes (a 1-row insert, a merge load that updates a
 * row, a delete) under {@code strace -f -y}, and after each write call returns it stats a marker
 * path (the acknowledgement). From the trace this test checks, for every file that the writes left
 * under the graph root (new, or replaced, such as Lance's version hint) and every directory they
 * created:
 *
 * <ul>
 *   <li>the file was fsynced (under its final name, or under the temp name it was renamed or linked
 *       from) before the acknowledgement of the write that created it;</li>
 *   <li>the directory holding it was fsynced after the file appeared in it and before that
 *       acknowledgement; a new directory's parent likewise;</li>
 *   <li>the recovery order: the sidecar (file and {@code __recovery/}) is durable before the first
 *       table manifest is linked; every table file of the write is synced before the sidecar is
 *       confirmed; the {@code __manifest} version is synced before the sidecar is removed.</li>
 * </ul>
 *
 * <p>The write lease and lock files are exempt (exclusion between live processes; nothing after a
 * power failure depends on them). strace must be installed ({@code .ci/run} installs it): this test
 * fails rather than skips without it.
 */
class DurableCommitTraceTest {
  @TempDir Path dir;

  @Test
  void everyFileAndDirectoryOfACommitIsSyncedBeforeTheAck() throws Exception {
    Path strace = Stream.of("/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace").map(Path::of)
        .filter(Files::isExecutable).findFirst().orElseThrow(() -> new AssertionError(
            "strace is not installed: this test needs it (apt-get install -y strace; .ci/run installs it)"));
    Path root = dir.toRealPath().resolve("g");
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      g.load(LoadMode.APPEND, new ByteArrayInputStream(PEOPLE.getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults());
    }
    Map<Path, Long> before = tree(root);
    Path trace = dir.resolve("trace.txt");
    ChildJvm.Result r = ChildJvm.main(DurableWriteChild.class, root.toString(), dir.toString())
        .wrappedIn(strace.toString(), "-f", "-y", "-qq", "-s", "4096", "-o", trace.toString(),
            "-e", "trace=%file,fsync,fdatasync,sync_file_range,syncfs")
        .run(Duration.ofMinutes(4));
    assertThat(r.exitCode()).as(r.output()).isZero();
    Map<Path, Long> after = tree(root);
    List<Event> events = parse(Files.readAllLines(trace), root);
    int[] acks = new int[4];
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (e.kind == Kind.ACK) {
        acks[e.ack] = i;
      }
    }
    for (int k = 1; k <= 3; k++) {
      assertThat(acks[k]).as("ack marker %d in the trace", k).isPositive();
    }
    List<String> problems = new ArrayList<>();
    Map<Integer, Integer> syncsPerWrite = new TreeMap<>();
    Map<Integer, Map<String, Integer>> byClass = new TreeMap<>();
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).kind == Kind.SYNC) {
        syncsPerWrite.merge(writeOf(i, acks), 1, Integer::sum);
        byClass.computeIfAbsent(writeOf(i, acks), k -> new TreeMap<>()).merge(syncClass(root, events.get(i).path), 1,
            Integer::sum);
      }
    }
    int checkedFiles = 0;
    for (Map.Entry<Path, Long> f : after.entrySet()) {
      Path file = f.getKey();
      if (f.getValue() < 0) {
        continue; // directories below
      }
      if (f.getValue().equals(before.get(file)) || exempt(root, file)) {
        continue;
      }
      int created = lastCreation(events, file);
      if (created < 0) {
        problems.add("no creation of " + root.relativize(file) + " in the trace");
        continue;
      }
      int write = writeOf(created, acks);
      if (write == 0 || write > 3) {
        problems.add(root.relativize(file) + " was created outside the three writes");
        continue;
      }
      checkedFiles++;
      int ack = acks[write];
      if (!fileSynced(events, file, created, ack)) {
        problems.add("write " + write + ": " + root.relativize(file) + " not fsynced before the ack");
      }
      if (syncOf(events, file.getParent(), created, ack) < 0) {
        problems.add("write " + write + ": directory " + root.relativize(file.getParent()) + " not fsynced after "
            + file.getFileName() + " appeared and before the ack");
      }
    }
    for (Map.Entry<Path, Long> d : after.entrySet()) {
      if (d.getValue() >= 0 || before.containsKey(d.getKey())) {
        continue;
      }
      int made = lastOf(events, Kind.MKDIR, d.getKey());
      int write = made < 0 ? 0 : writeOf(made, acks);
      if (made < 0 || write == 0 || write > 3) {
        problems.add("new directory " + root.relativize(d.getKey()) + " without a mkdir in a write");
        continue;
      }
      if (syncOf(events, d.getKey().getParent(), made, acks[write]) < 0) {
        problems.add("write " + write + ": parent of new directory " + root.relativize(d.getKey()) + " not fsynced");
      }
    }
    for (int k = 1; k <= 3; k++) {
      problems.addAll(protocolOrder(events, root, k == 1 ? 0 : acks[k - 1], acks[k], k));
    }
    System.out.println("DurableCommitTraceTest: sync calls per write " + syncsPerWrite + ", by what they sync "
        + byClass + ", " + checkedFiles + " files checked");
    assertThat(checkedFiles).as("files the three writes left").isGreaterThanOrEqualTo(12);
    assertThat(problems).isEmpty();
  }

  /** The recovery order within write k (events in [from, to)). */
  private static List<String> protocolOrder(List<Event> ev, Path root, int from, int to, int k) {
    List<String> out = new ArrayList<>();
    Path recovery = root.resolve("__recovery");
    Path manifestDir = root.resolve("__manifest");
    int arm = -1;
    int confirm = -1;
    int retire = -1;
    Path sidecar = null;
    for (int i = from; i < to; i++) {
      Event e = ev.get(i);
      if ((e.kind == Kind.CREATE) && e.path.getParent().equals(recovery) && e.path.toString().endsWith(".json")) {
        if (arm < 0) {
          arm = i;
          sidecar = e.path;
        } else if (e.path.equals(sidecar)) {
          confirm = i;
        }
      }
      if (e.kind == Kind.UNLINK && e.path.equals(sidecar)) {
        retire = i;
      }
    }
    if (arm < 0 || confirm < 0 || retire < 0) {
      out.add("write " + k + ": sidecar arm/confirm/retire not all found (" + arm + "," + confirm + "," + retire + ")");
      return out;
    }
    int recoveryDirSync = syncOf(ev, recovery, arm, to);
    int firstTableManifest = -1;
    int lastTableSync = -1;
    int manifestVersion = -1;
    for (int i = from; i < to; i++) {
      Event e = ev.get(i);
      boolean inManifest = e.path != null && e.path.startsWith(manifestDir);
      boolean inTable = e.path != null && !inManifest && !e.path.startsWith(recovery) && !e.path.equals(root)
          && e.path.startsWith(root) && !e.path.getFileName().toString().startsWith("__write_lease");
      if (e.kind == Kind.CREATE && inTable && e.path.toString().endsWith(".manifest") && firstTableManifest < 0) {
        firstTableManifest = i;
      }
      if (e.kind == Kind.SYNC && inTable && i > arm && i < retire && !e.path.getParent().equals(root)) {
        lastTableSync = Math.max(lastTableSync, i);
      }
      if (e.kind == Kind.CREATE && inManifest && e.path.toString().endsWith(".manifest")) {
        manifestVersion = i;
      }
    }
    if (recoveryDirSync < 0 || firstTableManifest < 0 || recoveryDirSync > firstTableManifest) {
      out.add("write " + k + ": the sidecar is not durable before the first table commit");
    }
    if (lastTableSync < 0 || lastTableSync > confirm) {
      out.add("write " + k + ": table files synced after the sidecar was confirmed (" + lastTableSync + " > " + confirm + ")");
    }
    Path published = manifestVersion < 0 ? null : ev.get(manifestVersion).path;
    if (published == null || !fileSynced(ev, published, manifestVersion, retire)
        || syncOf(ev, published.getParent(), manifestVersion, retire) < 0) {
      out.add("write " + k + ": the __manifest version is not durable before the sidecar is removed");
    }
    return out;
  }

  /** What a synced path belongs to, for the per-write breakdown. */
  private static String syncClass(Path root, Path p) {
    if (p.getFileName() != null && p.getFileName().toString().startsWith("__write_lease")) {
      return "lease";
    }
    if (p.startsWith(root.resolve("__recovery")) || p.equals(root.resolve("__recovery"))) {
      return "sidecar";
    }
    if (p.startsWith(root.resolve("__manifest"))) {
      return "manifest";
    }
    return p.startsWith(root) && !p.equals(root) ? "table" : "root and above";
  }

  private static boolean exempt(Path root, Path file) {
    String name = file.getFileName().toString();
    return name.equals("__write_lease.json") || name.startsWith(".omnigraph-lock");
  }

  private static int writeOf(int index, int[] acks) {
    for (int k = 1; k <= 3; k++) {
      if (index < acks[k]) {
        return k;
      }
    }
    return 4;
  }

  /** The file was fsynced after it was created, or its temp source before the rename/link. */
  static boolean fileSynced(List<Event> ev, Path file, int created, int ack) {
    if (syncOf(ev, file, created, ack) >= 0) {
      return true;
    }
    Path source = ev.get(created).source;
    return source != null && lastOf(ev.subList(0, created), Kind.SYNC, source) >= 0;
  }

  static int syncOf(List<Event> ev, Path path, int after, int before) {
    for (int i = after + 1; i < before && i < ev.size(); i++) {
      Event e = ev.get(i);
      if (e.kind == Kind.SYNC && path.equals(e.path)) {
        return i;
      }
    }
    return -1;
  }

  private static int lastCreation(List<Event> ev, Path file) {
    return lastOf(ev, Kind.CREATE, file);
  }

  static int lastOf(List<Event> ev, Kind kind, Path path) {
    for (int i = ev.size() - 1; i >= 0; i--) {
      Event e = ev.get(i);
      if (e.kind == kind && path.equals(e.path)) {
        return i;
      }
    }
    return -1;
  }

  /** Every file (with its size and modification time) and directory (-1) under {@code root}. */
  static Map<Path, Long> tree(Path root) throws IOException {
    Map<Path, Long> out = new HashMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.put(p, a.isDirectory() ? -1L : a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS) * 31
            + a.size() + (long) a.fileKey().hashCode());
      }
    }
    return out;
  }

  enum Kind { CREATE, UNLINK, MKDIR, SYNC, ACK }

  /** One completed file-system call: what it did to which path (and from which, for a rename/link). */
  record Event(Kind kind, Path path, Path source, int ack) {}

  private static final Pattern LINE = Pattern.compile("^(\\d+)\\s+(.*)$");
  private static final Pattern SYNC = Pattern.compile("^f(?:data)?sync\\(\\d+<(.*)>\\)\\s+=\\s+0$");
  private static final Pattern RENAME = Pattern.compile(
      "^(rename|renameat2?|link|linkat)\\((?:(?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, )?\"([^\"]+)\", (?:(?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, )?\"([^\"]+)\".*\\)\\s+=\\s+0$");
  private static final Pattern OPEN_CREAT = Pattern.compile(
      "^open(?:at)?\\((?:(?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, )?\"([^\"]+)\", [^)]*O_CREAT[^)]*\\)\\s+=\\s+\\d+.*$");
  private static final Pattern UNLINK = Pattern.compile(
      "^unlink(?:at)?\\((?:(?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, )?\"([^\"]+)\".*\\)\\s+=\\s+0$");
  private static final Pattern RMDIR = Pattern.compile(
      "^rmdir\\((?:(?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, )?\"([^\"]+)\".*\\)\\s+=\\s+0$");
  private static final Pattern MKDIR = Pattern.compile(
      "^mkdir(?:at)?\\((?:(?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, )?\"([^\"]+)\".*\\)\\s+=\\s+0$");
  private static final Pattern ACK = Pattern.compile("omnigraph-ack-(\\d)");

  /** Parses strace -f -y output, joining calls split by other threads ("unfinished" / "resumed"). */
  static List<Event> parse(List<String> lines, Path root) {
    Map<String, String> pending = new HashMap<>();
    List<Event> out = new ArrayList<>();
    for (String raw : lines) {
      Matcher m = LINE.matcher(raw);
      if (!m.matches()) {
        continue;
      }
      String tid = m.group(1);
      String call = m.group(2);
      if (call.endsWith("<unfinished ...>")) {
        pending.put(tid, call.substring(0, call.length() - "<unfinished ...>".length()).trim());
        continue;
      }
      if (call.startsWith("<... ")) {
        String head = pending.remove(tid);
        if (head == null) {
          continue;
        }
        int resumed = call.indexOf("resumed>");
        call = head + call.substring(resumed + "resumed>".length());
      }
      Matcher a = ACK.matcher(call);
      if (a.find() && !call.startsWith("f")) {
        out.add(new Event(Kind.ACK, null, null, Integer.parseInt(a.group(1))));
        continue;
      }
      Matcher s = SYNC.matcher(call);
      if (s.matches()) {
        out.add(new Event(Kind.SYNC, Path.of(s.group(1)), null, 0));
        continue;
      }
      Matcher r = RENAME.matcher(call);
      if (r.matches()) {
        out.add(new Event(Kind.CREATE, resolve(r.group(4), r.group(5)), resolve(r.group(2), r.group(3)), 0));
        continue;
      }
      Matcher o = OPEN_CREAT.matcher(call);
      if (o.matches()) {
        out.add(new Event(Kind.CREATE, resolve(o.group(1), o.group(2)), null, 0));
        continue;
      }
      Matcher u = UNLINK.matcher(call);
      if (u.matches()) {
        out.add(new Event(Kind.UNLINK, resolve(u.group(1), u.group(2)), null, 0));
        continue;
      }
      Matcher rd = RMDIR.matcher(call);
      if (rd.matches()) {
        out.add(new Event(Kind.UNLINK, resolve(rd.group(1), rd.group(2)), null, 0)); // a removal, as unlinkat(AT_REMOVEDIR)
        continue;
      }
      Matcher d = MKDIR.matcher(call);
      if (d.matches()) {
        out.add(new Event(Kind.MKDIR, resolve(d.group(1), d.group(2)), null, 0));
      }
    }
    return out;
  }

  private static Path resolve(String dirFd, String path) {
    Path p = Path.of(path);
    if (p.isAbsolute() || dirFd == null) {
      return p.normalize();
    }
    return Path.of(dirFd).resolve(p).normalize();
  }
}
