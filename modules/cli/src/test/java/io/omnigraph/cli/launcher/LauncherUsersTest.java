package io.omnigraph.cli.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code ./omnigraph} launcher run by users other than the repository's owner (docs/cli.md,
 * "Start-up"): it works for any user who can read the repository, never deletes another user's
 * directories, and keeps each user's native-library and class-data caches private.
 *
 * <p><b>Needs root</b>: it runs the launcher as two other uids ({@value #A} and {@value #B}, no
 * account needed) with {@code setpriv}, and as root. It fails, never skips, when it cannot: run it
 * as root (CI does). The repository is a copy in a temporary directory under {@code /tmp} that
 * every user can read, assembled as Maven's package phase assembles it ({@link LauncherLayout}),
 * so nothing is built.
 *
 * <p>Costs about half a minute: two first runs that extract Lance's library into a new cache, and
 * two background class-data trainings (a quickstart each) that the test waits for.
 */
class LauncherUsersTest {
  static final int A = 61001;
  static final int B = 61002;
  static final Duration RUN = Duration.ofMinutes(3);

  Path tmp;
  Path repo;
  Path graph;
  Process aliveAsA;

  @BeforeEach
  void repositoryCopyReadableByEveryone() throws Exception {
    requireRoot();
    tmp = Files.createTempDirectory(Path.of("/tmp"), "omnigraph-launcher-test-");
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repo = tmp.resolve("repo");
    LauncherLayout.assemble(repo);
    for (String home : List.of("home-root", "home-a", "home-b")) {
      Files.createDirectories(tmp.resolve(home)); // 0755, as most systems make home directories
    }
    chown(tmp.resolve("home-a"), A);
    chown(tmp.resolve("home-b"), B);
    Path schema = Files.writeString(tmp.resolve("s.pg"), "node Person {\n  name: String @key\n}\n");
    graph = tmp.resolve("graph");
    Run init = launcher(0, "home-root", Map.of("OMNIGRAPH_CDS", "0"), "init", "--schema", schema.toString(), graph.toString());
    assertThat(init.code()).as(init.err()).isZero();
  }

  @AfterEach
  void cleanUp() throws IOException {
    if (aliveAsA != null) {
      aliveAsA.destroyForcibly();
    }
    if (tmp != null) {
      deleteTree(tmp);
    }
  }

  @Test
  void otherUsersRunTheLauncherWithPrivateCachesAndNeverDeleteAnotherUsersDirectories() throws Exception {
    // Root's own run: its native cache exists from here on.
    Run asRoot = launcher(0, "home-root", Map.of("OMNIGRAPH_CDS", "0"), "commit", "list", graph.toString());
    assertThat(asRoot.code()).as(asRoot.err()).isZero();
    assertThat(asRoot.out()).contains("(genesis)");
    Path rootCache = tmp.resolve("home-root/.cache/omnigraph");
    Map<String, String> rootCacheBefore = listing(rootCache);
    assertThat(rootCacheBefore).as("root's native cache").isNotEmpty();

    // Run directories of earlier launchers: only A's finished one may go when A runs.
    Path runs = Files.createDirectories(repo.resolve(".omnigraph-tmp"));
    Files.setPosixFilePermissions(runs, PosixFilePermissions.fromString("rwxrwxrwx"));
    aliveAsA = new ProcessBuilder(asUser(A, List.of("sleep", "600"))).start();
    Path rootLive = runDir(runs, ProcessHandle.current().pid(), 0);
    Path rootDone = runDir(runs, deadPid(), 0);
    Path bDone = runDir(runs, deadPid(), B);
    Path aLive = runDir(runs, aliveAsA.pid(), A);
    Path aDone = runDir(runs, deadPid(), A);

    // (a) A runs it and sees what root sees, with nothing on stderr; (b) only A's finished run
    // directory is gone, and root's cache is as it was.
    Run a = launcher(A, "home-a", Map.of(), "commit", "list", graph.toString());
    assertThat(a.code()).as(a.err()).isZero();
    assertThat(a.out()).isEqualTo(asRoot.out());
    assertThat(a.err()).isEmpty();
    assertThat(List.of(rootLive, rootDone, bDone, aLive)).allSatisfy(d -> assertThat(d.resolve("lib.so")).exists());
    assertThat(aDone).doesNotExist();
    assertThat(listing(rootCache)).as("root's cache after A's run").isEqualTo(rootCacheBefore);

    // The same for B: B's own finished directory goes, A's live one and root's stay.
    Run b = launcher(B, "home-b", Map.of(), "commit", "list", graph.toString());
    assertThat(b.code()).as(b.err()).isZero();
    assertThat(b.out()).isEqualTo(asRoot.out());
    assertThat(b.err()).isEmpty();
    assertThat(List.of(rootLive, rootDone, aLive)).allSatisfy(d -> assertThat(d.resolve("lib.so")).exists());
    assertThat(bDone).doesNotExist();
    assertThat(listing(rootCache)).as("root's cache after B's run").isEqualTo(rootCacheBefore);

    // (c) Each user's caches are its own, private, and closed to the other user.
    Path aCache = tmp.resolve("home-a/.cache/omnigraph");
    Path bCache = tmp.resolve("home-b/.cache/omnigraph");
    awaitTraining(A, aCache);
    awaitTraining(B, bCache);
    for (int uid : List.of(A, B)) {
      Path cache = uid == A ? aCache : bCache;
      int other = uid == A ? B : A;
      assertPrivate(cache.resolve("native"), uid);
      assertPrivate(cache.resolve("cds"), uid);
      try (Stream<Path> files = Files.walk(cache)) {
        assertThat(files.filter(p -> !p.equals(cache))).allSatisfy(p -> {
          assertThat(uid(p)).as("owner of %s", p).isEqualTo(uid);
          assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)))
              .as("mode of %s: no group or other write bit", p).matches("....-..-.");
        });
      }
      try (Stream<Path> files = Files.walk(cache)) {
        assertThat(files.filter(p -> p.toString().endsWith(".jsa")).count()).as("%s's class-data archive", uid).isOne();
      }
      for (String sub : List.of("native", "cds")) {
        int touch = exec(asUser(other, List.of("touch", cache.resolve(sub).resolve("planted").toString()))).code();
        assertThat(touch).as("uid %d writing into uid %d's %s cache", other, uid, sub).isNotZero();
      }
    }

    // The archive is used from the second run on, and prints nothing.
    Run aAgain = launcher(A, "home-a", Map.of(), "commit", "list", graph.toString());
    assertThat(aAgain.code()).as(aAgain.err()).isZero();
    assertThat(aAgain.out()).isEqualTo(asRoot.out());
    assertThat(aAgain.err()).isEmpty();
    // ... really used (-Xshare:on stops a JVM that cannot map it), and mapped where it was dumped,
    // without the relocation pass over every pointer in it (docs/cli.md, "Start-up").
    Path cdsLog = tmp.resolve("home-a/cds.log");
    Run mapped = launcher(A, "home-a", Map.of("OMNIGRAPH_JAVA_OPTS", "-Xshare:on -Xlog:cds=info:file=" + cdsLog),
        "commit", "list", graph.toString());
    assertThat(mapped.code()).as(mapped.err()).isZero();
    assertThat(mapped.out()).isEqualTo(asRoot.out());
    assertThat(Files.readString(cdsLog)).contains("Mapped dynamic region").doesNotContain("alternative address");
    Files.delete(cdsLog);

    // A corrupt archive is ignored silently: same output, nothing on stderr.
    Path archive;
    try (Stream<Path> files = Files.walk(aCache.resolve("cds"))) {
      archive = files.filter(p -> p.toString().endsWith(".jsa")).findFirst().orElseThrow();
    }
    byte[] head = new byte[8192];
    try (var in = Files.newInputStream(archive)) {
      in.readNBytes(head, 0, head.length);
    }
    for (int i = 64; i < head.length; i += 7) {
      head[i] ^= 0x5a;
    }
    Files.write(archive, head); // same owner (A), header kept, the rest garbage and cut short
    Run corrupt = launcher(A, "home-a", Map.of(), "commit", "list", graph.toString());
    assertThat(corrupt.code()).as(corrupt.err()).isZero();
    assertThat(corrupt.out()).isEqualTo(asRoot.out());
    assertThat(corrupt.err()).isEmpty();

    // B pointed at A's cache (XDG_CACHE_HOME): B neither uses nor changes it, and still runs.
    Map<String, String> aCacheBefore = listing(aCache);
    Run hostile = launcher(B, "home-b", Map.of("XDG_CACHE_HOME", tmp.resolve("home-a/.cache").toString()),
        "commit", "list", graph.toString());
    assertThat(hostile.code()).as(hostile.err()).isZero();
    assertThat(hostile.out()).isEqualTo(asRoot.out());
    assertThat(hostile.err()).contains("the native library cache cannot be used");
    assertThat(listing(aCache)).as("A's cache after B's run").isEqualTo(aCacheBefore);
  }

  // --- running things as a user ---

  record Run(int code, String out, String err) {}

  /** {@code ./omnigraph args} as {@code uid} (0: root itself) with a clean environment and that home. */
  private Run launcher(int uid, String home, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(repo.resolve("omnigraph").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(uid == 0 ? cmd : asUser(uid, cmd)).directory(tmp.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    pb.environment().put("HOME", tmp.resolve(home).toString());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("LC_ALL", "C.UTF-8");
    pb.environment().putAll(env);
    return exec(pb);
  }

  private static List<String> asUser(int uid, List<String> command) {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"));
    cmd.addAll(command);
    return cmd;
  }

  private static Run exec(List<String> command) throws Exception {
    return exec(new ProcessBuilder(command));
  }

  private static Run exec(ProcessBuilder pb) throws Exception {
    Path out = Files.createTempFile("launcher-out", ".txt");
    Path err = Files.createTempFile("launcher-err", ".txt");
    try {
      Process p = pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(RUN.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        fail("%s did not finish within %s; stderr:%n%s", pb.command(), RUN, Files.readString(err));
      }
      return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Waits for the user's background class-data training (launched by its first run) to end. */
  private static void awaitTraining(int uid, Path cache) throws Exception {
    Path cds = cache.resolve("cds");
    long end = System.nanoTime() + RUN.toNanos();
    while (true) {
      try (Stream<Path> files = Files.list(cds)) {
        List<Path> locks = new ArrayList<>();
        boolean done = false;
        for (Path f : files.toList()) {
          String name = f.getFileName().toString();
          done |= name.endsWith(".jsa") || name.endsWith(".failed");
          if (name.endsWith(".lock")) {
            locks.add(f);
          }
        }
        if (done) {
          for (Path lock : locks) { // the trainer holds its lock until it and its JVM have exited
            assertThat(exec(List.of("flock", "-w", "180", lock.toString(), "true")).code()).isZero();
          }
          return;
        }
      }
      if (System.nanoTime() > end) {
        fail("uid %d's class-data training did not finish within %s", uid, RUN);
      }
      Thread.sleep(200);
    }
  }

  // --- files ---

  private static Path runDir(Path runs, long pid, int owner) throws Exception {
    Path dir = Files.createDirectory(runs.resolve("run-" + pid));
    Path file = Files.writeString(dir.resolve("lib.so"), "a library a live run may be using");
    // Open to everyone, so that only the launcher's own rules keep another user from deleting it.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    chown(dir, owner);
    chown(file, owner);
    return dir;
  }

  /** A pid no process has now (one that has just exited). */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }

  private static void chown(Path p, int uid) throws IOException {
    Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(p, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
  }

  private static int uid(Path p) {
    try {
      return (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertPrivate(Path dir, int uid) throws IOException {
    assertThat(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)).as("%s is a directory", dir).isTrue();
    assertThat(uid(dir)).as("owner of %s", dir).isEqualTo(uid);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).as("mode of %s", dir).isEqualTo("rwx------");
  }

  /** Every path under {@code root} with its size and modification time. */
  private static Map<String, String> listing(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.toList()) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        out.put(root.relativize(p).toString(), a.size() + " " + a.lastModifiedTime() + " " + uid(p));
      }
    }
    return out;
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file); // a hard link: removes the link, never the original
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Fails (never skips) when the test cannot run as it must: it needs root and setpriv. */
  private static void requireRoot() throws Exception {
    Process id = new ProcessBuilder("id", "-u").start();
    String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
    id.waitFor();
    if (!"0".equals(uid)) {
      fail("LauncherUsersTest needs root: it runs ./omnigraph as uids %d and %d with setpriv (CI runs as root); "
          + "this JVM runs as uid %s", A, B, uid);
    }
    if (!Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
      fail("LauncherUsersTest needs /usr/bin/setpriv (util-linux)");
    }
  }
}
