package io.omnigraph.engine.table;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The datasets a graph handle's writes left open, one per location, so that the next write opens
 * nothing it already has (docs/maintenance.md, "Request count of a 1-row insert"): the table
 * version a write committed is exactly the version the next write on that table stages against
 * (opening it again costs a HEAD and a GET on an object store), and the {@code __manifest} version a
 * publish made is, while no other writer published, the latest one the next write captures and
 * revalidates against (a GET each time). A Lance version never changes, so a handle on it is as
 * good as a fresh open of the same version.
 *
 * <p>Ownership moves: {@link #keep} takes the handle (the caller no longer closes it), {@link
 * #take} hands it out to exactly one user, who closes it or keeps it again. A handle is never
 * shared, so writers may commit through it. Only owned handles of main refs are kept: a branch (of
 * {@code __manifest} or of a table) can be deleted and re-created under the same name with other
 * content at the same version number, a main ref cannot.
 */
final class KeptDatasets {
  private final Map<String, TableSnapshot> byUri = new HashMap<>();
  private boolean closed;

  /**
   * Keeps {@code s} (an owned handle) as the dataset of its location, replacing an older one; a
   * shared handle, or one older than the one kept, is closed instead.
   */
  void keep(TableSnapshot s) {
    TableSnapshot drop;
    synchronized (this) {
      TableSnapshot old = byUri.get(s.location().uri());
      // A ref under tree/ is a branch (docs/branches.md): never kept, whoever asks.
      if (closed || s.shared() || old == s || s.location().uri().contains("/tree/")
          || old != null && old.version() > s.version()) {
        drop = old == s ? null : s;
      } else {
        byUri.put(s.location().uri(), s);
        drop = old;
      }
    }
    if (drop != null) {
      drop.close();
    }
  }

  /** @return the kept handle of {@code uri} at exactly {@code version}, now the caller's; empty otherwise */
  synchronized Optional<TableSnapshot> take(String uri, long version) {
    TableSnapshot s = byUri.get(uri);
    if (s == null || s.version() != version) {
      return Optional.empty();
    }
    byUri.remove(uri);
    return Optional.of(s);
  }

  /** @return the kept handle of {@code uri} at whatever version it has, now the caller's */
  synchronized Optional<TableSnapshot> take(String uri) {
    return Optional.ofNullable(byUri.remove(uri));
  }

  /** Closes every kept handle (the store is closing). */
  void close() {
    Map<String, TableSnapshot> all;
    synchronized (this) {
      closed = true;
      all = new HashMap<>(byUri);
      byUri.clear();
    }
    all.values().forEach(TableSnapshot::close);
  }
}
