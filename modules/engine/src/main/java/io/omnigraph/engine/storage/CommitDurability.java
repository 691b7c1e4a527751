package io.omnigraph.engine.storage;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.engine.table.TableReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes what a Lance commit wrote durable before the write protocol takes its next step
 * (docs/write-protocol.md, "Durability"). Lance writes local files natively (temp file, rename,
 * no fsync), so on a root whose adapter keeps objects as local files every table version the
 * engine publishes, and every {@code __manifest} version it publishes, is synced through the
 * adapter's {@link io.omnigraph.api.storage.StorageAdapter#syncWritten}: the version's manifest,
 * its transaction file, every data, deletion and index file it reaches that the version the
 * writer started from did not, and each directory entry naming them. One call per group, so each
 * directory is synced once per group.
 *
 * <p>On object stores this does nothing: a completed PUT is durable.
 *
 * <p>The publisher ({@code manifest/ManifestPublisher}) is the one caller that matters: it syncs the
 * table versions it is asked to publish before its compare-and-set and its own manifest commit
 * after it, for every writer. A writer may sync its tables earlier (the write protocol does, before
 * it confirms its recovery sidecar); a version already synced by this object is not synced again.
 */
public final class CommitDurability {
  /**
   * One table version to make durable.
   *
   * @param location the dataset of the ref the version lives on (a branch's own location)
   * @param from the version the writer started from (0: none)
   * @param to the version to make durable
   * @param refOwner the dataset whose native branch {@code location} is, or {@code null} (main)
   * @param ref that branch's name, or {@code null}
   */
  public record TableCommit(LanceLocation location, long from, long to, LanceLocation refOwner, String ref) {
    public TableCommit {
      Objects.requireNonNull(location, "location");
      if ((refOwner == null) != (ref == null)) {
        throw new IllegalArgumentException("a ref needs the dataset that owns it");
      }
    }

    /** A version on a dataset's main ref. */
    public TableCommit(LanceLocation location, long from, long to) {
      this(location, from, to, null, null);
    }
  }

  private static final AtomicLong SYNC_CALLS = new AtomicLong();
  private static final AtomicLong GROUPS = new AtomicLong();

