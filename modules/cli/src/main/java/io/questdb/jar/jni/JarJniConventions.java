package io.questdb.jar.jni;

/**
 * jar-jni's naming conventions (platform directory, library prefix and suffix), read from jar-jni's
 * own {@code Platform} and {@code PlatformConventions} classes at run time so they cannot diverge;
 * jar-jni is a run-time dependency of Lance, not on the CLI's compile path.
 */
final class JarJniConventions {
  private JarJniConventions() {}

  /** @return e.g. {@code linux-x86-64} */
  static String platformDirectory() {
    return constant("io.questdb.jar.jni.Platform", "RESOURCE_PREFIX");
  }

  /** @return the resource jar-jni's loader would open, e.g. {@code /nativelib/linux-x86-64/liblance_jni.so} */
  static String resourceName(String jarPathPrefix, String name, String platformDir) {
    String dir = jarPathPrefix.endsWith("/") ? jarPathPrefix : jarPathPrefix + "/";
    if (platformDir != null) {
      dir = dir + platformDir + "/";
    }
    return dir + constant("io.questdb.jar.jni.PlatformConventions", "LIB_PREFIX") + name
        + constant("io.questdb.jar.jni.PlatformConventions", "LIB_SUFFIX");
  }

  private static String constant(String className, String field) {
    try {
      return (String) Class.forName(className).getField(field).get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("jar-jni's " + className + "." + field + " is not on the class path", e);
    }
  }
}
