package io.questdb.jar.jni;

import io.omnigraph.nativelib.NativeLibraryCache;
import io.omnigraph.nativelib.NativePlatform;

/**
 * OmniGraph's replacement for jar-jni's {@code JarJniLoader}, the class Lance calls to load its JNI
 * library ({@code JarJniLoader.loadLib(Dataset.class, "/nativelib", "lance_jni")}).
 *
 * <p>jar-jni's loader copies the ~180 MB library out of the jar into a fresh temporary file at every
 * JVM start (about 2 s). This module takes jar-jni's place (the engine excludes {@code
 * org.questdb:jar-jni} from Lance's dependencies and depends on this module instead), so every JVM
 * that embeds the engine — on the class path or the module path — loads the library through
 * {@link NativeLibraryCache}, which extracts it once per library build and user. Same name, kind
 * (an interface) and static signatures as jar-jni's; {@code JarJniCompatibilityTest} fails when
 * they drift.
 */
public interface JarJniLoader {

  /** Loads {@code name} from {@code jarPathPrefix}/{@code <platform>}/ as jar-jni names the platform. */
  static <T> void loadLib(Class<T> cls, String jarPathPrefix, String name) {
    loadLib(cls, jarPathPrefix, name, NativePlatform.platformDirectory());
  }

  /** Loads {@code name} from {@code jarPathPrefix}/{@code platformDir}/ (no platform directory when null). */
  static <T> void loadLib(Class<T> cls, String jarPathPrefix, String name, String platformDir) {
    NativeLibraryCache.load(cls, NativePlatform.resourceName(jarPathPrefix, name, platformDir));
  }
}