  private final GraphRoot root;
  private final String rootPath;
  /** uri@version of versions made durable already (bounded). */
  private final Set<String> done = Collections.newSetFromMap(Collections.synchronizedMap(
      new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > 4096;
        }
      }));

  /**
   * uri@version → what that version reaches, for the versions synced last (bounded): the next
   * write starts from the version the last one made, so its diff needs no second open.
   */
  private final Map<String, Set<String>> reachedCache = Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Set<String>> eldest) {
          return size() > 32;
        }
      });

  private CommitDurability(GraphRoot root) {
    this.root = root;
    this.rootPath = root == null ? null : decodedPath(root.lance(MARKER).uri(), MARKER);
  }

  private static final String MARKER = "__manifest";

  /** @return the local directory of a root whose adapter keeps local files */
  static String localRoot(GraphRoot root) {
    return decodedPath(root.lance(MARKER).uri(), MARKER);
  }

  /** @return durability for the graph at {@code root}: syncs when its adapter keeps local files */
  public static CommitDurability of(GraphRoot root) {
    Objects.requireNonNull(root, "root");
    return root.localFiles() ? new CommitDurability(root) : new CommitDurability(null);
  }

  /** @return durability that syncs nothing (object stores, and unit tests of the publisher alone) */
  public static CommitDurability none() {
    return new CommitDurability(null);
  }

  /** @return whether this object syncs anything */
  public boolean active() {
    return root != null;
  }

  /** @return sync calls made by every instance in this process (files plus directories) */
  public static long totalSyncCalls() {
    return SYNC_CALLS.get();
  }

  /** @return groups synced by every instance in this process */
  public static long totalGroups() {
    return GROUPS.get();
  }

  /**
   * Syncs every version in {@code commits} not synced before, as one group: the files the version
   * reaches that {@code from} did not, its transaction file, its manifest and the version hint; for
   * a commit of several versions (an optimize, a merge chain) also the manifest and transaction
   * file of every version in between, which recovery reads to prove what each one did.
   *
   * @return the sync calls made
   * @throws StorageFailureException a file could not be synced or was missing: the versions may not
   *     be durable
   */
  public int sync(TableReader reader, List<TableCommit> commits) {
    return sync(reader, commits, true);
  }

  /**
   * {@link #sync}, for versions that will not be asked for again (a manifest version right after
   * its publish): nothing is remembered, so no later call can skip a version of that number.
   *
   * @return the sync calls made
   */
  public int syncOnce(TableReader reader, List<TableCommit> commits) {
    return sync(reader, commits, false);
  }

  private int sync(TableReader reader, List<TableCommit> commits, boolean remember) {
    if (root == null || commits.isEmpty()) {
      return 0;
    }
    Set<String> paths = new LinkedHashSet<>();
    List<String> keys = new ArrayList<>();
    Map<String, Set<String>> listed = new LinkedHashMap<>();
    for (TableCommit c : commits) {
      String key = c.location().uri() + "@" + c.to();
      if (done.remove(key)) {
        // Synced by the same write a moment ago (its writer, then its publish): consumed here, so a
        // dataset re-created at the same location (a branch deleted and created again) never hits it.
        continue;
      }
      keys.add(key);
      String base = relative(c.location().uri());
      Set<String> before = c.from() > 0 ? reached(reader, c.location(), c.from()) : Set.of();
      TableReader.VersionFiles after = reader.versionFiles(c.location(), c.to(), c.to() > c.from());
      listed.put(key, after.files());
      for (String f : after.files()) {
        if (before.contains(f)) {
          continue;
        }
        if (f.endsWith("/")) {
          paths.addAll(root.list(base + f.substring(0, f.length() - 1)));
        } else {
          paths.add(base + f);
        }
      }
      if (after.transaction() != null) {
        paths.add(base + after.transaction());
      }
      String manifest = base + TableReader.manifestPath(c.to());
      paths.add(root.exists(manifest) ? manifest : base + TableReader.legacyManifestPath(c.to()));
      boolean chain = c.from() > 0 && c.to() - c.from() > 1;
      // A native branch of a table (a lazy fork): Lance cloned version `from` onto it with a transaction
      // of its own, and recovery restores the fork to that version; both must survive with the commit.
      boolean fork = c.from() > 0 && c.ref() != null;
      if (chain || fork) {
        for (long v = fork ? c.from() : c.from() + 1; v < c.to(); v++) {
          String between = base + TableReader.manifestPath(v);
          if (root.exists(between)) {
            paths.add(between);
          } else if (root.exists(base + TableReader.legacyManifestPath(v))) {
            paths.add(base + TableReader.legacyManifestPath(v));
          }
        }
        // The transactions of the versions in between (and of the fork's clone):
        // _transactions/<read version>-<uuid>.txn.
        for (String t : root.list(base + "_transactions")) {
          String name = t.substring(t.lastIndexOf('/') + 1);
          int dash = name.indexOf('-');
          if (dash > 0 && name.endsWith(".txn") && name.substring(0, dash).chars().allMatch(Character::isDigit)) {
            long read = Long.parseLong(name.substring(0, dash));
            if (read >= c.from() && read < c.to()) {
              paths.add(t);
            }
          }
        }
      }
      String hint = base + "_versions/latest_version_hint.json";
      if (root.exists(hint)) {
        paths.add(hint);
      }
      if (c.ref() != null) {
        // A version on a native branch of the table (a lazy fork): the branch's contents record, which
        // Lance wrote without a sync when the fork was made, is what later forks and recovery look up.
        paths.addAll(branchRecords(relative(c.refOwner().uri()), c.ref()));
      }
    }
    if (paths.isEmpty()) {
      return 0;
    }
    int calls;
    try {
      calls = root.syncWritten(paths);
    } catch (StorageException e) {
      throw new StorageFailureException("cannot make the commit durable: " + e.getMessage(),
          new ErrorDetail.Storage(e.kind().name(), e.path()), e);
    }
    // The same new files get the umask's read bits (Lance writes them 0600; LocalFileModes).
    LocalFileModes.files(java.nio.file.Path.of(rootPath), paths);
    SYNC_CALLS.addAndGet(calls);
    GROUPS.incrementAndGet();
    if (remember) {
      done.addAll(keys);
    }
    reachedCache.putAll(listed);
    return calls;
  }

  /**
   * Removes files a native writer wrote below the dataset at {@code location} that no version
   * references and none ever will (a manifest publish's files written ahead and then not used,
   * {@code ManifestPublisher.WrittenAhead}): on a root of local files only, without syncs (a file that
   * comes back after a power failure is an unreferenced orphan, as it would be if never removed);
   * elsewhere they stay, unreferenced and reclaimable. A failed removal is logged, not thrown: the
   * write it belongs to is not affected by an orphan.
   *
   * @param files paths relative to the dataset directory
   */
  public void discard(LanceLocation location, List<String> files) {
    if (root == null) {
      return;
    }
    String base = relative(location.uri());
    for (String f : files) {
      // Directly, like Lance wrote it: the adapter's delete would leave its lock file in Lance's directory.
      try {
        java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(rootPath, base + f));
      } catch (java.io.IOException | RuntimeException e) {
        System.getLogger(CommitDurability.class.getName()).log(System.Logger.Level.WARNING,
            "could not remove the unreferenced file " + base + f + " (" + e.getMessage() + "); it stays reclaimable");
      }
    }
  }

  /**
   * Syncs directories whose entries a native writer removed (Lance's cleanup), so the removal is
   * durable: each of {@code dirs} (root-relative) that exists is synced once.
   *
   * @return the sync calls made
   * @throws StorageFailureException a directory could not be synced
   */
  public int syncDirectories(List<String> dirs) {
    if (root == null || dirs.isEmpty()) {
      return 0;
    }
    int calls;
    try {
      calls = root.syncWritten(dirs);
    } catch (StorageException e) {
      throw new StorageFailureException("cannot make the removal durable: " + e.getMessage(),
          new ErrorDetail.Storage(e.kind().name(), e.path()), e);
    }
    SYNC_CALLS.addAndGet(calls);
    GROUPS.incrementAndGet();
    return calls;
  }

  /**
   * Syncs control or native files that exist under the root (root-relative), with the directories
   * naming them: for metadata a native call wrote outside a commit (a branch's contents record and
   * cloned tree).
   *
   * @return the sync calls made
   * @throws StorageFailureException a file could not be synced
   */
  public int syncFiles(List<String> files) {
    if (root == null || files.isEmpty()) {
      return 0;
    }
    int calls;
    try {
      calls = root.syncWritten(files);
    } catch (StorageException e) {
      throw new StorageFailureException("cannot make the change durable: " + e.getMessage(),
          new ErrorDetail.Storage(e.kind().name(), e.path()), e);
    }
    SYNC_CALLS.addAndGet(calls);
    GROUPS.incrementAndGet();
    return calls;
  }

  /**
   * Makes a native branch of the dataset at {@code main} durable after Lance created it: its
   * contents record under {@code _refs/branches/} and the files of its cloned tree
   * {@code tree/<name>/} (Lance keeps both on local disk without a sync), with the directories naming
   * them.
   *
   * @return the sync calls made
   * @throws StorageFailureException a file could not be synced
   */
  public int syncBranchCreated(LanceLocation main, String name) {
    if (root == null) {
      return 0;
    }
    String base = relative(main.uri());
    List<String> files = new ArrayList<>(branchRecords(base, name));
    for (String dir : List.of("_versions", "_transactions", "_refs/branches")) {
      files.addAll(root.list(base + "tree/" + name + "/" + dir));
    }
    return syncFiles(files);
  }

  /**
   * Makes the removal of the native branch {@code name} of the dataset at {@code main} durable:
   * the directories that held its contents record and its tree.
   *
   * @return the sync calls made
   */
  public int syncBranchDeleted(LanceLocation main, String name) {
    if (root == null) {
      return 0;
    }
    String base = relative(main.uri());
    int slash = name.lastIndexOf('/');
    String parent = slash < 0 ? "" : "/" + name.substring(0, slash);
    int calls = 0;
    for (String d : List.of(base + "_refs/branches" + parent, base + "tree" + parent)) {
      // The directory that lost the entry; when Lance removed that directory too, its parent.
      String dir = d;
      while (true) {
        try {
          calls += root.syncWritten(List.of(dir));
          break;
        } catch (StorageException e) {
          int up = dir.lastIndexOf('/');
          if (e.kind() != StorageException.Kind.NOT_FOUND || up <= 0) {
            throw new StorageFailureException("cannot make the removal durable: " + e.getMessage(),
                new ErrorDetail.Storage(e.kind().name(), e.path()), e);
          }
          dir = dir.substring(0, up);
        }
      }
    }
    SYNC_CALLS.addAndGet(calls);
    GROUPS.incrementAndGet();
    return calls;
  }

  /**
   * Makes what Lance's cleanup removed from the dataset at {@code dataset} durable: the directories
   * it deletes from (old manifests, transactions, data, deletion and index files). A directory that
   * does not exist is skipped, and the dataset directory is synced in its place.
   *
   * @return the sync calls made
   */
  public int syncCleanup(LanceLocation dataset) {
    if (root == null) {
      return 0;
    }
    String base = relative(dataset.uri());
    List<String> dirs = new ArrayList<>();
    boolean missing = false;
    // _refs/tags: the pin tags cleanup removes after Lance's call (docs/maintenance.md, "cleanup").
    for (String d : List.of("_versions", "_transactions", "data", "_deletions", "_indices", "_refs/tags")) {
      dirs.add(base + d);
    }
    int calls = 0;
    for (String d : dirs) {
      try {
        calls += root.syncWritten(List.of(d));
      } catch (StorageException e) {
        if (e.kind() != StorageException.Kind.NOT_FOUND) {
          throw new StorageFailureException("cannot make the cleanup durable: " + e.getMessage(),
              new ErrorDetail.Storage(e.kind().name(), e.path()), e);
        }
        missing = true;
      }
    }
    if (missing && !base.isEmpty()) {
      try {
        calls += root.syncWritten(List.of(base.substring(0, base.length() - 1)));
      } catch (StorageException e) {
        throw new StorageFailureException("cannot make the cleanup durable: " + e.getMessage(),
            new ErrorDetail.Storage(e.kind().name(), e.path()), e);
      }
    }
    SYNC_CALLS.addAndGet(calls);
    GROUPS.incrementAndGet();
    return calls;
  }

  /** @return the contents record(s) of branch {@code name} under {@code base}{@code _refs/branches/} */
  private List<String> branchRecords(String base, String name) {
    int slash = name.lastIndexOf('/');
    String dir = base + "_refs/branches" + (slash < 0 ? "" : "/" + name.substring(0, slash));
    String leaf = (slash < 0 ? name : name.substring(slash + 1)) + ".json";
    List<String> out = new ArrayList<>();
    for (String f : root.list(dir)) {
      if (f.endsWith("/" + leaf)) {
        out.add(f);
      }
    }
    if (out.isEmpty()) {
      // Another encoding of a nested name than the one assumed above: the whole directory is small.
      out.addAll(root.list(base + "_refs/branches"));
    }
    return out;
  }

  /** @return the root-relative path of the dataset directory at {@code location}, with a trailing slash */
  public String relativeDir(LanceLocation location) {
    return relative(location.uri());
  }

  /** What {@code version} reaches, from the cache of versions this object synced, else one open. */
  private Set<String> reached(TableReader reader, LanceLocation location, long version) {
    Set<String> cached = reachedCache.get(location.uri() + "@" + version);
    if (cached != null) {
      return cached;
    }
    try {
      return reader.versionFiles(location, version, false).files();
    } catch (io.omnigraph.api.NotFoundException e) {
      // The ref did not exist at that version (a branch forked later): everything is checked against nothing.
      return Set.of();
    }
  }

  /** The root-relative directory of a dataset, with a trailing slash. */
  private String relative(String datasetUri) {
    String path = decodedPath(datasetUri, "");
    if (!path.startsWith(rootPath)) {
      throw new IllegalArgumentException(datasetUri + " is not below the graph root " + rootPath);
    }
    String rel = path.substring(rootPath.length());
    while (rel.startsWith("/")) {
      rel = rel.substring(1);
    }
    while (rel.endsWith("/")) {
      rel = rel.substring(0, rel.length() - 1);
    }
    return rel.isEmpty() ? "" : rel + "/";
  }

  /** The percent-decoded path of a {@code file:} URI (or a plain path), minus {@code suffix}. */
  static String decodedPath(String uri, String suffix) {
    String u = uri;
    if (u.startsWith("file://")) {
      u = u.substring("file://".length());
      int slash = u.indexOf('/');
      u = slash < 0 ? "/" : u.substring(slash); // drop an authority such as localhost
    } else if (u.startsWith("file:")) {
      u = u.substring("file:".length());
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < u.length(); i++) {
      char ch = u.charAt(i);
      if (ch == '%' && i + 2 < u.length()) {
        out.write(Integer.parseInt(u.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] b = String.valueOf(ch).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
      }
    }
    String path = out.toString(java.nio.charset.StandardCharsets.UTF_8);
    if (!suffix.isEmpty() && path.endsWith(suffix)) {
      path = path.substring(0, path.length() - suffix.length());
    }
    return path;
  }
}
