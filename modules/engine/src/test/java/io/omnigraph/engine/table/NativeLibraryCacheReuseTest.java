package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.nativelib.NativeLibraryCache;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every JVM that embeds the engine loads Lance's native library from the per-user cache of
 * omnigraph-native (docs/library.md): on the module path (this test JVM, as Surefire runs the
 * engine's tests) and on the class path (child JVMs, as embedded applications and the benchmark's
 * children run). A second JVM start copies nothing: it maps the same cache file, which is not
 * rewritten, and leaves no temporary copy in {@code java.io.tmpdir}.
 */
class NativeLibraryCacheReuseTest {
  static final String SCHEMA = "node Person {\n  name: String @key\n}\n";
  static final String MAPPED = "mapped: ";

  @TempDir Path tmp;

  @Test
  void onTheModulePathLanceMapsTheCachedLibrary() throws IOException {
    assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "Linux /proc");
    try (Graph g = Omnigraph.init(tmp.resolve("g").toString(), SCHEMA)) {
      assertThat(g).isNotNull();
    }

    assertThat(io.questdb.jar.jni.JarJniLoader.class.getModule().getName()).isEqualTo("io.omnigraph.nativelib");
    Path cache = NativeLibraryCache.cacheRoot().toRealPath();
    assertThat(cache.toString()).as("the build points the cache into target/").contains("target");
    assertThat(mappedLanceLibrary()).startsWith(cache.toString());
  }

  @Test
  void aSecondJvmStartReusesTheCachedCopyAndCopiesNothing() throws IOException {
    assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "Linux /proc");
    Path cache = tmp.resolve("cache");
    Path jvmTmp = Files.createDirectories(tmp.resolve("jvm-tmp"));

    Path graph = tmp.resolve("g");
    String first = probe(cache, jvmTmp, "init", graph);
    Path library = Path.of(first);
    assertThat(library).startsWith(cache.toRealPath()).hasFileName("liblance_jni.so");
    Object inode = Files.getAttribute(library, "unix:ino");
    FileTime written = Files.getLastModifiedTime(library);
    assertThat(temporaryCopies(jvmTmp)).as("no jar-jni copy in java.io.tmpdir").isEmpty();

    String second = probe(cache, jvmTmp, "open", graph);

    assertThat(second).as("the second JVM maps the cached file").isEqualTo(first);
    assertThat(Files.getAttribute(library, "unix:ino")).as("not extracted again").isEqualTo(inode);
    assertThat(Files.getLastModifiedTime(library)).as("not rewritten").isEqualTo(written);
    assertThat(temporaryCopies(jvmTmp)).as("no copy in java.io.tmpdir").isEmpty();
    try (Stream<Path> entry = Files.list(library.getParent())) {
      assertThat(entry).as("no temporary extraction left in the cache entry").containsExactly(library);
    }
  }

  /** Runs {@link Probe} in a class-path child JVM and returns the path it mapped the library from. */
  private static String probe(Path cache, Path jvmTmp, String how, Path graph) {
    ChildJvm.Result r = ChildJvm.main(Probe.class, how, graph.toString())
        .properties(Map.of(NativeLibraryCache.CACHE_PROPERTY, cache.toString(), "java.io.tmpdir", jvmTmp.toString()))
        .run(Duration.ofMinutes(3));
    assertThat(r.exitCode()).as(r.output()).isZero();
    List<String> lines = r.output().lines().filter(l -> l.startsWith(MAPPED)).toList();
    assertThat(lines).as(r.output()).hasSize(1);
    return lines.get(0).substring(MAPPED.length());
  }

  private static List<Path> temporaryCopies(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().contains("lance_jni")).toList();
    }
  }

  /** The path {@code liblance_jni} is mapped from in this process, from {@code /proc/self/maps}. */
  static String mappedLanceLibrary() throws IOException {
    List<String> paths = Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .map(l -> l.split("\\s+", 6))
        .filter(f -> f.length == 6 && f[5].contains("lance_jni"))
        .map(f -> f[5].trim())
        .distinct()
        .toList();
    assertThat(paths).as("exactly one copy of Lance's library is mapped").hasSize(1);
    return paths.get(0);
  }

  /** A child JVM that embeds the engine on the class path: creates or opens a graph, prints what it mapped. */
  public static final class Probe {
    public static void main(String[] args) throws IOException {
      try (Graph g = "init".equals(args[0]) ? Omnigraph.init(args[1], SCHEMA) : Omnigraph.open(args[1])) {
        System.out.println(MAPPED + mappedLanceLibrary());
      }
    }
  }
}
