package io.omnigraph.engine.load;

import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadProgress;
import io.omnigraph.api.LoadResult;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.KeyedWriteMode;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.table.TableWriter;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.engine.write.KeyedWrites;
import io.omnigraph.engine.write.StaleAttempt;
import io.omnigraph.engine.write.WriteContext;
import io.omnigraph.engine.write.WriteToken;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One {@link io.omnigraph.api.Graph#load}: prepare → effect → publish, as docs/write-protocol.md
 * describes. This class prepares and stages; {@link GraphWrite} does the effect and the
 * publish. Append and merge re-prepare the whole attempt (re-reading the kept input, up to
 * {@value StaleAttempt#MAX_PRE_EFFECT_REPREPARES} times) when another write published in between;
 * overwrite then fails with ReadSetChanged; a head expectation
 * ({@link LoadOptions#expectedHead()}) that does not hold is PreconditionFailed.
 *
 * <ol>
 *   <li>Resolve one snapshot of the target branch: its head, the schema accepted there and every
 *       table's published version.</li>
 *   <li>Read and validate the whole input against the schema and that cut, straight into Arrow
 *       batches. Append and merge cap each table at 8,192 rows (and TableStore at 32 MiB) before
 *       anything is staged; an overwrite writes its full batches as staged, uncommitted fragments
 *       while it reads, so its memory is bounded by one batch per table — except into a table the
 *       branch has not written yet, which has no ref before the sidecar is armed: those batches go
 *       to an {@link OverwriteSpool} and are staged onto the fork after arming (docs/branches.md,
 *       "Lazy table forks").</li>
 *   <li>Stage one Lance transaction per touched table (strict insert, upsert or overwrite); no HEAD
 *       moves.</li>
 *   <li>Hand the staged transactions to {@link GraphWrite}, which checks the live HEADs, commits them
 *       exactly and publishes ONE graph commit with the expected head and table versions.</li>
 * </ol>
 */
public final class GraphLoad {
  private static final long PROGRESS_INTERVAL_NANOS = 250_000_000L;
  /**
   * Overwrite batches streamed to staged fragments while reading (also capped at 16 MiB of Arrow
   * buffers by the loader): each becomes at least one data file, so fewer, larger batches mean fewer
   * fragments; smaller ones mean less memory.
   */
  private static final int OVERWRITE_BATCH_ROWS = 1 << 16;

  private final WriteContext graph;
  private final String branch;
  private final LoadMode mode;
  private final LoadOptions options;
  private final long started = System.nanoTime();
  private TrackedInput tracked; // the input as given to run(), to tell its failures from the graph's
  private long lastReport = started;
  private long firstRow; // System.nanoTime() when the first input row was read; 0 before

  /**
   * @param graph what the load needs of the open graph
   * @param branch the branch it writes
   * @param mode append, merge or overwrite
   * @param options actor, message, head expectation, progress
   */
  public GraphLoad(WriteContext graph, String branch, LoadMode mode, LoadOptions options) {
    this.graph = graph;
    this.branch = branch;
    this.mode = mode;
    this.options = options;
  }

  /**
   * @param in the NDJSON input (read to its end; not closed)
   * @return what was loaded and the commit it published
   */
  public LoadResult run(InputStream in) {
    tracked = in instanceof TrackedInput t ? t : new TrackedInput(in);
    // Append and merge may re-prepare, which re-reads the input: keep what the first pass read.
    ReplayableInput input = new ReplayableInput(tracked, mode != LoadMode.OVERWRITE);
    return StaleAttempt.withReprepare(graph.gate(), () -> attempt(input.next()));
  }

  /** One prepare → effect → publish attempt, from a fresh snapshot of the branch head. */
  private LoadResult attempt(InputStream in) {
    TableStore tables = graph.tables();
    Map<String, Long> phases = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    Streamed streamed = new Streamed();
    // The branch identity is read before and after the snapshot: equal reads bind the snapshot to
    // that incarnation of the branch (a delete and re-create in between is a typed conflict).
    String identity = graph.snapshots().branchIdentity(branch);
    try (GraphSnapshot committed = graph.snapshots().resolve(GraphRef.branch(branch))) {
      graph.snapshots().requireBranchIdentity(branch, identity);
      WriteToken token = WriteToken.capture(committed.manifest(), branch, identity, committed.schema().ir().hash());
      token.requireHead(options.expectedHead(), committed.manifest());
      return attempt(in, committed, token, phases, t0, streamed);
    } finally {
      streamed.close(); // every spool file goes, whatever happened
    }
  }

  /**
   * Where an overwrite's batches went while it read: staged fragments of a table's own ref, or — for
   * a table the branch touches first, which has no ref before the sidecar is armed — a spool file
   * ({@link OverwriteSpool}), replayed onto the fork after arming.
   */
  private static final class Streamed implements AutoCloseable {
    final Map<String, TableWriter.OverwriteStaging> staged = new LinkedHashMap<>();
    final Map<String, OverwriteSpool> spooled = new LinkedHashMap<>();

    @Override
    public void close() {
      spooled.values().forEach(OverwriteSpool::close);
    }
  }

  private LoadResult attempt(InputStream in, GraphSnapshot committed, WriteToken token, Map<String, Long> phases,
      long t0, Streamed streamed) {
    TableStore tables = graph.tables();
    try (ValidatedLoad validated = validate(in, committed, streamed)) {
      long t1 = System.nanoTime();
      phases.put("validate", t1 - t0);
      List<Prepared> prepared = new ArrayList<>();
      try {
        for (TableRows rows : validated.tables()) {
          prepared.add(stage(tables, committed, rows, streamed));
        }
        long t2 = System.nanoTime();
        phases.put("stage", t2 - t1);
        List<GraphWrite.TableEffect> effects = new ArrayList<>();
        for (Prepared p : prepared) {
          effects.add(p.firstTouch != null ? new GraphWrite.TableEffect(p.spec, p.entry, p.firstTouch)
              : new GraphWrite.TableEffect(p.spec, p.entry, p.snapshot, p.staged));
        }
        graph.beforeEffectWindow().run();
        GraphWrite.Outcome outcome = graph.writer().commitAndPublish(new GraphWrite.Intent(
            GraphWrite.WriterKind.LOAD, token, options.actor(), options.message(), effects,
            mode == LoadMode.OVERWRITE ? GraphWrite.OnMovement.READ_SET_CHANGED : GraphWrite.OnMovement.REPREPARE,
            options.expectedHead()));
        String commitId = outcome.commitId();
        phases.putAll(outcome.phaseNanos());
        options.progress().onProgress(new LoadProgress(validated.lines(), elapsed(), true, sinceFirstRow()));
        Map<String, Long> written = new LinkedHashMap<>();
        for (Prepared p : prepared) {
          written.put(p.spec.tableKey(), p.rowsWritten);
        }
        return new LoadResult(commitId, mode, validated.lines(), written, phases);
      } finally {
        for (Prepared p : prepared) {
          p.close();
        }
      }
    }
  }

  /** The load input, replayable for re-prepares when {@code keep} (append and merge). */
  private static final class ReplayableInput {
    private final InputStream first;
    private final java.io.ByteArrayOutputStream kept;
    private boolean used;

    ReplayableInput(InputStream in, boolean keep) {
      this.first = in;
      this.kept = keep ? new java.io.ByteArrayOutputStream() : null;
    }

    InputStream next() {
      if (!used) {
        used = true;
        return kept == null ? first : new java.io.FilterInputStream(first) {
          @Override
          public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
              kept.write(b);
            }
            return b;
          }

          @Override
          public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
              kept.write(buf, off, n);
            }
            return n;
          }
        };
      }
      if (kept == null) {
        throw new IllegalStateException("an overwrite load is never re-prepared");
      }
      return new java.io.ByteArrayInputStream(kept.toByteArray());
    }
  }

  /**
   * Reads and validates the input into Arrow batches. An overwrite streams its full batches into
   * staged (uncommitted) fragments as they fill — or, for a first-touch table, into its spool — so
   * memory stays bounded by one batch per table; nothing is committed before validation is complete
   * (GraphWrite commits after this returns).
   */
  private ValidatedLoad validate(InputStream in, GraphSnapshot committed, Streamed streamed) {
    TableStore tables = graph.tables();
    GraphLoader loader = new GraphLoader(committed.schema(), mode, committed)
        .progress(this::reportLines).allocator(tables.allocator());
    if (mode != LoadMode.OVERWRITE) {
      loader.maxRowsPerTable(KeyedWrites.MAX_ROWS);
    } else {
      // Parsing and validation go on while the previous full batch is written (docs/ndjson-format.md,
      // "Streaming and memory"); each table's staging is opened on this thread, its writes on the writer's.
      loader.pipelinedBatchSink(spec -> {
        if (committed.forkPlan(spec.tableKey(), tables.writer()).isPresent()) {
          // First touch on the branch: no ref before the sidecar names it (docs/branches.md, "Lazy table forks").
          OverwriteSpool spool = streamed.spooled.computeIfAbsent(spec.tableKey(),
              k -> OverwriteSpool.open(k, spec.arrowSchema()));
          return spool::write;
        }
        TableWriter.OverwriteStaging staging = streamed.staged.computeIfAbsent(spec.tableKey(),
            k -> tables.writer().beginOverwrite(committed.tableForWrite(k, tables.writer()), k, spec.arrowSchema()));
        return staging::write;
      }, OVERWRITE_BATCH_ROWS);
    }
    try {
      return loader.load(in);
    } catch (IOException e) {
      if (tracked != null && tracked.threw(e)) {
        throw new InvalidInputException("cannot read the load input: " + e.getMessage(), null, e);
      }
      // Not the input's: Lance's native binding threw it while writing the graph (e.g. a streamed
      // overwrite batch into a directory this user may not write).
      throw io.omnigraph.engine.table.LanceErrors.asEngineError("the graph (branch " + branch + ")", "write", e);
    }
  }

  private void reportLines(long lines) {
    long now = System.nanoTime();
    if (firstRow == 0 && lines > 0) {
      firstRow = now; // the loader reports its first row: start-up ends here (docs/cli.md, "load")
    }
    if (now - lastReport >= PROGRESS_INTERVAL_NANOS) {
      lastReport = now;
      options.progress().onProgress(new LoadProgress(lines, elapsed(), false, sinceFirstRow()));
    }
  }

  private Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - started);
  }

  private Duration sinceFirstRow() {
    return firstRow == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - firstRow);
  }

  /** One touched table: its pinned snapshot and staged transaction (the batches belong to the ValidatedLoad). */
  private static final class Prepared implements AutoCloseable {
    final TableSpec spec;
    final TableEntry entry;
    final TableSnapshot snapshot;
    StagedWrite staged;
    io.omnigraph.engine.write.FirstTouch firstTouch; // instead of staged: forked and staged after arming
    long rowsWritten;

    Prepared(TableSpec spec, TableEntry entry, TableSnapshot snapshot) {
      this.spec = spec;
      this.entry = entry;
      this.snapshot = snapshot;
    }

    @Override
    public void close() {
      // Nothing owned: the ValidatedLoad releases the Arrow memory.
    }
  }

  private Prepared stage(TableStore tables, GraphSnapshot committed, TableRows rows, Streamed streamed) {
    TableSpec spec = rows.spec();
    TableEntry entry = committed.entry(spec.tableKey());
    java.util.Optional<io.omnigraph.engine.table.TableFork.Plan> fork = committed.forkPlan(spec.tableKey(),
        tables.writer());
    if (fork.isPresent() && mode == LoadMode.OVERWRITE) {
      // A first-touch overwrite: its batches wait in the spool; forked, staged on the fork from the
      // spool and the spool removed only after the sidecar is armed (docs/branches.md, "Lazy table forks").
      OverwriteSpool spool = streamed.spooled.get(spec.tableKey());
      if (spool != null) {
        spool.finish();
      }
      Prepared p = new Prepared(spec, entry, null);
      p.firstTouch = io.omnigraph.engine.write.FirstTouch.of(fork.get(), s -> {
        TableWriter.OverwriteStaging staging = tables.writer().beginOverwrite(s, spec.tableKey(), spec.arrowSchema());
        if (spool != null) {
          try {
            spool.replay(tables.allocator(), staging::write);
          } finally {
            spool.close(); // the file is not needed again: an overwrite is never re-prepared
          }
        }
        return staging.finish();
      });
      p.rowsWritten = spool == null ? 0 : spool.rows();
      return p;
    }
    if (fork.isPresent()) {
      // A first-touch table on a branch (docs/branches.md, "Lazy table forks"): checked now against the
      // parent's ref at the same version, forked and staged only after the sidecar is armed.
      VectorSchemaRoot batch = single(rows);
      KeyedWriteMode keyed = mode == LoadMode.APPEND ? KeyedWriteMode.STRICT_INSERT : KeyedWriteMode.UPSERT;
      KeyedWrites.preflight(tables.reader(), committed.table(spec.tableKey()), spec.tableKey(), batch, keyed);
      Prepared p = new Prepared(spec, entry, null);
      p.firstTouch = io.omnigraph.engine.write.FirstTouch.of(fork.get(),
          s -> KeyedWrites.stage(tables.writer(), s, spec.tableKey(), batch, keyed));
      p.rowsWritten = keyed == KeyedWriteMode.STRICT_INSERT ? batch.getRowCount()
          : io.omnigraph.engine.table.KeyCollision.distinctIds(batch);
      return p;
    }
    TableSnapshot snapshot = committed.tableForWrite(spec.tableKey(), tables.writer());
    Prepared p = new Prepared(spec, entry, snapshot);
    p.staged = switch (mode) {
      case APPEND -> KeyedWrites.stage(tables.writer(), snapshot, spec.tableKey(), single(rows),
          KeyedWriteMode.STRICT_INSERT);
      case MERGE -> KeyedWrites.stage(tables.writer(), snapshot, spec.tableKey(), single(rows), KeyedWriteMode.UPSERT);
      case OVERWRITE -> streamed.staged.containsKey(spec.tableKey())
          ? streamed.staged.get(spec.tableKey()).finish()
          : tables.writer().beginOverwrite(snapshot, spec.tableKey(), spec.arrowSchema()).finish();
    };
    p.rowsWritten = p.staged.rowsWritten();
    return p;
  }

  private static VectorSchemaRoot single(TableRows rows) {
    // Keyed loads are capped at KEYED_WRITE_MAX_ROWS rows per table and are read into one batch.
    List<VectorSchemaRoot> batches = rows.batches();
    if (batches.size() != 1) {
      throw new IllegalStateException("a keyed table load must be one batch, got " + batches.size());
    }
    return batches.get(0);
  }
}
