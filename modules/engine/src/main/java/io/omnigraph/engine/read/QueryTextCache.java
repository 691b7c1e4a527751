package io.omnigraph.engine.read;

import io.omnigraph.api.PreparedQuery;
import io.omnigraph.engine.schema.CompiledSchema;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Read queries run by text keep their plans (docs/queries.md, "Plan caching"): the prepared query
 * of each (schema, query text, query name) is kept, so a text run again reuses its idle plans
 * exactly as a prepared query does. Keyed by the identity of the schema the query was checked
 * against: a schema change gives the graph a new schema object, so every text is checked and
 * planned anew against it (the old entries are never hit again and age out).
 *
 * <p>Bounded, least recently used first out: at most {@link #maxEntries()} entries (system
 * property {@value #ENTRIES}, default {@value #DEFAULT_ENTRIES}; 0 turns the cache off) holding
 * at most {@link #maxChars()} characters of query text in all (system property {@value #CHARS},
 * default {@value #DEFAULT_CHARS}); a text longer than a quarter of that is never kept. Both are
 * read on every use. An entry costs its text plus the checked query and at most {@value
 * PlanPool#SLOTS} idle plans (a few KB each). Failures (parse and type errors) are not kept.
 * Process-wide and thread-safe: the map is guarded by one lock held for a lookup or an insert,
 * never while a query is parsed, checked or planned; two threads missing the same key at once
 * both prepare it and the first insert wins.
 */
public final class QueryTextCache {
  /** System property: the most prepared queries kept (0: off). */
  public static final String ENTRIES = "omnigraph.read.queryCache";
  /** System property: the most query text characters kept in all. */
  public static final String CHARS = "omnigraph.read.queryCacheChars";
  static final int DEFAULT_ENTRIES = 256;
  static final long DEFAULT_CHARS = 4L << 20;

  /** The process's cache (every graph of this process uses it). */
  public static final QueryTextCache SHARED = new QueryTextCache();

  private record Key(CompiledSchema schema, String queryName, String gqText) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.schema == schema && k.queryName.equals(queryName) && k.gqText.equals(gqText);
    }

    @Override
    public int hashCode() {
      return (System.identityHashCode(schema) * 31 + queryName.hashCode()) * 31 + gqText.hashCode();
    }
  }

  private final LinkedHashMap<Key, PreparedQuery> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long chars;
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  QueryTextCache() {}

  /** @return the most entries kept (system property {@value #ENTRIES}) */
  static int maxEntries() {
    return Integer.getInteger(ENTRIES, DEFAULT_ENTRIES);
  }

  /** @return the most query text characters kept in all (system property {@value #CHARS}) */
  static long maxChars() {
    return Long.getLong(CHARS, DEFAULT_CHARS);
  }

  /**
   * The prepared query of this text against {@code schema}: the kept one, or a new one (then
   * kept). Pure apart from the cache.
   *
   * @throws io.omnigraph.api.InvalidInputException as {@link GraphReads#prepare}
   */
  public PreparedQuery prepare(CompiledSchema schema, String gqText, String queryName) {
    int max = maxEntries();
    long maxChars = maxChars();
    if (max <= 0 || gqText == null || queryName == null || gqText.length() > maxChars / 4) {
      return GraphReads.prepare(schema, gqText, queryName);
    }
    Key key = new Key(schema, queryName, gqText);
    synchronized (entries) {
      PreparedQuery kept = entries.get(key);
      if (kept != null) {
        hits.incrementAndGet();
        return kept;
      }
    }
    misses.incrementAndGet();
    PreparedQuery made = GraphReads.prepare(schema, gqText, queryName);
    synchronized (entries) {
      PreparedQuery raced = entries.putIfAbsent(key, made);
      if (raced != null) {
        return raced;
      }
      chars += gqText.length();
      for (Iterator<Map.Entry<Key, PreparedQuery>> it = entries.entrySet().iterator();
          it.hasNext() && (entries.size() > max || chars > maxChars); ) {
        Map.Entry<Key, PreparedQuery> eldest = it.next();
        if (eldest.getKey() != key) {
          chars -= eldest.getKey().gqText.length();
          it.remove();
        }
      }
    }
    return made;
  }

  /** @return how many prepared queries are kept */
  public int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /** @return how many text characters the kept entries hold */
  long chars() {
    synchronized (entries) {
      return chars;
    }
  }

  /** @return lookups answered by a kept entry since the process started (or {@link #clear}) */
  public long hits() {
    return hits.get();
  }

  /** @return lookups that prepared the query */
  public long misses() {
    return misses.get();
  }

  /** Forgets every entry and zeroes the counters (tests). */
  public void clear() {
    synchronized (entries) {
      entries.clear();
      chars = 0;
      hits.set(0);
      misses.set(0);
    }
  }
}
