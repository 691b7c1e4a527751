package io.omnigraph.cli.nativelib;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's {@code io.questdb.jar.jni.JarJniLoader} stands in for jar-jni's: it is found first, has
 * jar-jni's exact shape, and Lance really loads its library through the per-user cache.
 */
class LanceNativeLoadingTest {
  static final String LOADER = "io/questdb/jar/jni/JarJniLoader.class";

  @TempDir Path tmp;

  @Test
  void theClassPathFindsTheCliLoaderBeforeJarJnis() throws IOException {
    List<URL> copies = Collections.list(getClass().getClassLoader().getResources(LOADER));

    assertThat(copies).hasSize(2);
    assertThat(copies.get(0).toString()).doesNotContain("jar-jni");
    assertThat(copies.get(1).toString()).contains("jar-jni");
  }

  @Test
  void theCliLoaderHasJarJnisKindAndStaticSignatures() throws Exception {
    URL jarJni = Collections.list(getClass().getClassLoader().getResources(LOADER)).get(1);
    URL jarFile = ((JarURLConnection) jarJni.openConnection()).getJarFileURL();
    try (URLClassLoader isolated = new URLClassLoader(new URL[] {jarFile}, null)) {
      Class<?> original = isolated.loadClass("io.questdb.jar.jni.JarJniLoader");
      Class<?> ours = Class.forName("io.questdb.jar.jni.JarJniLoader");

      assertThat(ours.getClassLoader()).isNotSameAs(isolated);
      assertThat(ours.isInterface()).isEqualTo(original.isInterface());
      assertThat(publicStatics(ours)).isEqualTo(publicStatics(original)).isNotEmpty();
    }
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

  private static Set<String> publicStatics(Class<?> c) {
    return Arrays.stream(c.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
        .map(LanceNativeLoadingTest::signature)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static String signature(Method m) {
    return m.getReturnType().getName() + " " + m.getName() + Arrays.stream(m.getParameterTypes())
        .map(Class::getName).collect(Collectors.joining(",", "(", ")"));
  }
}
