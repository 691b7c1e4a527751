package io.omnigraph.adapter.fs;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageCapabilities;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StorageIoHook;
import io.omnigraph.api.storage.StorageIoHook.Point;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A storage root that is a local directory; every object is a regular file below it.
 *
 * <h2>Atomic writes</h2>
 * {@code put} writes the bytes to {@code <name>#<random digits>} in the target's directory, forces
 * them to disk ({@code fdatasync}: bytes and size), moves the temp file into place in one atomic
 * step, then forces the directory, so a reader sees the old whole file or the new whole file and a
 * crash leaves at worst an invisible temp file. Temp names are skipped by {@link #list} and refused
 * as addresses by {@link StoragePaths}, so a residue can never be read, listed or overwritten as
 * data. {@code putNonDurable} and {@code deleteNonDurable} are the same steps without the two
 * syncs: atomic for readers and across process crashes, not across a power failure.
 *
 * <h2>Conditions</h2>
 * <ul>
 *   <li>{@code IfAbsent} publishes with a hard link ({@code link(2)} fails if the name exists), which
 *       is atomic against writers in every thread and process; the file system must support hard
 *       links, or the write fails with {@code CONFIGURATION} rather than degrade to check-then-write.</li>
 *   <li>{@code IfMatch}, {@code Overwrite} and {@code delete} run while holding the directory's write
 *       lock ({@link DirectoryWriteLock}: an in-JVM lock plus an {@code fcntl} lock on a lock file), so
 *       the compare and the replace of {@code IfMatch} are one step for every other writer, in this
 *       process or another on the same host.</li>
 * </ul>
 *
 * <h2>Version token</h2>
 * The lower-case hex SHA-256 of the object's bytes — like an S3 ETag, it names the content, not the
 * write. Two writes of identical bytes therefore share a token; that is safe for compare-and-set:
 * an {@code IfMatch} that succeeds replaces exactly the bytes its caller read, so no update it has
 * not seen is lost. Being derived from the bytes, the token of a read always belongs to exactly the
 * bytes returned with it, with no extra metadata to keep in sync.
 *
 * <h2>What differs from an object store, unavoidably</h2>
 * A name cannot be an object and a directory at once: writing {@code a} while {@code a/b} exists
 * (or {@code a/b} while object {@code a} exists) fails with {@code PERMANENT}. Names must be
 * representable in the JVM's file-name encoding ({@code sun.jnu.encoding}; run with a UTF-8 locale),
 * otherwise they fail with {@code INVALID_PATH}. Entries that are not regular files, and names
 * {@link StoragePaths} would refuse, are not listed. Permission failures are {@code PERMISSION}.
 */
final class FsStorageAdapter implements StorageAdapter {
  static final int DEFAULT_LIST_PAGE_SIZE = 1000;

  private final Path root;
  private final int listPageSize;
  private final StorageIoHook hook;

  FsStorageAdapter(Path root, int listPageSize, StorageIoHook hook) {
    this.root = root;
    this.listPageSize = listPageSize;
    this.hook = hook;
  }

  @Override
  public Optional<StoredObject> readIfExists(String path) throws StorageException {
    String p = StoragePaths.validate(path);
    Path file = resolve(p);
    byte[] bytes;
    try {
      hook.before(Point.READ, p);
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      if (isNotAnObject(file)) {
        return Optional.empty();
      }
      throw FsErrors.map(e, p, "read");
    }
    return Optional.of(new StoredObject(bytes, version(bytes)));
  }

  @Override
  public boolean exists(String path) throws StorageException {
    String p = StoragePaths.validate(path);
    Path file = resolve(p);
    try {
      hook.before(Point.EXISTS, p);
      return Files.readAttributes(file, BasicFileAttributes.class).isRegularFile();
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      if (isNotAnObject(file)) {
        return false;
      }
      throw FsErrors.map(e, p, "exists");
    }
  }

  @Override
  public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    return put(path, bytes, condition, true);
  }

  /** {@link #put} without its syncs: the same temp file, rename or link and locks, no fdatasync, no directory fsync. */
  @Override
  public String putNonDurable(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    return put(path, bytes, condition, false);
  }

  private String put(String path, byte[] bytes, WriteCondition condition, boolean durable) throws StorageException {
    java.util.Objects.requireNonNull(condition, "condition");
    String p = StoragePaths.validate(path);
    Path temp = temp(p, bytes, durable);
    return publish(p, temp, bytes, condition, durable);
  }

  /**
   * The temp file and its {@code fdatasync} now (invisible: temp names are never listed or
   * addressable); the rename or link and the directory sync at {@code apply}.
   */
  @Override
  public PreparedPut preparePut(String path, byte[] bytes) throws StorageException {
    String p = StoragePaths.validate(path);
    Path temp = temp(p, bytes, true);
    return new PreparedPut() {
      private boolean used;

      @Override
      public String apply(WriteCondition condition) throws StorageException {
        java.util.Objects.requireNonNull(condition, "condition");
        synchronized (this) {
          if (used) {
            throw new IllegalStateException("a prepared put of " + p + " is applied at most once");
          }
          used = true;
        }
        return publish(p, temp, bytes, condition, true);
      }

      @Override
      public synchronized void close() {
        if (!used) {
          used = true;
          try {
            Files.deleteIfExists(temp);
          } catch (IOException e) {
            // Invisible residue (a temp name), like a temp file left by a crash.
          }
        }
      }
    };
  }

  /** Writes {@code bytes} to a new temp file beside {@code p}'s target (synced when {@code durable}). */
  private Path temp(String p, byte[] bytes, boolean durable) throws StorageException {
    java.util.Objects.requireNonNull(bytes, "bytes");
    Path target = resolve(p);
    Path dir = target.getParent();
    try {
      hook.before(Point.PUT, p);
      Files.createDirectories(dir);
      return writeTemp(dir, target.getFileName().toString(), bytes, durable);
    } catch (FileAlreadyExistsException e) {
      throw new StorageException(Kind.PERMANENT, p,
          "a parent of this path is an object; the file adapter cannot store an object below another object", e);
    } catch (IOException e) {
      throw FsErrors.map(e, p, "write");
    }
  }

  /** Moves the temp file into place under {@code condition}; removes it when that fails first. */
  private String publish(String p, Path temp, byte[] bytes, WriteCondition condition, boolean durable)
      throws StorageException {
    Path target = resolve(p);
    Path dir = target.getParent();
    // Once the temp file is in place under the target's name, it must not be deleted any more:
    // the temp name is gone (rename) or is a second link of the live object (IfAbsent).
    boolean[] published = {false};
    try {
      if (condition instanceof WriteCondition.IfAbsent) {
        publishIfAbsent(p, temp, target, published, durable);
      } else if (condition instanceof WriteCondition.IfMatch ifMatch) {
        try (DirectoryWriteLock lock = DirectoryWriteLock.acquire(dir)) {
          checkVersion(p, target, ifMatch.version());
          replace(p, temp, target);
          published[0] = true;
          applied(p, dir, durable);
        }
      } else if (condition instanceof WriteCondition.Overwrite) {
        try (DirectoryWriteLock lock = DirectoryWriteLock.acquire(dir)) {
          replace(p, temp, target);
          published[0] = true;
          applied(p, dir, durable);
        }
      } else {
        throw new IllegalArgumentException("unknown write condition " + condition);
      }
      return version(bytes);
    } catch (IOException | RuntimeException e) {
      StorageException failure = e instanceof IOException io ? FsErrors.map(io, p, "write") : null;
      if (!published[0]) {
        // The write failed before it took effect. Remove the temp file; if even that fails, the
        // residue is invisible (never listed, never addressable) and the caller sees both errors.
        try {
          Files.deleteIfExists(temp);
        } catch (IOException cleanup) {
          e.addSuppressed(cleanup);
          if (failure != null) {
            failure.addSuppressed(cleanup);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
      throw (RuntimeException) e;
    }
  }

  /** Links the temp file into place (fails if the name exists), then removes the temp name. */
  private void publishIfAbsent(String p, Path temp, Path target, boolean[] published, boolean durable)
      throws IOException {
    try {
      Files.createLink(target, temp);
      published[0] = true;
    } catch (FileAlreadyExistsException e) {
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new StorageException(Kind.PERMANENT, p,
            "a directory of this name exists; the file adapter cannot store an object and a prefix under one name", e);
      }
      throw StorageException.preconditionFailed(p, "IfAbsent: an object already exists", e);
    } catch (UnsupportedOperationException e) {
      throw new StorageException(Kind.CONFIGURATION, p,
          "the file system does not support hard links, which IfAbsent needs to be atomic", e);
    } catch (IOException e) {
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new StorageException(Kind.PERMANENT, p,
            "a directory of this name exists; the file adapter cannot store an object and a prefix under one name", e);
      }
      throw e;
    }
    // The object is now visible. Everything below only tidies up; a failure means the write
    // happened but could not be confirmed durable.
    try {
      Files.delete(temp);
      applied(p, target.getParent(), durable);
    } catch (IOException e) {
      throw outcomeUnknown(p, e);
    }
  }

  private void replace(String p, Path temp, Path target) throws IOException {
    try {
      // On POSIX, ATOMIC_MOVE is rename(2), which replaces an existing file atomically.
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new StorageException(Kind.PERMANENT, p,
            "a directory of this name exists; the file adapter cannot store an object and a prefix under one name", e);
      }
      throw e;
    }
  }

  /** The new object is visible; report it to the hook and (when asked) make the rename durable. */
  private void applied(String p, Path dir, boolean durable) throws StorageException {
    try {
      hook.before(Point.PUT_APPLIED, p);
      if (durable) {
        forceDirectory(dir);
      }
    } catch (IOException e) {
      throw outcomeUnknown(p, e);
    }
  }

  private static StorageException outcomeUnknown(String p, IOException e) {
    return new StorageException(Kind.OUTCOME_UNKNOWN, p,
        "the new object is in place but could not be confirmed durable: " + e, e);
  }

  private void checkVersion(String p, Path target, String expected) throws IOException {
    byte[] current;
    try {
      current = Files.readAllBytes(target);
    } catch (NoSuchFileException e) {
      throw StorageException.preconditionFailed(p, "IfMatch: no object exists", e);
    } catch (IOException e) {
      if (isNotAnObject(target)) {
        throw StorageException.preconditionFailed(p, "IfMatch: no object exists", e);
      }
      throw e;
    }
    if (!version(current).equals(expected)) {
      throw StorageException.preconditionFailed(p, "IfMatch: the object has another version", null);
    }
  }

  private static Path writeTemp(Path dir, String name, byte[] bytes, boolean durable) throws IOException {
    while (true) {
      // 18 random digits, never starting with 0: never equal to the lock file's "#0".
      Path temp = dir.resolve(name + "#" + ThreadLocalRandom.current().nextLong(100_000_000_000_000_000L,
          1_000_000_000_000_000_000L));
      FileChannel ch;
      try {
        ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        continue; // another writer drew the same digits; draw again
      }
      try (ch) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        if (durable) {
          // fdatasync: the bytes and the size, which is all a reader of the renamed file needs.
          ch.force(false);
        }
      } catch (IOException e) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException cleanup) {
          e.addSuppressed(cleanup);
        }
        throw e;
      }
      return temp;
    }
  }

  @Override
  public void delete(String path) throws StorageException {
    delete(path, true);
  }

  /** {@link #delete} without the directory fsync. */
  @Override
  public void deleteNonDurable(String path) throws StorageException {
    delete(path, false);
  }

  private void delete(String path, boolean durable) throws StorageException {
    String p = StoragePaths.validate(path);
    Path file = resolve(p);
    Path dir = file.getParent();
    try {
      hook.before(Point.DELETE, p);
      if (!Files.isDirectory(dir)) {
        return; // no directory, so no object: deleting a missing object succeeds
      }
      try (DirectoryWriteLock lock = DirectoryWriteLock.acquire(dir)) {
        BasicFileAttributes attrs;
        try {
          attrs = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          return;
        }
        if (attrs.isDirectory()) {
          return; // a directory is a prefix, not an object
        }
        Files.deleteIfExists(file);
        if (durable) {
          forceDirectory(dir);
        }
      }
    } catch (NoSuchFileException e) {
      return; // the directory vanished while we looked (a concurrent deletePrefix): nothing to delete
    } catch (IOException e) {
      throw FsErrors.map(e, p, "delete");
    }
  }

  @Override
  public ObjectListing list(String dir) throws StorageException {
    String d = StoragePaths.validateDirectory(dir);
    Path directory = d.isEmpty() ? root : resolve(d);
    List<String> names = new ArrayList<>();
    try {
      hook.before(Point.LIST_PAGE, d);
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
        for (Path child : stream) {
          String name = child.getFileName().toString();
          if (StoragePaths.isTempName(name) || !addressable(StoragePaths.join(d, name))) {
            continue;
          }
          names.add(name);
        }
      }
    } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
      // a missing directory lists as empty; so does a path that is an object or lies below one
      return ObjectListing.of(List.of());
    } catch (IOException e) {
      throw FsErrors.map(e, d, "list");
    }
    names.sort(StoragePaths.UTF8_ORDER);
    FsListing listing = new FsListing(d, directory, names, listPageSize, hook);
    listing.fetchFirstPage();
    return listing;
  }

  private static boolean addressable(String path) {
    try {
      StoragePaths.validate(path);
      return true;
    } catch (StorageException e) {
      return false; // a file some other program created under a name no adapter may address
    }
  }

  @Override
  public void deletePrefix(String prefix) throws StorageException {
    String d = StoragePaths.validateDirectory(prefix);
    Path start = d.isEmpty() ? root : resolve(d);
    if (!Files.isDirectory(start, LinkOption.NOFOLLOW_LINKS)) {
      return; // nothing below a missing prefix (or below an object of that name)
    }
    try {
      Files.walkFileTree(start, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          hook.before(Point.DELETE, relative(file));
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
          if (failure != null) {
            throw failure;
          }
          if (!directory.equals(root)) {
            Files.deleteIfExists(directory);
          }
          return FileVisitResult.CONTINUE;
        }
      });
      forceDirectory(start.equals(root) ? root : start.getParent());
    } catch (NoSuchFileException e) {
      // a concurrent deletePrefix removed part of the tree first: that part is gone, as asked
      if (Files.exists(start, LinkOption.NOFOLLOW_LINKS)) {
        throw FsErrors.map(e, d, "deletePrefix");
      }
    } catch (IOException e) {
      throw FsErrors.map(e, d, "deletePrefix");
    }
  }

  // --- durability of natively written files ---

  /**
   * Directories whose entry in their parent this adapter has made durable, with the file key
   * ({@code dev:inode}) they had then: a directory deleted and created again under the same name
   * has another key and is synced again.
   */
  private final java.util.concurrent.ConcurrentHashMap<Path, Object> durableDirs =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * fdatasyncs each file (a directory given as a path is synced as a directory) and fsyncs each
   * distinct directory holding one once, all at once ({@link #forceAll}); a directory met for the first
   * time also gets its parent synced (up to the root's parent), because the writer may just have
   * created it. Never reports success for a sync that failed.
   */
  @Override
  public int syncWritten(java.util.Collection<String> paths) throws StorageException {
    java.util.Objects.requireNonNull(paths, "paths");
    List<SyncTarget> targets = new ArrayList<>();
    java.util.TreeSet<Path> dirs = new java.util.TreeSet<>(
        java.util.Comparator.comparingInt(Path::getNameCount).reversed().thenComparing(java.util.Comparator.naturalOrder()));
    for (String path : new java.util.LinkedHashSet<>(paths)) {
      String p = StoragePaths.validate(path);
      Path file = resolve(p);
      if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
        dirs.add(file); // entries removed by a native writer: the directory itself is synced
        continue;
      }
      targets.add(new SyncTarget(file, p, false));
      dirs.add(file.getParent());
    }
    // Directories never met before: their own entries (up to the root's) may be new too.
    java.util.Map<Path, Object> keys = new java.util.HashMap<>();
    for (Path d : new java.util.ArrayList<>(dirs)) {
      for (Path q = d; q != null && q.startsWith(root); q = q.getParent()) {
        Object key = fileKey(q);
        keys.put(q, key);
        if (key != null && key.equals(durableDirs.get(q))) {
          break;
        }
        if (q.getParent() != null) {
          dirs.add(q.getParent());
        }
      }
    }
    for (Path d : dirs) {
      targets.add(new SyncTarget(d, d.startsWith(root) && !d.equals(root) ? relative(d) : d.toString(), true));
    }
    forceAll(targets);
    // Only now, with every sync done, remember which directories' entries are durable.
    keys.forEach((dir, key) -> {
      if (key != null) {
        durableDirs.put(dir, key);
      }
    });
    return targets.size();
  }

  /** One file ({@code fdatasync}) or directory ({@code fsync}) to sync; {@code rel} names it in errors and to the hook. */
  private record SyncTarget(Path path, String rel, boolean directory) {}

  /**
   * Threads that issue the syncs of one group at once. Every sync of a group is independent (the
   * group is complete only when all are), and issued together the file system commits them in as
   * few journal commits and device flushes as it can (on ext4 and XFS concurrent fsyncs share a
   * commit), where one after another each waits for its own. Daemon threads, gone when idle.
   */
  private static final java.util.concurrent.ExecutorService SYNC_THREADS = new java.util.concurrent.ThreadPoolExecutor(
      0, 16, 10, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "omnigraph-fs-sync");
        t.setDaemon(true);
        return t;
      }, new java.util.concurrent.ThreadPoolExecutor.CallerRunsPolicy());

  /** Syncs every target, all at once; returns only when each is synced, and throws if any failed. */
  private void forceAll(List<SyncTarget> targets) throws StorageException {
    if (targets.isEmpty()) {
      return;
    }
    List<java.util.concurrent.Future<?>> running = new ArrayList<>();
    for (int i = 1; i < targets.size(); i++) {
      SyncTarget t = targets.get(i);
      running.add(SYNC_THREADS.submit(() -> {
        force(t);
        return null;
      }));
    }
    StorageException failure = null;
    Throwable unchecked = null;
    try {
      force(targets.get(0));
    } catch (StorageException e) {
      failure = e;
    } catch (RuntimeException | Error e) {
      unchecked = e;
    }
    boolean interrupted = false;
    for (java.util.concurrent.Future<?> f : running) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // every started sync is waited for: none may be reported before it ends
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof RuntimeException | e.getCause() instanceof Error) {
            unchecked = unchecked == null ? e.getCause() : unchecked;
          } else if (failure == null) {
            failure = (StorageException) e.getCause();
          } else {
            failure.addSuppressed(e.getCause());
          }
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (unchecked instanceof RuntimeException r) {
      throw r; // a hook's own exception (a test failpoint), as a sequential sync would have thrown it
    }
    if (unchecked instanceof Error err) {
      throw err;
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void force(SyncTarget t) throws StorageException {
    try {
      hook.before(Point.SYNC, t.rel());
      if (t.directory()) {
        forceDirectory(t.path());
      } else {
        try (FileChannel ch = FileChannel.open(t.path(), StandardOpenOption.READ)) {
          // fdatasync: the file's bytes and size; its name is made durable by its directory's sync.
          ch.force(false);
        }
      }
    } catch (NoSuchFileException e) {
      throw StorageException.notFound(t.rel(), e);
    } catch (IOException e) {
      throw FsErrors.map(e, t.rel(), t.directory() ? "sync directory" : "sync");
    }
  }

  private static Object fileKey(Path dir) {
    try {
      return Files.readAttributes(dir, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null; // unknown: synced again next time
    }
  }

  @Override
  public StorageCapabilities capabilities() {
    return new StorageCapabilities("file", true, listPageSize);
  }

  @Override
  public LanceLocation lanceLocation(String path) throws StorageException {
    LanceLocation known = locations.get(path);
    if (known != null) {
      return known;
    }
    String p = StoragePaths.validate(path);
    String uri = resolve(p).toUri().toString();
    if (uri.endsWith("/")) {
      uri = uri.substring(0, uri.length() - 1); // Path.toUri marks existing directories with a slash
    }
    LanceLocation l = new LanceLocation(uri, java.util.Map.of());
    if (locations.size() >= MAX_LOCATIONS) {
      locations.clear();
    }
    locations.put(path, l);
    return l;
  }

  /**
   * Locations already resolved, by path: a local location is a pure function of the root and the
   * path (no credentials, the trailing slash {@code Path.toUri} adds for an existing directory
   * removed), and resolving one costs a {@code stat} and URI parsing on every read query's open of
   * each table (docs/storage-adapters.md). At most {@value #MAX_LOCATIONS}, then forgotten.
   */
  private final java.util.concurrent.ConcurrentHashMap<String, LanceLocation> locations =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MAX_LOCATIONS = 4096;

  @Override
  public void close() {
    // Nothing to release: every operation opens and closes its own files.
  }

  @Override
  public String toString() {
    return "FsStorageAdapter[" + root + "]";
  }

  Path resolve(String validated) throws StorageException {
    Path p;
    try {
      p = root.resolve(validated).normalize();
    } catch (InvalidPathException e) {
      throw new StorageException(Kind.INVALID_PATH, validated,
          "not representable as a local file name (sun.jnu.encoding=" + System.getProperty("sun.jnu.encoding")
              + "; run the JVM with a UTF-8 locale): " + e.getMessage(), e);
    }
    if (!p.startsWith(root) || p.equals(root)) {
      throw new StorageException(Kind.INVALID_PATH, validated, "path escapes the storage root");
    }
    return p;
  }

  String relative(Path file) {
    return root.relativize(file).toString().replace(java.io.File.separatorChar, '/');
  }

  /**
   * Whether a failed access to {@code file} just means "there is no object here": the path is a
   * directory, or one of its parents below the root is a regular file (so it cannot have children).
   */
  private boolean isNotAnObject(Path file) {
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    for (Path q = file.getParent(); q != null && q.startsWith(root) && !q.equals(root); q = q.getParent()) {
      if (Files.isRegularFile(q, LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
    }
    return false;
  }

  static void forceDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  static String version(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }
}
