package io.questdb.jar.jni;

import io.omnigraph.cli.nativelib.NativeLibraryCache;

/**
 * The CLI's stand-in for jar-jni's {@code JarJniLoader}, the class Lance calls to load its JNI
 * library ({@code JarJniLoader.loadLib(Dataset.class, "/nativelib", "lance_jni")}).
 *
 * <p>Same name, kind (an interface) and static signatures as jar-jni's; the CLI jar is first on the
 * class path, so this one is loaded instead. It finds the same resource as jar-jni would but loads
 * it through {@link NativeLibraryCache}, which extracts it once per library build and user instead
 * of once per process. {@code JarJniLoaderShadowTest} fails when jar-jni's signatures drift.
 */
public interface JarJniLoader {

  /** Loads {@code name} from {@code jarPathPrefix}/{@code <platform>}/ as jar-jni names the platform. */
  static <T> void loadLib(Class<T> cls, String jarPathPrefix, String name) {
    loadLib(cls, jarPathPrefix, name, JarJniConventions.platformDirectory());
  }

  /** Loads {@code name} from {@code jarPathPrefix}/{@code platformDir}/ (no platform directory when null). */
  static <T> void loadLib(Class<T> cls, String jarPathPrefix, String name, String platformDir) {
    NativeLibraryCache.load(cls, JarJniConventions.resourceName(jarPathPrefix, name, platformDir));
  }
}
