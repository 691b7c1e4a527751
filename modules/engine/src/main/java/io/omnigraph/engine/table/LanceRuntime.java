package io.omnigraph.engine.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Prepares the process for Lance's native library before the first Lance class is used.
 *
 * <p>Lance's ~180 MB {@code liblance_jni*.so} is loaded from omnigraph-native's per-user cache
 * (docs/library.md); only when that cache cannot be used is it copied into {@code java.io.tmpdir}
 * (deleted at normal exit; a JVM killed by a native panic leaves it behind, so repeated crashes
 * would fill the disk). Applications should point {@code java.io.tmpdir} at a dedicated directory; this
 * class creates that directory if needed and deletes stale copies in it. A copy is stale when it was
 * last modified more than {@link #STALE_AFTER} ago: a running JVM has already mapped its copy, and on
 * POSIX systems deleting a mapped file does not affect the mapping, while a copy being extracted right
 * now is younger than the threshold.
 */
public final class LanceRuntime {
  /** Copies older than this are deleted by {@link #prepare()}. */
  public static final Duration STALE_AFTER = Duration.ofMinutes(2);

  private static volatile boolean prepared;

  private LanceRuntime() {}

  /**
   * Creates {@code java.io.tmpdir} if missing and deletes stale native-library copies in it. Runs
   * once per process; later calls return immediately.
   *
   * @throws UncheckedIOException when the temp directory cannot be created (Lance could not start)
   */
  public static void prepare() {
    if (prepared) {
      return;
    }
    synchronized (LanceRuntime.class) {
      if (prepared) {
        return;
      }
      Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
      try {
        Files.createDirectories(tmp);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create java.io.tmpdir " + tmp + " for Lance's native library", e);
      }
      sweepStaleNativeCopies(tmp, Instant.now().minus(STALE_AFTER));
      prepared = true;
    }
  }

  /**
   * Deletes {@code liblance_jni*} files in {@code dir} last modified before {@code cutoff}.
   *
   * @return the deleted files
   */
  static List<Path> sweepStaleNativeCopies(Path dir, Instant cutoff) {
    List<Path> deleted = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "liblance_jni*")) {
      for (Path f : files) {
        FileTime modified = Files.getLastModifiedTime(f);
        if (modified.toInstant().isBefore(cutoff)) {
          // Losing a race with another sweeper is fine: the file is gone either way.
          Files.deleteIfExists(f);
          deleted.add(f);
        }
      }
    } catch (IOException e) {
      // Deliberate: a failed sweep only leaves disk space unreclaimed; it must not stop the engine.
      System.getLogger(LanceRuntime.class.getName()).log(System.Logger.Level.WARNING,
          "could not sweep stale Lance native libraries in " + dir + ": " + e);
    }
    return deleted;
  }
}
