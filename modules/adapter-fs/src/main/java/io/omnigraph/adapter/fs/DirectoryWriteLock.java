package io.omnigraph.adapter.fs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Mutual exclusion for the writers of one directory, across threads and across processes.
 *
 * <p>Two layers, because neither is enough alone: an OS file lock ({@code fcntl}) on the
 * directory's lock file excludes other processes, but the JVM refuses a second lock on the same
 * file from another thread ({@link OverlappingFileLockException}) instead of waiting — so threads of
 * this JVM first queue on a striped in-JVM lock keyed by the directory.
 *
 * <p>The lock file is named {@value #LOCK_FILE_NAME}: a temp name, so it is never listed and can
 * never be addressed as an object. It is created on first use and left in place: deleting a lock
 * file another process is waiting on would let a third process lock a fresh file and break the
 * exclusion. Only {@code deletePrefix} removes it, together with the directory.
 */
final class DirectoryWriteLock implements AutoCloseable {
  static final String LOCK_FILE_NAME = ".omnigraph-lock#0";
  private static final ReentrantLock[] STRIPES = new ReentrantLock[64];

  static {
    for (int i = 0; i < STRIPES.length; i++) {
      STRIPES[i] = new ReentrantLock();
    }
  }

  private final ReentrantLock stripe;
  private final FileChannel channel;
  private final FileLock fileLock;

  private DirectoryWriteLock(ReentrantLock stripe, FileChannel channel, FileLock fileLock) {
    this.stripe = stripe;
    this.channel = channel;
    this.fileLock = fileLock;
  }

  /** Blocks until this thread holds the write lock of {@code dir} (which must exist). */
  static DirectoryWriteLock acquire(Path dir) throws IOException {
    ReentrantLock stripe = STRIPES[Math.floorMod(dir.toString().hashCode(), STRIPES.length)];
    stripe.lock();
    FileChannel channel = null;
    try {
      channel = FileChannel.open(dir.resolve(LOCK_FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      return new DirectoryWriteLock(stripe, channel, lockFile(channel));
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException closeFailure) {
          e.addSuppressed(closeFailure);
        }
      }
      stripe.unlock();
      throw e;
    }
  }

  private static FileLock lockFile(FileChannel channel) throws IOException {
    while (true) {
      try {
        return channel.lock();
      } catch (OverlappingFileLockException e) {
        // Only possible when a second copy of this class (another class loader or module layer in
        // the same JVM) holds the file lock: its stripes are not ours. Wait for it to let go.
        try {
          Thread.sleep(1);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          InterruptedIOException iioe = new InterruptedIOException("interrupted while waiting for a directory lock");
          iioe.initCause(ie);
          throw iioe;
        }
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      fileLock.release();
    } finally {
      try {
        channel.close();
      } finally {
        stripe.unlock();
      }
    }
  }
}
