package io.omnigraph.engine.load;

import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The outcome of reading and validating one NDJSON load: every touched table with its rows, node
 * tables first (schema order), then edge tables. Every row has passed per-value checks, key and
 * id derivation, duplicate-id, {@code @unique}, referential-integrity and {@code @card} checks
 * against this load plus the {@link io.omnigraph.engine.snapshot.GraphSnapshot} it was prepared against; what remains for the engine is the
 * strict-insert key conflict against committed rows (append) and the write itself.
 *
 * <p>Holds the tables' Arrow memory until {@link #close()}.
 */
public final class ValidatedLoad implements AutoCloseable {
  private final List<TableRows> tables;
  private final long lines;
  private final BufferAllocator ownedAllocator;

  ValidatedLoad(List<TableRows> tables, long lines, BufferAllocator ownedAllocator) {
    this.tables = List.copyOf(tables);
    this.lines = lines;
    this.ownedAllocator = ownedAllocator;
  }

  /** @return touched tables (a table appears only if the input had at least one row for it) */
  public List<TableRows> tables() {
    return tables;
  }

  /** @return number of non-blank input lines */
  public long lines() {
    return lines;
  }

  /**
   * @param tableKey {@code node:T} or {@code edge:E}
   * @return that table's rows, if touched
   */
  public Optional<TableRows> table(String tableKey) {
    return tables.stream().filter(t -> t.spec().tableKey().equals(tableKey)).findFirst();
  }

  /** @return total node rows */
  public long nodeRows() {
    return tables.stream().filter(t -> !t.isEdge()).mapToLong(TableRows::size).sum();
  }

  /** @return total edge rows */
  public long edgeRows() {
    return tables.stream().filter(TableRows::isEdge).mapToLong(TableRows::size).sum();
  }

  /** Releases the tables' Arrow memory (and the loader's own allocator, if it made one). */
  @Override
  public void close() {
    tables.forEach(TableRows::close);
    if (ownedAllocator != null) {
      ownedAllocator.close();
    }
  }
}
