package io.omnigraph.api.storage;

import java.util.Optional;

/**
 * A handle on one storage root (a directory, or a bucket/container plus prefix) through which the
 * engine reads and writes its small control files. Table data does not go through here: Lance
 * writes it directly at {@link #lanceLocation(String)}.
 *
 * <h2>Paths</h2>
 * Every path is relative to the root, {@code /}-separated, and validated by {@link StoragePaths}
 * before any request is made; an illegal path fails with {@link StorageException.Kind#INVALID_PATH}.
 *
 * <h2>Failures</h2>
 * Every method throws {@link StorageException}, whose {@link StorageException#kind() kind} is the
 * same for the same situation on every backend. In particular a permission failure is always
 * {@code PERMISSION} (never "not found" or {@code false}), and a request whose response was lost
 * after it was sent is {@code OUTCOME_UNKNOWN}.
 *
 * <h2>Threads</h2>
 * Implementations are safe for concurrent use by multiple threads.
 *
 * <p>The conformance suite ({@code io.omnigraph.conformance}) checks all of this.
 */
public interface StorageAdapter extends AutoCloseable {

  /**
   * Reads an object and its version token with exactly one request.
   *
   * @return the object, or empty when it does not exist
   * @throws StorageException for every failure other than "does not exist"
   */
  Optional<StoredObject> readIfExists(String path) throws StorageException;

  /**
   * Reads an object as UTF-8 text with exactly one request.
   *
   * @return the text, or empty when the object does not exist
   * @throws StorageException for every failure other than "does not exist"
   */
  default Optional<String> readTextIfExists(String path) throws StorageException {
    return readIfExists(path).map(StoredObject::text);
  }

  /**
   * Reads an object as UTF-8 text.
   *
   * @throws StorageException of kind {@code NOT_FOUND} when the object does not exist, or any
   *     other kind for other failures
   */
  default String readText(String path) throws StorageException {
    Optional<String> text = readTextIfExists(path);
    if (text.isEmpty()) {
      throw StorageException.notFound(path, null);
    }
    return text.get();
  }

  /**
   * Writes a whole object under a condition. Atomic for readers: a concurrent reader sees either
   * the old whole object or the new whole object, never a partial one.
   *
   * @param path where to write
   * @param bytes the complete new content
   * @param condition {@link WriteCondition.Overwrite}, {@link WriteCondition.IfAbsent} or
   *     {@link WriteCondition.IfMatch}
   * @return the version token of the object just written
   * @throws StorageException {@code PRECONDITION_FAILED} when the condition did not hold (nothing
   *     was written); {@code OUTCOME_UNKNOWN} when the write may or may not have been applied
   */
  String put(String path, byte[] bytes, WriteCondition condition) throws StorageException;

  /**
   * {@link #put}, for a control object that nothing needs after a power failure (the engine's
   * write lease: after a power failure no process holds anything). Atomicity for readers, the
   * condition, the failure kinds and the returned version token are exactly those of
   * {@link #put}, and a process crash loses nothing; only durability against power loss is waived,
   * so an adapter may skip its syncs. After a power failure the object may be its previous
   * version, absent if it was new, or unreadable (partly written): callers treat such content as
   * stale. Object stores have nothing to skip (a completed PUT is durable): the default is
   * {@link #put}.
   *
   * @see #put
   */
  default String putNonDurable(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    return put(path, bytes, condition);
  }

  /**
   * A {@link #put} split in two: the bytes are written now and the object takes effect only at
   * {@link PreparedPut#apply}, under the condition given then, with exactly {@link #put}'s
   * atomicity, failure kinds and version token. Until applied the object is invisible (never
   * listed, never readable). A local-disk adapter writes and syncs a temp file here, so the
   * {@code apply} that a writer's protocol orders costs only the rename and the directory sync
   * (docs/storage-adapters.md, "Prepared puts"); object stores have nothing to write ahead: the
   * default keeps the bytes and puts them at {@code apply}.
   *
   * @param path where the object will be written
   * @param bytes its complete content
   * @return the prepared put; close it (it discards the bytes unless applied)
   * @throws StorageException writing the bytes failed (nothing is visible)
   */
  default PreparedPut preparePut(String path, byte[] bytes) throws StorageException {
    java.util.Objects.requireNonNull(path, "path");
    java.util.Objects.requireNonNull(bytes, "bytes");
    StorageAdapter self = this;
    return new PreparedPut() {
      private boolean used;

      @Override
      public String apply(WriteCondition condition) throws StorageException {
        if (used) {
          throw new IllegalStateException("a prepared put of " + path + " is applied at most once");
        }
        used = true;
        return self.put(path, bytes, condition);
      }

      @Override
      public void close() {
        used = true;
      }
    };
  }

