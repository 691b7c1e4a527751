package io.omnigraph.adapter.fs;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Maps {@code java.nio.file} failures onto the SPI's {@link Kind}s, in one place. */
final class FsErrors {
  private FsErrors() {}

  /**
   * @param e the failure of a file-system call
   * @param path the root-relative path the SPI call addressed
   * @param action what the adapter was doing, for the message (e.g. "read")
   */
  static StorageException map(IOException e, String path, String action) {
    if (e instanceof StorageException se) {
      return se;
    }
    return new StorageException(kindOf(e), path, action + " failed: " + describe(e), e);
  }

  static Kind kindOf(IOException e) {
    if (e instanceof AccessDeniedException) {
      return Kind.PERMISSION;
    }
    if (e instanceof NoSuchFileException) {
      // Every caller handles "the object is not there" itself (empty read, false, empty listing,
      // idempotent delete). A NoSuchFileException that still reaches here means a directory on the
      // path vanished mid-operation (a concurrent deletePrefix): nothing was written, and a retry
      // recreates the directory.
      return Kind.TRANSIENT;
    }
    // EROFS has no dedicated exception type in java.nio.file; its strerror text is stable on every
    // POSIX libc. A write refused by a read-only mount is a permission problem, not a transient one.
    if (e instanceof FileSystemException fse && fse.getReason() != null
        && fse.getReason().contains("Read-only file system")) {
      return Kind.PERMISSION;
    }
    return Kind.PERMANENT;
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
