package io.omnigraph.adapter.fs;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts this module's test code in a separate JVM (a separate OS process), for cross-process tests. */
final class ChildJvm {
  private ChildJvm() {}

  /** The class path that holds the adapter, its test classes and the API. */
  static String classPath() {
    Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    List<String> entries = new ArrayList<>();
    entries.add(base.resolve("target/test-classes").toString());
    entries.add(base.resolve("target/classes").toString());
    for (String prop : new String[] {"jdk.module.path", "java.class.path"}) {
      String v = System.getProperty(prop);
      if (v != null && !v.isBlank()) {
        entries.add(v);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  static List<String> javaCommand(Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xshare:auto");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return cmd;
  }

  static Process start(List<String> command) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C.UTF-8");
    return pb.start();
  }

  /** Waits for the process and returns its combined output; fails if it does not end in a long guard time. */
  static String output(Process p) throws IOException, InterruptedException {
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not exit");
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
