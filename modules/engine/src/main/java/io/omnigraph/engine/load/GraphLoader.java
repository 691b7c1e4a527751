package io.omnigraph.engine.load;

import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.validate.GraphRules;
import io.omnigraph.engine.write.WriteErrors;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Reads a strict graph-batch NDJSON stream (docs/ndjson-format.md) and validates it against a compiled
 * schema and the committed graph, writing the rows straight into per-table Arrow vectors ({@link
 * TableRows}). No Lance calls happen here; with a {@link BatchSink} (overwrite only) full batches are
 * handed out while reading so memory stays bounded.
 *
 * <p>Line format: {@code {"type":"T","data":{...}}} for nodes, {@code
 * {"edge":"E","from":"<src id>","to":"<dst id>","data":{...}}} for edges; blank lines are
 * skipped. The loader wires the jobs of one load together: {@link NdjsonLines} frames the lines;
 * {@link FastLineDecoder} streams each line into the vectors and declines any line it is not sure
 * of (any error, or a rare shape such as {@code data} before {@code type}); {@link
 * ExactLineDecoder} re-reads a declined line and reports the same error, with the same precedence,
 * as a whole-line check would, or writes the row if it is valid after all; {@link LoadTables}
 * keeps the rows per table; {@link GraphRules} runs the checks across rows at the end. No
 * per-row maps or boxed rows are kept: ids, lines and edge endpoints are held in compact arenas.
 *
 * <p>Every failure is an {@link InvalidInputException} naming the line and field, with a {@link
 * LoadRule} code; a row-limit overflow is a {@link io.omnigraph.api.ResourceLimitException}.
 * Nothing is published by the loader: validation completes before the caller commits anything.
 *
 * <p>Mode semantics: {@code APPEND} and {@code OVERWRITE} reject a repeated id within the load;
 * {@code MERGE} keeps the last row for an id. {@code OVERWRITE} ignores committed rows of the
 * tables it touches (they are being replaced) for referential integrity, uniqueness and
 * cardinality, and refuses to orphan committed edges of untouched edge types.
 *
 * <p>{@code @card} is checked for the sources of the edges in this load (committed + pending
 * count), as in the reference: sources that get no edge are not re-checked, and in merge mode a
 * committed edge whose id is re-loaded with a different {@code from} is not re-counted against its
 * old source.
 */
public final class GraphLoader {
  /** Default maximum bytes of one input line (32 MiB). */
  public static final int DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
  /** Default maximum JSON tokens of one input line (docs/ndjson-format.md, "Lines"). */
  public static final long DEFAULT_MAX_LINE_TOKENS = 131_072;

  private final CompiledSchema schema;
  private final LoadMode mode;
  private final GraphSnapshot committed;
  private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
  private long maxRowsPerTable = Long.MAX_VALUE;
  private LongConsumer progress = n -> {};
  private long maxLineTokens = DEFAULT_MAX_LINE_TOKENS;
  private BufferAllocator allocator;
  private BatchSink sink;
  private TableBatchWriter pipelined;
  private int sinkRows;
  private boolean exactOnly;
  private long exactLines;

