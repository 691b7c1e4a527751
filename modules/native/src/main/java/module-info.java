/**
 * Loads Lance's native library from a per-user cache instead of extracting it at every JVM start.
 *
 * <p>Exports {@code io.questdb.jar.jni} (the replacement for jar-jni's {@code JarJniLoader}, which
 * Lance calls; the automatic module {@code lance.core} reads every module, so it finds this one on
 * the module path) and {@code io.omnigraph.nativelib} (the cache). The engine requires this module,
 * so it is resolved whenever the engine is; on the class path it is simply one more jar, and jar-jni
 * is excluded from Lance's dependencies (docs/library.md, "Lance's native library").
 */
module io.omnigraph.nativelib {
  requires jdk.security.auth;

  exports io.omnigraph.nativelib;
  exports io.questdb.jar.jni;
}
