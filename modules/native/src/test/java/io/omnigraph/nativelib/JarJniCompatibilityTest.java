package io.omnigraph.nativelib;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * This module's {@code io.questdb.jar.jni.JarJniLoader} can stand in for jar-jni's (the loader Lance
 * calls): the same kind and public static signatures, and on this machine the same platform
 * directory, library prefix and suffix, so it opens the resource jar-jni would. jar-jni is loaded
 * from its own jar in an isolated class loader (the build passes the jar's path).
 */
class JarJniCompatibilityTest {

  private static URLClassLoader jarJni() throws Exception {
    Path jar = Path.of(System.getProperty("jarjni.jar", ""));
    assertThat(Files.isRegularFile(jar)).as("jar-jni's jar (system property jarjni.jar): " + jar).isTrue();
    return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
  }

  @Test
  void theLoaderHasJarJnisKindAndStaticSignatures() throws Exception {
    try (URLClassLoader isolated = jarJni()) {
      Class<?> original = isolated.loadClass("io.questdb.jar.jni.JarJniLoader");
      Class<?> ours = Class.forName("io.questdb.jar.jni.JarJniLoader");

      assertThat(ours.getClassLoader()).isNotSameAs(isolated);
      assertThat(ours.getProtectionDomain().getCodeSource().getLocation().toString()).doesNotContain("jar-jni");
      assertThat(ours.isInterface()).isEqualTo(original.isInterface());
      assertThat(publicStatics(ours)).isEqualTo(publicStatics(original)).isNotEmpty();
    }
  }

  @Test
  void thePlatformConventionsAreJarJnisOnThisMachine() throws Exception {
    try (URLClassLoader isolated = jarJni()) {
      String platform = (String) isolated.loadClass("io.questdb.jar.jni.Platform").getField("RESOURCE_PREFIX").get(null);
      Class<?> conventions = isolated.loadClass("io.questdb.jar.jni.PlatformConventions");

      assertThat(NativePlatform.platformDirectory()).isEqualTo(platform);
      assertThat(NativePlatform.libraryPrefix()).isEqualTo(conventions.getField("LIB_PREFIX").get(null));
      assertThat(NativePlatform.librarySuffix()).isEqualTo(conventions.getField("LIB_SUFFIX").get(null));
      assertThat(NativePlatform.resourceName("/nativelib", "lance_jni", platform))
          .isEqualTo("/nativelib/" + platform + "/" + conventions.getField("LIB_PREFIX").get(null) + "lance_jni"
              + conventions.getField("LIB_SUFFIX").get(null));
    }
  }

  @Test
  void lancesPlatformsMapToItsDirectories() {
    // The directories inside lance-core 7.0.0's jar.
    assertThat(NativePlatform.platformDirectory("Linux", "amd64")).isEqualTo("linux-x86-64");
    assertThat(NativePlatform.platformDirectory("Linux", "aarch64")).isEqualTo("linux-aarch64");
    assertThat(NativePlatform.platformDirectory("Mac OS X", "aarch64")).isEqualTo("darwin-aarch64");
  }

  private static Set<String> publicStatics(Class<?> c) {
    return Arrays.stream(c.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
        .map(JarJniCompatibilityTest::signature)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static String signature(Method m) {
    return m.getReturnType().getName() + " " + m.getName() + Arrays.stream(m.getParameterTypes())
        .map(Class::getName).collect(Collectors.joining(",", "(", ")"));
  }
}
