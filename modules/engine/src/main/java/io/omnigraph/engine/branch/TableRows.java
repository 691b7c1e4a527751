package io.omnigraph.engine.branch;

import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.table.InsertProof;
import io.omnigraph.engine.table.ScanCursor;
import io.omnigraph.engine.table.TableSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows one table's merge takes, produced as the cursors advance (docs/branches.md, "Memory bound
 * of the ordered merge"), into two chunkers: new rows (strict insert) and changed rows (upsert).
 * Route {@code ordered}: three {@link RowCursor}s over base, source and target at their pinned
 * versions, the smallest id first, each id decided by {@link ThreeWay#decide}; route
 * {@code proven_insert} (re-staged): the proven interval's rows, every one new. The same pinned
 * versions give the same rows in the same order, so the planning pass (conflicts, deletes, checks,
 * chunk counts) and the pass inside the effect window (the chunks written) cut the same chunks.
 * Holds one scanner batch per cursor and what the two chunkers buffer.
 */
final class TableRows implements AutoCloseable {
  /** What the planning pass records besides the chunks. */
  interface Sink {
    void conflict(ThreeWay.Kind kind, String id, String base, String source, String target);

    void delete(String id);
  }

  /** Ignores conflicts and deletes (the effect pass: the planning pass recorded them). */
  static final Sink CHUNKS_ONLY = new Sink() {
    @Override
    public void conflict(ThreeWay.Kind kind, String id, String base, String source, String target) {}

    @Override
    public void delete(String id) {}
  };

  private final RowCursor base;
  private final RowCursor source;
  private final RowCursor target;
  private final boolean provenRoute;
  private final ScanCursor proven;
  private final MergeChunker inserts;
  private final MergeChunker upserts;
  private final MergeMemory memory;
  private VectorSchemaRoot provenBatch;
  private int provenRow;
  private boolean done;
  long inserted;
  long updated;

  private TableRows(RowCursor base, RowCursor source, RowCursor target, boolean provenRoute, ScanCursor proven,
      MergeChunker inserts, MergeChunker upserts, MergeMemory memory) {
    this.provenRoute = provenRoute;
    this.base = base;
    this.source = source;
    this.target = target;
    this.proven = proven;
    this.inserts = inserts;
    this.upserts = upserts;
    this.memory = memory;
  }

  /**
   * @param out receives each full chunk and whether it is new rows ({@code true}: strict insert) or
   *     changed rows (upsert); it owns the chunk
   */
  static TableRows open(TablePlan plan, CompiledSchema schema, BufferAllocator allocator, MergeMemory memory,
      BiConsumer<MergeChunker.Chunk, Boolean> out) {
    String key = plan.key();
    MergeChunker inserts = new MergeChunker(key, allocator, memory, c -> out.accept(c, true));
    MergeChunker upserts = new MergeChunker(key, allocator, memory, c -> out.accept(c, false));
    if (plan.proof != null) {
      return new TableRows(null, null, null, true, ScanCursor.provenRows(plan.proof, BranchMerge.chunkRows), inserts,
          upserts, memory);
    }
    RowCursor b = null;
    RowCursor s = null;
    try {
      b = new RowCursor(plan.baseTable, schema, key, memory);
      s = new RowCursor(plan.sourceTable, schema, key, memory);
      RowCursor t = new RowCursor(plan.targetTable, schema, key, memory);
      return new TableRows(b, s, t, false, null, inserts, upserts, memory);
    } catch (RuntimeException e) {
      closeAll(e, b, s);
      throw e;
    }
  }

  /**
   * Decides the next id (or takes the next proven row); at the end flushes both chunkers.
   *
   * @return {@code false} once everything was produced
   */
  boolean step(Sink sink) {
    if (done) {
      return false;
    }
    boolean more = provenRoute ? provenStep() : orderedStep(sink);
    if (!more) {
      done = true;
      inserts.flush();
      upserts.flush();
    }
    return more;
  }

  private boolean provenStep() {
    if (proven == null) {
      return false;
    }
    while (provenBatch == null || provenRow >= provenBatch.getRowCount()) {
      provenBatch = proven.next();
      provenRow = 0;
      if (provenBatch == null) {
        return false;
      }
      memory.batch(provenBatch.getRowCount(), io.omnigraph.engine.table.ArrowBatches.memorySize(provenBatch));
    }
    inserts.add(provenBatch, provenRow++);
    inserted++;
    return true;
  }

  private boolean orderedStep(Sink sink) {
    byte[] min = null;
    for (RowCursor c : new RowCursor[] {base, source, target}) {
      if (c.has() && (min == null || RowCursor.compare(c.id(), min) < 0)) {
        min = c.id();
      }
    }
    if (min == null) {
      return false;
    }
    boolean inB = at(base, min);
    boolean inS = at(source, min);
    boolean inT = at(target, min);
    String b = inB ? base.line() : null;
    String s = inS ? source.line() : null;
    String t = inT ? target.line() : null;
    ThreeWay.Decision d = ThreeWay.decide(Optional.ofNullable(b), Optional.ofNullable(s), Optional.ofNullable(t));
    if (d instanceof ThreeWay.TakeSource) {
      if (t == null) {
        inserts.add(source.batch(), source.row());
        inserted++;
      } else {
        upserts.add(source.batch(), source.row());
        updated++;
      }
    } else if (d instanceof ThreeWay.Delete) {
      sink.delete(new String(min, StandardCharsets.UTF_8));
    } else if (d instanceof ThreeWay.Conflict c) {
      sink.conflict(c.kind(), new String(min, StandardCharsets.UTF_8), b, s, t);
    }
    if (inB) {
      base.advance();
    }
    if (inS) {
      source.advance();
    }
    if (inT) {
      target.advance();
    }
    return true;
  }

  private static boolean at(RowCursor c, byte[] id) {
    return c.has() && RowCursor.compare(c.id(), id) == 0;
  }

  @Override
  public void close() {
    inserts.discard();
    upserts.discard();
    closeAll(null, base, source, target);
    if (proven != null) {
      proven.close();
    }
  }

  private static void closeAll(RuntimeException cause, AutoCloseable... cursors) {
    RuntimeException first = cause;
    for (AutoCloseable c : cursors) {
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (Exception e) {
        if (first == null) {
          first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
        } else if (first != e) {
          first.addSuppressed(e);
        }
      }
    }
    if (cause == null && first != null) {
      throw first;
    }
  }
}