  /**
   * @param schema the accepted schema
   * @param mode append, merge or overwrite
   * @param committed the snapshot the load is prepared against (its rows count for the graph rules)
   */
  public GraphLoader(CompiledSchema schema, LoadMode mode, GraphSnapshot committed) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.mode = Objects.requireNonNull(mode, "mode");
    this.committed = Objects.requireNonNull(committed, "committed");
  }

  /**
   * A loader validating against a graph with no committed rows (the input alone).
   *
   * @param schema the accepted schema
   * @param mode append, merge or overwrite
   */
  public GraphLoader(CompiledSchema schema, LoadMode mode) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.mode = Objects.requireNonNull(mode, "mode");
    this.committed = null;
  }

  /**
   * @param bytes maximum bytes per line (excluding the newline)
   * @return this
   */
  public GraphLoader maxLineBytes(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive");
    }
    this.maxLineBytes = bytes;
    return this;
  }

  /**
   * @param tokens maximum JSON tokens per line (field names, values, brackets)
   * @return this
   */
  public GraphLoader maxLineTokens(long tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException("maxLineTokens must be positive");
    }
    this.maxLineTokens = tokens;
    return this;
  }

  /**
   * Caps the rows of any one table (the engine passes 8,192 for append and merge). Exceeding it is
   * a {@link io.omnigraph.api.ResourceLimitException} reporting the full observed count; rows past
   * the cap are counted but not retained.
   *
   * @param rows the inclusive cap
   * @return this
   */
  public GraphLoader maxRowsPerTable(long rows) {
    this.maxRowsPerTable = rows;
    return this;
  }

  /**
   * @param allocator where the tables' Arrow vectors are allocated (default: an allocator owned by
   *     the returned {@link ValidatedLoad})
   * @return this
   */
  public GraphLoader allocator(BufferAllocator allocator) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    return this;
  }

  /**
   * Streams full batches of {@code rowsPerBatch} rows (or 16 MiB) to {@code sink} while reading,
   * and the last partial batch of each table after every check has passed; the tables of the
   * result then hold ids and lines only. Only for {@code OVERWRITE} loads, whose rows are never
   * replaced within the load.
   *
   * @param sink receives each batch synchronously
   * @param rowsPerBatch rows per streamed batch (at least 1)
   * @return this
   */
  public GraphLoader batchSink(BatchSink sink, int rowsPerBatch) {
    if (mode != LoadMode.OVERWRITE) {
      throw new IllegalStateException("only overwrite loads stream batches, not " + mode);
    }
    if (rowsPerBatch < 1) {
      throw new IllegalArgumentException("rowsPerBatch must be positive");
    }
    this.sink = Objects.requireNonNull(sink, "sink");
    this.sinkRows = rowsPerBatch;
    return this;
  }

  /**
   * {@link #batchSink} with the writes on a second thread: each full batch is handed to one writer
   * thread and the loader reads on while it is written (at most one batch in flight; see {@link
   * PipelinedBatchSink}). The last partial batches are written after every check has passed, and
   * {@link #load} returns only when every batch is written; a write failure is thrown by {@link
   * #load} as raised. Only for {@code OVERWRITE} loads.
   *
   * @param writer opens each table (on the loader's thread) and writes its batches (on the writer thread)
   * @param rowsPerBatch rows per streamed batch (at least 1)
   * @return this
   */
  public GraphLoader pipelinedBatchSink(TableBatchWriter writer, int rowsPerBatch) {
    batchSink((table, batch) -> {
      throw new IllegalStateException("replaced by the pipeline of each load");
    }, rowsPerBatch);
    this.pipelined = Objects.requireNonNull(writer, "writer");
    return this;
  }

  /** Test hook: read every line with the exact (tree) path, to compare it with the fast path. */
  GraphLoader exactOnly() {
    this.exactOnly = true;
    return this;
  }

  /** @return lines the last {@link #load} read with the exact path (declined by the fast path) */
  long exactLines() {
    return exactLines;
  }

  /**
   * @param listener called with the number of lines read so far: after the first line, every 1,024 lines and at the end
   * @return this
   */
  public GraphLoader progress(LongConsumer listener) {
    this.progress = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * An append whose input holds ids that already exist is a key conflict, and the user is told so
   * before any cross-row rule that the existing rows make fail (a node appended twice otherwise
   * reads as an {@code @card} or uniqueness error; docs/edge-keys.md). Probed only when a cross-row
   * rule failed: otherwise the strict insert reports the same conflict when it is staged.
   */
  private RuntimeException existingIdsFirst(List<TableRows> ordered, InvalidInputException crossRow) {
    if (mode != LoadMode.APPEND || committed == null) {
      return crossRow;
    }
    for (TableRows t : ordered) {
      List<String> existing = committed.existingIds(t.spec().tableKey(), t.ids());
      if (!existing.isEmpty()) {
        RuntimeException conflict = WriteErrors.keyConflict(t.spec().tableKey(), existing, "already exists");
        conflict.addSuppressed(crossRow);
        return conflict;
      }
    }
    return crossRow;
  }

  /**
   * Reads and validates the whole input.
   *
   * @param in NDJSON input (UTF-8); not closed
   * @return the validated rows
   * @throws IOException if reading {@code in} fails
   * @throws InvalidInputException on the first invalid line or cross-row violation
   * @throws io.omnigraph.api.ResourceLimitException if a table exceeds {@link #maxRowsPerTable(long)}
   */
  public ValidatedLoad load(InputStream in) throws IOException {
    BufferAllocator owned = allocator == null ? io.omnigraph.engine.table.MallocAllocations.newRoot() : null;
    BufferAllocator alloc = allocator == null ? owned : allocator;
    PipelinedBatchSink pipeline = pipelined == null ? null : new PipelinedBatchSink(pipelined);
    LoadTables tables = new LoadTables(schema, mode, maxRowsPerTable, alloc, pipeline != null ? pipeline : sink, sinkRows);
    SchemaLookups lookups = new SchemaLookups(schema);
    // Made on the first line the fast path declines: most loads never need it, and its JSON tree
    // reader costs a cold process a few hundred classes (docs/benchmarks.md, "Cold start of a bulk load").
    ExactLineDecoder exact = null;
    try (FastLineDecoder fast = new FastLineDecoder(lookups, tables, maxLineTokens)) {
      NdjsonLines lines = new NdjsonLines(in, maxLineBytes);
      long nonBlank = 0;
      while (lines.next()) {
        if (lines.isBlank()) {
          continue;
        }
        nonBlank++;
        if (exactOnly || !fast.line(lines.buffer(), lines.length(), lines.lineNumber())) {
          exactLines++;
          if (exact == null) {
            exact = new ExactLineDecoder(lookups, tables, maxLineTokens);
          }
          exact.line(lines.buffer(), lines.length(), lines.lineNumber());
        }
        if (nonBlank % 1024 == 0 || nonBlank == 1) {
          progress.accept(nonBlank); // the first row too: a progress rate starts its clock there
        }
      }
      progress.accept(nonBlank);
      List<TableRows> ordered = tables.finishReading();
      try {
        GraphRules.checkPending(ordered, schema.catalog().edges(), committed, table -> Set.of(),
            mode == LoadMode.OVERWRITE);
      } catch (InvalidInputException crossRow) {
        throw existingIdsFirst(ordered, crossRow);
      }
      for (TableRows t : ordered) {
        t.flushRest();
      }
      if (pipeline != null) {
        pipeline.drain();
      }
      return new ValidatedLoad(ordered, nonBlank, owned);
    } catch (RuntimeException | IOException | Error e) {
      if (pipeline != null) {
        pipeline.abandon(e); // waits for a batch being written: no file is written after load() returns
      }
      tables.closeAll();
      if (owned != null) {
        owned.close();
      }
      throw e;
    }
  }
}
