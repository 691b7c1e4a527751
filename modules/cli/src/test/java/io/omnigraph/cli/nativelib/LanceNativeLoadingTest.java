package io.omnigraph.cli.nativelib;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import io.omnigraph.nativelib.NativeLibraryCache;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's class path has exactly one {@code io.questdb.jar.jni.JarJniLoader}, omnigraph-native's
 * (jar-jni is excluded from Lance's dependencies), and Lance really loads its library through the
 * per-user cache. The loader's shape is checked against jar-jni's in the native module
 * ({@code JarJniCompatibilityTest}).
 */
class LanceNativeLoadingTest {
  static final String LOADER = "io/questdb/jar/jni/JarJniLoader.class";

  @TempDir Path tmp;

  @Test
  void theClassPathHasOnlyOmnigraphsLoaderAndNoJarJni() throws IOException {
    List<URL> copies = Collections.list(getClass().getClassLoader().getResources(LOADER));

    assertThat(copies).hasSize(1);
    assertThat(copies.get(0).toString()).doesNotContain("jar-jni").containsPattern("omnigraph-native|modules/native/");
  }

  @Test
  void lanceLoadsItsLibraryFromTheCacheAndNotFromATemporaryCopy() throws IOException {
    Path schema = Files.writeString(tmp.resolve("s.pg"), "node Person {\n  name: String @key\n}\n");
    CliRun init = CliRun.of("init", "--schema", schema.toString(), tmp.resolve("g").toString());
    assertThat(init.exitCode()).as(init.err()).isZero();

    Path cache = NativeLibraryCache.cacheRoot();
    assertThat(cache.toString()).as("the build points the cache into target/").contains("target");
    try (Stream<Path> files = Files.walk(cache)) {
      assertThat(files.map(p -> p.getFileName().toString())).contains("liblance_jni.so");
    }
    // jar-jni's own loader leaves its copy in java.io.tmpdir until this JVM exits.
    Instant jvmStart = ProcessHandle.current().info().startInstant().orElse(Instant.EPOCH);
    try (Stream<Path> temps = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      assertThat(temps.filter(p -> p.getFileName().toString().startsWith("liblance_jni"))
          .filter(p -> modifiedAfter(p, jvmStart))).isEmpty();
    }
  }

  private static boolean modifiedAfter(Path p, Instant t) {
    try {
      return Files.getLastModifiedTime(p).toInstant().isAfter(t);
    } catch (IOException e) {
      return false; // gone meanwhile
    }
  }
}
