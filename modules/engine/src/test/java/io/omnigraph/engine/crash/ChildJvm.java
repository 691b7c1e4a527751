package io.omnigraph.engine.crash;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a {@code main} of this module's test code in a separate JVM (a real OS process) on the class
 * path, for crash tests: the child can halt, be SIGKILLed, or exit normally, and the parent reads
 * its exit status and output.
 *
 * <p>Each child gets its own {@code java.io.tmpdir} (Lance extracts its ~180 MB native library
 * there and a halted JVM leaves it behind); {@link Result} and {@link Running#close()} delete it.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** A finished child. */
  public record Result(int exitCode, String output) {}

  /** The class path: this module's test and main classes and every dependency of the test run. */
  static String classPath() {
    Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    Set<String> entries = new LinkedHashSet<>();
    entries.add(base.resolve("target/test-classes").toString());
    entries.add(base.resolve("target/classes").toString());
    for (String prop : new String[] {"jdk.module.path", "java.class.path"}) {
      String v = System.getProperty(prop);
      if (v != null && !v.isBlank()) {
        for (String e : v.split(File.pathSeparator)) {
          if (!e.isBlank()) {
            entries.add(e);
          }
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /**
   * Starts {@code main} with {@code args} and the system properties {@code props}.
   *
   * @param tmpRoot where the child's private temp directory is created
   * @return the running child (output is merged stdout+stderr)
   */
  public static Running start(Path tmpRoot, Class<?> main, Map<String, String> props, List<String> args) {
    try {
      Path tmp = Files.createTempDirectory(Files.createDirectories(tmpRoot), "child-tmp-");
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xshare:auto");
      cmd.add("-XX:TieredStopAtLevel=1");
      cmd.add("-Xmx512m");
      cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
      cmd.add("-Djava.io.tmpdir=" + tmp);
      props.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
      cmd.add("-cp");
      cmd.add(classPath());
      cmd.add(main.getName());
      cmd.addAll(args);
      Path out = tmp.resolve("child-output.txt");
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
      pb.environment().put("LC_ALL", "C.UTF-8");
      return new Running(pb.start(), tmp, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code main} to completion (guard time five minutes) and returns its exit status and output. */
  public static Result run(Path tmpRoot, Class<?> main, Map<String, String> props, String... args) {
    try (Running r = start(tmpRoot, main, props, List.of(args))) {
      return r.await(5, TimeUnit.MINUTES);
    }
  }

  /** A started child; closing it kills it if still alive and deletes its temp directory. */
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
