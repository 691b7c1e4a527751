package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.lance.Dataset;

/**
 * Datasets opened at a pinned version and kept open for the reads of one graph handle
 * (docs/queries.md, "Execution"): opening a Lance dataset reads and decodes its manifest, which
 * cost a read query more than the scan of a small table. A version never changes, so one open
 * dataset serves every read query of any snapshot pinning it, from any thread (Lance takes a read
 * lock per scan). Reference counted: the cache holds one reference, each handed-out {@link
 * TableSnapshot} one more; an evicted dataset (least recently used first out, at most {@value
 * #MAX_OPEN}) is closed when its last reader closes its handle. Only read paths use it: writers
 * open their own datasets, because some Lance write calls move the dataset object they are given
 * to a new version.
 */
final class SharedDatasets {
  static final int MAX_OPEN = 64;

  private static final class Entry {
    final Dataset dataset;
    /** The dataset's version stamp, read once (a shared dataset never moves to another version). */
    final java.util.concurrent.atomic.AtomicReference<VersionStamp> stamp = new java.util.concurrent.atomic.AtomicReference<>();
    int refs = 1; // the cache's own reference

    Entry(Dataset dataset) {
      this.dataset = dataset;
    }
  }

  private final Map<String, Entry> open = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;

  /** @return a handle on the dataset at {@code location}@{@code version}, opened by {@code opener} on a miss */
  TableSnapshot acquire(LanceLocation location, long version, Supplier<Dataset> opener) {
    String key = location.uri() + "@" + version;
    Entry e;
    synchronized (this) {
      e = closed ? null : open.get(key);
      if (e != null) {
        e.refs++;
        return handle(location, e);
      }
    }
    Dataset ds = opener.get();
    List<Dataset> toClose = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        // the graph handle is closing: an unshared handle, closed by its reader
        return new TableSnapshot(location, ds);
      }
      e = open.get(key);
      if (e != null) {
        toClose.add(ds); // lost a race: use the one already cached
      } else {
        e = new Entry(ds);
        open.put(key, e);
        for (Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator(); open.size() > MAX_OPEN && it.hasNext(); ) {
          Entry old = it.next().getValue();
          if (old == e) {
            continue;
          }
          it.remove();
          if (--old.refs == 0) {
            toClose.add(old.dataset);
          }
        }
      }
      e.refs++;
    }
    toClose.forEach(Dataset::close);
    return handle(location, e);
  }

  private TableSnapshot handle(LanceLocation location, Entry e) {
    return new TableSnapshot(location, e.dataset, () -> release(e), e.stamp);
  }

  private void release(Entry e) {
    boolean close;
    synchronized (this) {
      close = --e.refs == 0;
    }
    if (close) {
      e.dataset.close();
    }
  }

  /** Drops the cache's references; datasets still in use close with their last handle. */
  void close() {
    List<Dataset> toClose = new ArrayList<>();
    synchronized (this) {
      closed = true;
      for (Entry e : open.values()) {
        if (--e.refs == 0) {
          toClose.add(e.dataset);
        }
      }
      open.clear();
    }
    toClose.forEach(Dataset::close);
  }
}
