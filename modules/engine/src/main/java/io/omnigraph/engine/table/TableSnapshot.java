package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import java.util.Map;
import java.util.Objects;
import org.lance.Dataset;

/**
 * An open Lance dataset pinned at one version. Obtained from {@link TableReader} (or a {@link TableWriter} commit); close it when done.
 * Other packages hold it as an opaque handle and read through {@link TableReader}.
 */
public final class TableSnapshot implements AutoCloseable {
  private final LanceLocation location;
  private final Dataset dataset;
  /** For a handle on a shared dataset ({@link TableReader#openShared}): gives the reference back; null otherwise. */
  private final Runnable release;
  /** For a shared handle: the stamp, computed once per shared dataset (its version never moves); null otherwise. */
  private final java.util.concurrent.atomic.AtomicReference<VersionStamp> stampMemo;
  private boolean closed;

  TableSnapshot(LanceLocation location, Dataset dataset) {
    this(location, dataset, null);
  }

  TableSnapshot(LanceLocation location, Dataset dataset, Runnable release) {
    this(location, dataset, release, null);
  }

  TableSnapshot(LanceLocation location, Dataset dataset, Runnable release,
      java.util.concurrent.atomic.AtomicReference<VersionStamp> stampMemo) {
    this.location = Objects.requireNonNull(location);
    this.dataset = Objects.requireNonNull(dataset);
    this.release = release;
    this.stampMemo = stampMemo;
  }

  /** @return where the dataset lives */
  public LanceLocation location() {
    return location;
  }

  /** @return the pinned version */
  public long version() {
    return dataset.version();
  }

  /**
   * @return the pinned version's identity (number and commit time), read from the open manifest
   *     without I/O; a shared handle's is read once per shared dataset (Lance returns the commit
   *     time as text, parsed on every call, which cost a cached read query a third of its time
   *     before its code was compiled)
   */
  public VersionStamp stamp() {
    if (stampMemo == null) {
      return readStamp();
    }
    VersionStamp s = stampMemo.get();
    if (s == null) {
      s = readStamp();
      stampMemo.set(s);
    }
    return s;
  }

  private VersionStamp readStamp() {
    java.time.Instant at = dataset.getVersion().getDataTime().toInstant();
    return new VersionStamp(dataset.version(), at.getEpochSecond() * 1_000_000_000L + at.getNano());
  }

  /** @return the schema-level metadata of the pinned version */
  public Map<String, String> schemaMetadata() {
    Map<String, String> m = dataset.getSchema().getCustomMetadata();
    return m == null ? Map.of() : m;
  }

  Dataset dataset() {
    return dataset;
  }

  /** @return whether this handle shares its dataset with other readers ({@link TableReader#openShared}) */
  public boolean shared() {
    return release != null;
  }

  @Override
  public void close() {
    if (release == null) {
      dataset.close();
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    release.run();
  }
}
