package io.omnigraph.cli.launcher;

import io.omnigraph.cli.OmnigraphCli;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * A copy of the repository as the launcher sees it, assembled as the CLI's pom packages it, so that
 * nothing is built: the real {@code ./omnigraph} script, {@code modules/cli/target/omnigraph-cli.jar}
 * (a thin jar of {@code target/classes} whose manifest names {@code lib/*.jar} and carries
 * {@code Add-Opens}), the CLI's own class path in {@code target/lib/}, and the extensions (the cloud
 * adapters, the TCK, and what only they need) in {@code target/lib/ext/}, listed in Maven's order
 * in {@code target/lib/ext.classpath}. The two class paths are the ones Maven computed for this
 * build ({@code target/layout/*.classpath}, written before the tests by the pom's
 * {@code test-layout-*} executions); the jars are hard-linked, never copied when avoidable.
 */
final class LauncherLayout {
  private LauncherLayout() {}

  /** Copies the launcher to {@code repo/omnigraph} and assembles {@code repo/modules/cli/target}. */
  static void assemble(Path repo) throws IOException {
    Files.createDirectories(repo);
    Files.copy(launcherScript(), repo.resolve("omnigraph"));
    Files.setPosixFilePermissions(repo.resolve("omnigraph"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Path target = Files.createDirectories(repo.resolve("modules/cli/target"));
    Path lib = Files.createDirectories(target.resolve("lib"));
    Path ext = Files.createDirectories(lib.resolve("ext"));
    Path classes = Path.of(OmnigraphCli.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    int[] n = {0};
    List<String> classPath = new ArrayList<>();
    for (Path p : classPath("cli")) {
      // Test-only logging (logback) would make SLF4J warn about two providers; the CLI ships slf4j-nop only.
      if (p.equals(classes.toAbsolutePath()) || p.getFileName().toString().startsWith("logback-")) {
        continue;
      }
      classPath.add("lib/" + place(p, lib, n));
    }
    List<String> extPath = new ArrayList<>();
    for (Path p : classPath("ext")) {
      extPath.add("lib/ext/" + place(p, ext, n));
    }
    Files.writeString(lib.resolve("ext.classpath"), String.join(":", extPath) + "\n");

    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, OmnigraphCli.class.getName());
    manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
    manifest.getMainAttributes().put(new Attributes.Name("Add-Opens"), "java.base/java.nio");
    try (OutputStream file = Files.newOutputStream(target.resolve("omnigraph-cli.jar"));
        JarOutputStream jar = new JarOutputStream(file, manifest);
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
        Files.copy(f, jar);
        jar.closeEntry();
      }
    }
  }

  /**
   * @return the entries of {@code target/layout/<name>.classpath} (Maven's class path of that
   *     scope, absolute), existing ones only
   */
  static List<Path> classPath(String name) throws IOException {
    Path file = Path.of("target/layout/" + name + ".classpath").toAbsolutePath();
    if (!Files.isRegularFile(file)) {
      throw new AssertionError(file + " is missing: Maven's generate-test-resources phase writes it (pom: test-layout-"
          + name + ")");
    }
    Set<Path> out = new LinkedHashSet<>();
    for (String entry : Files.readString(file).strip().split(File.pathSeparator)) {
      if (!entry.isBlank() && Files.exists(Path.of(entry))) {
        out.add(Path.of(entry).toAbsolutePath());
      }
    }
    return new ArrayList<>(out);
  }

  /** Hard-links (or copies) a jar, or copies a directory, into {@code dir}; returns its name there. */
  private static String place(Path p, Path dir, int[] n) throws IOException {
    // Numbered: in a reactor build without the package phase, several entries are "classes" directories.
    String name = String.format("%03d-%s", n[0]++, p.getFileName());
    if (Files.isDirectory(p)) {
      copyTree(p, dir.resolve(name));
      return name + "/";
    }
    try {
      Files.createLink(dir.resolve(name), p); // read-only use; the originals are never written
    } catch (IOException | UnsupportedOperationException e) {
      Files.copy(p, dir.resolve(name));
    }
    return name;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path t = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(t);
        } else {
          Files.copy(f, t, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /** The repository's {@code ./omnigraph}: the nearest directory above this one with it and {@code mvnw}. */
  static Path launcherScript() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("omnigraph")) && Files.isRegularFile(p.resolve("mvnw"))) {
        return p.resolve("omnigraph");
      }
    }
    throw new AssertionError("no ./omnigraph launcher above " + Path.of("").toAbsolutePath());
  }

  static final Duration RUN = Duration.ofMinutes(3);

  /** One call of the launcher: exit code, stdout, stderr. */
  record Run(int code, String out, String err) {
    /** The JVM's java.class.path (printed by {@code -XshowSettings:properties} on stderr). */
    List<String> classPath() {
      List<String> cp = javaClassPath(err);
      if (cp.isEmpty()) {
        throw new AssertionError("no java.class.path in the launcher's stderr:\n" + err);
      }
      return cp;
    }
  }

  /**
   * Runs {@code repo/omnigraph args} in {@code dir} with this JVM's environment minus the
   * launcher's own variables, the JDK of this JVM, the per-user caches in
   * {@code target/launcher-test-cache} (so Lance's library is extracted once per build directory,
   * not per run), and {@code env} on top.
   */
  static Run run(Path repo, Path dir, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(repo.resolve("omnigraph").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("OMNIGRAPH_") || k.equals("XDG_CACHE_HOME"));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("XDG_CACHE_HOME", Path.of("target/launcher-test-cache").toAbsolutePath().toString());
    pb.environment().putAll(env);
    Path out = Files.createTempFile(dir, "launcher-out", ".txt");
    Path err = Files.createTempFile(dir, "launcher-err", ".txt");
    try {
      Process p = pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(RUN.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(cmd + " did not finish within " + RUN + "; stderr:\n" + Files.readString(err));
      }
      return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** @return the class path entries of a {@code -XshowSettings:properties} dump on stderr */
  static List<String> javaClassPath(String stderr) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String line : stderr.lines().toList()) {
      String t = line.strip();
      if (t.startsWith("java.class.path = ")) {
        in = true;
        t = t.substring("java.class.path = ".length());
      } else if (in && (t.contains(" = ") || t.isEmpty())) {
        break;
      }
      if (in) {
        out.addAll(Arrays.asList(t.split(File.pathSeparator)));
      }
    }
    return out;
  }
}
