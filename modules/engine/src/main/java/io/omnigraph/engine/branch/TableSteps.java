package io.omnigraph.engine.branch;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.table.KeyedWriteMode;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One table's pre-minted chain as the effect window writes it (docs/branches.md, "Memory bound of
 * the ordered merge"): the adopted links, then the row chunks in the order the cursors fill them
 * (produced again from the same pinned versions, one at a time), then the retained delete chunks.
 * A chunk handed out is closed on the next {@link #next()} or on {@link #close()}. When the chunks
 * produced differ from what the planning pass counted the chain stops with an internal error (after
 * arming: recovery compensates).
 */
final class TableSteps implements AutoCloseable {
  /** One transaction of the chain. */
  sealed interface Step {}

  /** Adopt the proven interval's {@code link}-th link. */
  record Link(int link) implements Step {}

  /** Stage a chunk of rows. */
  record Rows(MergeChunker.Chunk chunk, KeyedWriteMode mode) implements Step {}

  /** Delete these ids. */
  record Deletes(List<String> ids) implements Step {}

  private final TablePlan plan;
  private final TableRows rows;
  private final ArrayDeque<Rows> ready = new ArrayDeque<>();
  private Rows current;
  private int link;
  private int delete;
  private int insertChunks;
  private int upsertChunks;
  private boolean drained;

  TableSteps(TablePlan plan, BufferAllocator allocator) {
    this.plan = plan;
    this.rows = plan.producesRows() ? TableRows.open(plan, plan.schema, allocator, plan.memory, (c, insert) -> {
      if (insert) {
        insertChunks++;
      } else {
        upsertChunks++;
      }
      ready.add(new Rows(c, insert ? KeyedWriteMode.STRICT_INSERT : KeyedWriteMode.UPSERT));
    }) : null;
  }

  /** @return the next step, or {@code null} after the last */
  Step next() {
    release();
    if (link < plan.adoptedLinks) {
      return new Link(link++);
    }
    while (rows != null && ready.isEmpty() && !drained) {
      if (!rows.step(TableRows.CHUNKS_ONLY)) {
        drained = true;
        check();
      }
    }
    if (!ready.isEmpty()) {
      current = ready.poll();
      return current;
    }
    if (delete < plan.deletes.size()) {
      return new Deletes(plan.deletes.get(delete++));
    }
    return null;
  }

  private void check() {
    if (insertChunks != plan.insertChunks || upsertChunks != plan.upsertChunks || rows.inserted != plan.inserted
        || rows.updated != plan.updated) {
      throw new InternalErrorException("merge of " + plan.key() + " produced " + insertChunks + "+" + upsertChunks
          + " chunks (" + rows.inserted + " new, " + rows.updated + " changed rows) but planned " + plan.insertChunks
          + "+" + plan.upsertChunks + " (" + plan.inserted + ", " + plan.updated + ")", null);
    }
  }

  private void release() {
    if (current != null) {
      Rows r = current;
      current = null;
      r.chunk().close();
    }
  }

  @Override
  public void close() {
    release();
    while (!ready.isEmpty()) {
      ready.poll().chunk().close();
    }
    if (rows != null) {
      rows.close();
    }
  }
}
