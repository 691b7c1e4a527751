package io.omnigraph.nativelib;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The numeric id of the user this process runs as, for ownership checks on cache files. */
final class CurrentUser {
  private static final long UID = lookUp();

  private CurrentUser() {}

  /** @return the effective user id, or -1 where there is none (not a Unix-like system) */
  static long uid() {
    return UID;
  }

  /**
   * Linux: the effective uid from {@code /proc/self/status}. Elsewhere {@link UnixSystem}, which
   * reports uid 0 for a user without a password-database entry (a uid given by {@code setpriv} or
   * a container), so it is only the fallback.
   */
  private static long lookUp() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return Long.parseLong(line.substring(4).trim().split("\\s+")[1]); // real, effective, saved, fs
        }
      }
    } catch (IOException | RuntimeException e) {
      // no procfs: ask the JDK
    }
    try {
      return new UnixSystem().getUid();
    } catch (LinkageError | RuntimeException e) {
      return -1;
    }
  }
}
