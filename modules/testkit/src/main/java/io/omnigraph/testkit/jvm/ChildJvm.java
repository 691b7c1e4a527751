package io.omnigraph.testkit.jvm;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A child JVM (a real OS process) started with this JVM's {@code java}: the one launcher for every
 * test that forks (crash, failpoint, lease, kill and cross-process race tests, the TCK runner jar).
 *
 * <p>{@link #main} starts a class of the running test on {@link #testClassPath()} with the test
 * defaults: fast start-up ({@code -Xshare:auto -XX:TieredStopAtLevel=1}; {@link #measured()} turns
 * the C1-only flag off for timings), {@code java.nio} opened to the class path (Arrow needs it), and
 * this JVM's {@code java.io.tmpdir} and omnigraph-native's cache directory {@code omnigraph.native.cache}
 * when this JVM has one set (where Lance's native library is extracted once and reused). {@link #jar} and
 * {@link #java} pass exactly the arguments given. Every child runs with {@code LC_ALL=C.UTF-8};
 * its stdout and stderr are merged unless {@link #stderrToParent()}.
 *
 * <pre>{@code
 * ChildJvm.Result r = ChildJvm.main(Probe.class, root.toString()).run(Duration.ofMinutes(5));
 * try (ChildJvm.Running w = ChildJvm.main(Writer.class, args).property("k", "v").startLogged(tmp)) { ... }
 * }</pre>
 */
public final class ChildJvm {
  /** omnigraph-native's cache directory property; a child of a test gets its parent's (one extraction per build). */
  static final String NATIVE_CACHE = "omnigraph.native.cache";

  /** How long {@link #run()} waits before it kills the child and fails. */
  public static final Duration GUARD = Duration.ofMinutes(5);

  /** A finished child: its exit status and its (merged) output. */
  public record Result(int exitCode, String output) {}

  private final List<String> options = new ArrayList<>();
  private final Map<String, String> properties = new LinkedHashMap<>();
  private final List<String> launch;
  private final boolean testDefaults;
  private List<String> wrapper = List.of();
  private boolean quickStart = true;
  private boolean stderrToParent;
  private Path tmpDir;

  private ChildJvm(List<String> launch, boolean testDefaults) {
    this.launch = launch;
    this.testDefaults = testDefaults;
  }

  /** @return a child running {@code main} of the running test's code with {@code args} */
  public static ChildJvm main(Class<?> main, String... args) {
    return main(main, List.of(args));
  }

  /** @return a child running {@code main} of the running test's code with {@code args} */
  public static ChildJvm main(Class<?> main, List<String> args) {
    List<String> l = new ArrayList<>(List.of("-cp", testClassPath(), main.getName()));
    l.addAll(args);
    return new ChildJvm(l, true);
  }

  /** @return a child running {@code java -jar <jar> <args>} */
  public static ChildJvm jar(Path jar, List<String> args) {
    List<String> l = new ArrayList<>(List.of("-jar", jar.toString()));
    l.addAll(args);
    return new ChildJvm(l, false);
  }

  /** @return a child running {@code java <javaArgs>}, nothing added */
  public static ChildJvm java(List<String> javaArgs) {
    return new ChildJvm(List.copyOf(javaArgs), false);
  }

  /**
   * The class path of the running test: its module's {@code target/test-classes} and
   * {@code target/classes} (under the {@code basedir} property Surefire sets), then every entry of
   * the module path and the class path it was started with, each once.
   */
  public static String testClassPath() {
    Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    Set<String> entries = new LinkedHashSet<>();
    entries.add(base.resolve("target/test-classes").toString());
    entries.add(base.resolve("target/classes").toString());
    for (String prop : new String[] {"jdk.module.path", "java.class.path"}) {
      String v = System.getProperty(prop);
      if (v != null) {
        for (String e : v.split(File.pathSeparator)) {
          if (!e.isBlank()) {
            entries.add(e);
          }
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /** Adds JVM options (before the main class or jar), e.g. {@code -Xmx512m}. */
  public ChildJvm option(String... jvmOptions) {
    options.addAll(List.of(jvmOptions));
    return this;
  }

  /** Sets a system property of the child ({@code -Dkey=value}). */
  public ChildJvm property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  /** Sets system properties of the child. */
  public ChildJvm properties(Map<String, String> props) {
    properties.putAll(props);
    return this;
  }

  /** Full JIT (no {@code -XX:TieredStopAtLevel=1}): for a child whose timings are measured. */
  public ChildJvm measured() {
    quickStart = false;
    return this;
  }

  /** Starts the JVM through {@code command} (e.g. {@code setpriv ... --}), which runs the rest. */
  public ChildJvm wrappedIn(String... command) {
    wrapper = List.of(command);
    return this;
  }

  /** The child's stderr goes to this process's stderr instead of being merged into its output. */
  public ChildJvm stderrToParent() {
    stderrToParent = true;
    return this;
  }

  /** @return the whole command line */
  public List<String> command() {
    List<String> cmd = new ArrayList<>(wrapper);
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (testDefaults) {
      cmd.add("-Xshare:auto");
      if (quickStart) {
        cmd.add("-XX:TieredStopAtLevel=1");
      }
      cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
      if (tmpDir == null) {
        cmd.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
      }
      String nativeCache = System.getProperty(NATIVE_CACHE);
      if (nativeCache != null) {
        cmd.add("-D" + NATIVE_CACHE + "=" + nativeCache);
      }
    }
    if (tmpDir != null) {
      cmd.add("-Djava.io.tmpdir=" + tmpDir);
    }
    cmd.addAll(options);
    properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.addAll(launch);
    return cmd;
  }

  private ProcessBuilder builder() {
    ProcessBuilder pb = new ProcessBuilder(command());
    if (stderrToParent) {
      pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    } else {
      pb.redirectErrorStream(true);
    }
    pb.environment().put("LC_ALL", "C.UTF-8");
    return pb;
  }

  /** Starts the child with its output on a pipe ({@link Process#getInputStream()}) and its stdin open. */
  public Process start() {
    try {
      return builder().start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a child JVM: " + command(), e);
    }
  }

  /** Runs the child to completion ({@link #GUARD}) and returns its exit status and output. */
  public Result run() {
    return run(GUARD);
  }

  /** Runs the child to completion and returns its exit status and output; fails after {@code guard}. */
  public Result run(Duration guard) {
    Process p = start();
    String out = output(p, guard);
    return new Result(p.exitValue(), out);
  }

  /**
   * Reads a piped child's output to the end and waits for it to exit; kills it and fails if it
   * outlives {@code guard}.
   */
  public static String output(Process p, Duration guard) {
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(guard.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("child JVM did not exit within " + guard + "; output:\n" + out);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for a child JVM", e);
    }
  }

  /**
   * Starts the child with a private {@code java.io.tmpdir} under {@code tmpRoot} (Lance extracts its
   * ~180 MB native library there and a halted JVM leaves it behind) and its output in a file there,
   * for children that are killed or halt: the output survives the process.
   */
  public Running startLogged(Path tmpRoot) {
    try {
      tmpDir = Files.createTempDirectory(Files.createDirectories(tmpRoot), "child-tmp-");
      Path out = tmpDir.resolve("child-output.txt");
      ProcessBuilder pb = builder().redirectOutput(out.toFile());
      return new Running(pb.start(), tmpDir, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the child as {@link #startLogged} does, to completion ({@link #GUARD}), and deletes its temp directory. */
  public Result runLogged(Path tmpRoot) {
    try (Running r = startLogged(tmpRoot)) {
      return r.await(GUARD.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** A child started by {@link #startLogged}; closing it kills it if still alive and deletes its temp directory. */
  public static final class Running implements AutoCloseable {
    private final Process process;
    private final Path tmp;
    private final Path out;

    Running(Process process, Path tmp, Path out) {
      this.process = process;
      this.tmp = tmp;
      this.out = out;
    }

    /** @return the OS process */
    public Process process() {
      return process;
    }

    /** @return the output so far */
    public String output() {
      try {
        return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Sends SIGKILL (no shutdown hooks, no flushing) and waits for the process to be gone. */
    public Result kill() {
      process.destroyForcibly();
      return await(1, TimeUnit.MINUTES);
    }

    /** Waits for exit; fails (after killing it) if the child outlives {@code timeout}. */
    public Result await(long timeout, TimeUnit unit) {
      try {
        if (!process.waitFor(timeout, unit)) {
          process.destroyForcibly();
          process.waitFor(1, TimeUnit.MINUTES);
          throw new AssertionError("child JVM did not exit within " + timeout + " " + unit + "; output:\n" + output());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for a child JVM", e);
      }
      return new Result(process.exitValue(), output());
    }

    @Override
    public void close() {
      if (process.isAlive()) {
        process.destroyForcibly();
        try {
          process.waitFor(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      deleteTree(tmp);
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete child temp dir " + dir, e);
    }
  }
}
