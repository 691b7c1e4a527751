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
   */
  public record TableCommit(LanceLocation location, long from, long to) {
    public TableCommit {
      Objects.requireNonNull(location, "location");
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
   * Syncs every version in {@code commits} not synced before, as one group.
   *
   * @return the sync calls made
   * @throws StorageFailureException a file could not be synced or was missing: the versions may not
   *     be durable
   */
  public int sync(TableReader reader, List<TableCommit> commits) {
    if (root == null || commits.isEmpty()) {
      return 0;
    }
    Set<String> paths = new LinkedHashSet<>();
    List<String> keys = new ArrayList<>();
    for (TableCommit c : commits) {
      String key = c.location().uri() + "@" + c.to();
      if (done.contains(key)) {
        continue;
      }
      keys.add(key);
      String base = relative(c.location().uri());
      for (String f : reader.filesAddedBetween(c.location(), c.from(), c.to())) {
        if (f.endsWith("/")) {
          paths.addAll(root.list(base + f.substring(0, f.length() - 1)));
        } else {
          paths.add(base + f);
        }
      }
      String manifest = base + TableReader.manifestPath(c.to());
      paths.add(root.exists(manifest) ? manifest : base + TableReader.legacyManifestPath(c.to()));
      String hint = base + "_versions/latest_version_hint.json";
      if (root.exists(hint)) {
        paths.add(hint);
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
    done.addAll(keys);
    return calls;
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
