package io.omnigraph.nativelib;

import java.util.Locale;

/**
 * jar-jni's naming conventions for a native library inside a jar: the platform directory (JNA's
 * resource prefix, e.g. {@code linux-x86-64}), the library prefix and suffix. jar-jni itself is not on
 * the path (this module replaces it, see {@code io.questdb.jar.jni.JarJniLoader}), so they are derived
 * here from {@code os.name} and {@code os.arch}; {@code JarJniCompatibilityTest} compares them with
 * jar-jni's own classes on the machine that runs the build.
 */
public final class NativePlatform {
  private NativePlatform() {}

  /** @return the platform directory for this JVM, e.g. {@code linux-x86-64}, {@code darwin-aarch64} */
  public static String platformDirectory() {
    return platformDirectory(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  static String platformDirectory(String osName, String osArch) {
    String arch = canonicalArch(osArch);
    String os = osName.toLowerCase(Locale.ROOT);
    if (os.startsWith("linux")) {
      return "linux-" + arch;
    }
    if (os.startsWith("mac") || os.startsWith("darwin")) {
      return "darwin-" + arch;
    }
    if (os.startsWith("windows")) {
      return "win32-" + arch;
    }
    if (os.startsWith("freebsd")) {
      return "freebsd-" + arch;
    }
    return os.replaceAll("\\s+", "") + "-" + arch;
  }

  static String canonicalArch(String osArch) {
    String arch = osArch.toLowerCase(Locale.ROOT).trim();
    switch (arch) {
      case "x86_64":
      case "amd64":
        return "x86-64";
      case "i386":
      case "i486":
      case "i586":
      case "i686":
      case "x86":
        return "x86";
      case "aarch64":
      case "arm64":
        return "aarch64";
      case "powerpc64le":
      case "ppc64le":
        return "ppc64le";
      case "powerpc64":
      case "ppc64":
        return "ppc64";
      default:
        return arch;
    }
  }

  /** @return the resource a jar-jni loader opens, e.g. {@code /nativelib/linux-x86-64/liblance_jni.so} */
  public static String resourceName(String jarPathPrefix, String name, String platformDir) {
    String dir = jarPathPrefix.endsWith("/") ? jarPathPrefix : jarPathPrefix + "/";
    if (platformDir != null) {
      dir = dir + platformDir + "/";
    }
    return dir + libraryPrefix() + name + librarySuffix();
  }

  /** @return {@code lib}, or nothing on Windows */
  public static String libraryPrefix() {
    return isWindows() ? "" : "lib";
  }

  /** @return {@code .so}, {@code .dylib} on macOS, {@code .dll} on Windows */
  public static String librarySuffix() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("mac") || os.startsWith("darwin")) {
      return ".dylib";
    }
    return isWindows() ? ".dll" : ".so";
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
  }
}
