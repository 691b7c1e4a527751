package io.omnigraph.cli.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.launcher.LauncherLayout.Run;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A class-data training that fails is said, once, with the JVM's reason (docs/cli.md, "Start-up"):
 * here the CLI's class path holds a non-empty directory, which the JVM cannot archive. The failed
 * key is not retrained (it would fail the same way at every call). Three launcher calls and one
 * failed background training (the JVM stops at start-up): a few seconds.
 */
class LauncherTrainingTest {
  @TempDir Path tmp;

  @Test
  void aFailedTrainingIsSaidOnceWithTheJvmsReason() throws Exception {
    Path repo = tmp.resolve("repo");
    LauncherLayout.assemble(repo);
    Path target = repo.resolve("modules/cli/target");
    Path dir = Files.createDirectories(target.resolve("lib/resources-dir"));
    Files.writeString(dir.resolve("note.txt"), "a directory on the class path, as a reactor build without package has");
    prependToManifestClassPath(target.resolve("omnigraph-cli.jar"), "lib/resources-dir/");
    // The shared test cache: the archive's key names this copy's jar path, so its files are this test's own.
    Path cds = Path.of("target/launcher-test-cache/omnigraph/cds").toAbsolutePath();
    Map<String, String> env = Map.of();
    Path schema = Files.writeString(tmp.resolve("s.pg"), "node Person {\n  name: String @key\n}\n");
    Path graph = tmp.resolve("graph");

    Run first = LauncherLayout.run(repo, tmp, env, "init", "--schema", schema.toString(), graph.toString());
    assertThat(first.code()).as(first.err()).isZero();
    Path failed = awaitFailedTraining(cds, target.resolve("omnigraph-cli.jar"));
    assertThat(Files.readString(failed)).contains("non-empty directory");

    Run second = LauncherLayout.run(repo, tmp, env, "commit", "list", graph.toString());
    assertThat(second.code()).as(second.err()).isZero();
    assertThat(second.err()).contains("no class-data archive", "training failed", "non-empty directory",
        failed.toString());

    Run third = LauncherLayout.run(repo, tmp, env, "commit", "list", graph.toString());
    assertThat(third.code()).as(third.err()).isZero();
    assertThat(third.out()).isEqualTo(second.out());
    assertThat(third.err()).as("said once").isEmpty();
    String archive = failed.getFileName().toString().replaceFirst("\\.failed$", "");
    assertThat(failed.resolveSibling(archive)).as("not retrained").doesNotExist();
  }

  /** Waits for the background trainer of {@code jar} to write its .failed file and to let go of its lock. */
  private static Path awaitFailedTraining(Path cds, Path jar) throws Exception {
    long end = System.nanoTime() + LauncherLayout.RUN.toNanos();
    while (System.nanoTime() < end) {
      if (Files.isDirectory(cds)) {
        try (Stream<Path> files = Files.list(cds)) {
          for (Path f : files.filter(f -> f.toString().endsWith(".failed")).toList()) {
            if (Files.readString(f).contains(jar.toString())) {
              Path lock = f.resolveSibling(f.getFileName().toString().replaceFirst("\\.failed$", ".lock"));
              // the trainer holds its lock until it and its JVM have exited
              Process p = new ProcessBuilder("flock", "-w", "180", lock.toString(), "true").start();
              assertThat(p.waitFor()).isZero();
              return f;
            }
          }
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no failed class-data training of " + jar + " in " + cds + " within " + LauncherLayout.RUN);
  }

  private static void prependToManifestClassPath(Path jar, String entry) throws Exception {
    Path copy = jar.resolveSibling("rewritten.jar");
    try (InputStream in = Files.newInputStream(jar); JarInputStream jin = new JarInputStream(in)) {
      Manifest manifest = jin.getManifest();
      Attributes main = manifest.getMainAttributes();
      // First: the JVM refuses only a non-empty directory that comes before a class path entry it loaded from.
      main.put(Attributes.Name.CLASS_PATH, entry + " " + main.getValue(Attributes.Name.CLASS_PATH));
      try (OutputStream out = Files.newOutputStream(copy); JarOutputStream jout = new JarOutputStream(out, manifest)) {
        for (JarEntry e = jin.getNextJarEntry(); e != null; e = jin.getNextJarEntry()) {
          jout.putNextEntry(new JarEntry(e.getName()));
          jin.transferTo(jout);
          jout.closeEntry();
        }
      }
    }
    Files.move(copy, jar, StandardCopyOption.REPLACE_EXISTING);
  }
}