  /** A put whose bytes are written and which is not applied yet ({@link #preparePut}). */
  interface PreparedPut extends AutoCloseable {
    /**
     * Makes the object visible, once, under {@code condition}.
     *
     * @return the version token of the object just written
     * @throws StorageException as {@link StorageAdapter#put}
     */
    String apply(WriteCondition condition) throws StorageException;

    /** Discards the written bytes unless applied; never throws (residue is invisible). */
    @Override
    void close();
  }

  /**
   * {@link #delete}, for an object whose reappearance after a power failure harms nothing (a
   * finished recovery sidecar, which recovery finalizes again). Readers and listings see it gone at
   * once, and a process crash does not bring it back; only the durability of the removal against
   * power loss is waived. The default is {@link #delete}.
   *
   * @see #delete
   */
  default void deleteNonDurable(String path) throws StorageException {
    delete(path);
  }

  /**
   * Tells whether an object exists at {@code path}. A "directory" (a prefix with objects below
   * it) is not an object: {@code exists("a")} is {@code false} when only {@code a/b} exists.
   *
   * @throws StorageException for any failure to find out (a permission failure is never {@code false})
   */
  boolean exists(String path) throws StorageException;

  /**
   * Deletes an object. Idempotent: deleting a missing object succeeds.
   *
   * @throws StorageException when the object may still exist afterwards
   */
  void delete(String path) throws StorageException;

  /**
   * Lists the objects directly under {@code dir} ({@code ""} is the root). Only direct children
   * are returned — not objects further down, and not the sub-prefixes themselves. Entries are
   * root-relative paths usable with every other method, sorted by the UTF-8 bytes of their names
   * ({@link StoragePaths#UTF8_ORDER}). Temp names ({@code name#<digits>}) never appear.
   *
   * <p>The listing fetches pages lazily; any page failure throws from the returned
   * {@link ObjectListing} — a listing is complete or an error, never silently partial. A missing
   * directory lists as empty.
   *
   * @throws StorageException when the first page cannot be fetched or {@code dir} is invalid
   */
  ObjectListing list(String dir) throws StorageException;

  /**
   * Deletes every object under {@code prefix} (a directory path, at any depth). Deleting an empty
   * or missing prefix succeeds.
   *
   * @throws StorageException when some object may remain
   */
  void deletePrefix(String prefix) throws StorageException;

  // --- durability of natively written files (docs/write-protocol.md, "Durability") ---

  /**
   * Makes files that were written below this root by another writer than this adapter (Lance,
   * which writes local files natively) durable, together with the directory entries naming them:
   * when this returns, a power failure cannot lose any of {@code paths} nor the link that names it.
   * Each file is synced once, then each distinct directory holding one of them once (and, the
   * first time this adapter meets a directory, the directories above it up to the root, since a
   * directory created by the writer is itself a new entry of its parent).
   *
   * <p>Object stores need nothing: a completed PUT is durable, so the default does nothing and
   * returns 0. An adapter whose objects are local files must override it.
   *
   * <p>A path may also name a directory whose entries changed without a new file to sync (files a
   * native writer removed, such as Lance's cleanup): the directory itself is synced.
   *
   * @param paths root-relative paths of regular files (or directories) that exist
   * @return how many sync calls were made (files plus directories)
   * @throws StorageException {@code NOT_FOUND} for a path that does not exist; any other failure
   *     to sync (the files may not be durable; never reported as success)
   */
  default int syncWritten(java.util.Collection<String> paths) throws StorageException {
    return 0;
  }

  /** @return what this adapter is and how it behaves */
  StorageCapabilities capabilities();

  /**
   * Where Lance should read and write the dataset stored at {@code path} under this root, with the
   * same endpoint and credentials as this adapter.
   *
   * @throws StorageException {@code INVALID_PATH} for an illegal path
   */
  LanceLocation lanceLocation(String path) throws StorageException;

  /** Releases clients and connections. Idempotent. */
  @Override
  void close() throws StorageException;
}
