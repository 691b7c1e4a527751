package io.omnigraph.api.storage;

import java.io.IOException;

/**
 * A fault-injection point for adapters that perform their own I/O (the file-system adapter): the
 * adapter calls {@link #before} immediately before each real I/O step named by {@link Point}, and
 * treats an {@link IOException} thrown from it exactly as if the operating system had failed that
 * step — it goes through the same error mapping, cleanup and {@link StorageException.Kind} as a
 * real failure. Production code never installs a hook; the conformance suite's file-system binding
 * does, through {@link StorageAdapterProvider#openWithIoHook}.
 *
 * <p>Object-store adapters inject faults below the SDK instead (the test kit's HTTP fault proxy),
 * so they need not support this hook.
 *
 * <p>Implementations must be thread-safe: adapters call the hook from any thread.
 */
@FunctionalInterface
public interface StorageIoHook {

  /** The I/O steps an adapter reports to the hook. */
  enum Point {
    /** Before reading an object ({@link StorageAdapter#readIfExists} and the reads built on it). */
    READ,
    /** Before checking whether an object exists ({@link StorageAdapter#exists}). */
    EXISTS,
    /**
     * Before fetching one page of a listing (the first page at {@link StorageAdapter#list}, later
     * pages from the returned {@link ObjectListing}).
     */
    LIST_PAGE,
    /** Before a write starts; a failure here means nothing was written. */
    PUT,
    /**
     * After a write took effect (readers see the new object) but before the adapter confirmed it
     * durable; a failure here must surface as {@link StorageException.Kind#OUTCOME_UNKNOWN}.
     */
    PUT_APPLIED,
    /** Before an object is deleted; a failure here means the object still exists. */
    DELETE,
    /**
     * Before a file or directory is synced by {@link StorageAdapter#syncWritten}; a failure here
     * means it may not be durable.
     */
    SYNC
  }

  /**
   * Called before the I/O step {@code point} on {@code path}.
   *
   * @param point the step about to run
   * @param path the root-relative path the operation addresses ({@code ""} for the root directory)
   * @throws IOException to make that step fail as a real I/O failure would
   */
  void before(Point point, String path) throws IOException;

  /** The hook that never fails: what adapters use when none is installed. */
  StorageIoHook NONE = (point, path) -> {};
}
