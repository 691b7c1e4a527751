package io.omnigraph.engine.table;

import org.apache.arrow.memory.BufferAllocator;

/**
 * The engine's Lance tables: owns the native resources (Lance's runtime, one Arrow allocator, one
 * Lance session) and hands out the two sides that use them, {@link #reader()} (every read) and
 * {@link #writer()} (the single write gateway). Close it once, when the graph handle closes.
 */
public final class TableStore implements AutoCloseable {
  private final BufferAllocator allocator;
  /**
   * One Lance session for every dataset this store opens: its metadata and index caches (manifests,
   * file footers, index pages, all immutable objects) then survive from one open to the next, so
   * re-reading a table or {@code __manifest} at a newer version does not fetch again what an
   * earlier version already read.
   */
  private final org.lance.Session session;
  private final TableReader reader;
  private final TableWriter writer;

  /** Prepares Lance's native runtime ({@link LanceRuntime#prepare()}) and opens an allocator. */
  public TableStore() {
    LanceRuntime.prepare();
    this.allocator = MallocAllocations.newRoot();
    this.session = org.lance.Session.create();
    this.reader = new TableReader(allocator, session);
    this.writer = new TableWriter(reader);
  }

  /** @return the allocator every batch handed to this store should come from */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** @return the read side: opens, counts, schema, scans, id probes, transaction history */
  public TableReader reader() {
    return reader;
  }

  /** @return the single write gateway: staged writes and their commit, create, append, restore, cleanup */
  public TableWriter writer() {
    return writer;
  }

  @Override
  public void close() {
    try {
      reader.closeShared();
      session.close();
    } finally {
      allocator.close();
    }
  }
}
