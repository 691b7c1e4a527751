package io.omnigraph.nativelib;

import com.sun.security.auth.module.UnixSystem;

/** The numeric id of the user this process runs as, for ownership checks on cache files. */
final class CurrentUser {
  private static final long UID = lookUp();

  private CurrentUser() {}

  /** @return the effective user id, or -1 where there is none (not a Unix-like system) */
  static long uid() {
    return UID;
  }

  private static long lookUp() {
    try {
      return new UnixSystem().getUid();
    } catch (LinkageError | RuntimeException e) {
      return -1;
    }
  }
}
