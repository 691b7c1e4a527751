package io.omnigraph.engine.write;

import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.table.TableStore;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What a load or a mutation needs of the open graph handle: the table gateway, the resolver of
 * refs (each attempt resolves a fresh snapshot of its branch), and the effect and publish half
 * every writer shares.
 *
 * @param tables the table gateway
 * @param snapshots the resolver of refs
 * @param writer the effect and publish half
 * @param beforeEffectWindow test seam: runs in every write attempt after preparation, right before the
 *     effect window
 * @param newRowId mints the id of every unkeyed node and edge a mutation inserts
 * @param gate this process's write gate of the root: re-prepares run under it
 *     ({@link StaleAttempt#withReprepare})
 */
public record WriteContext(TableStore tables, SnapshotResolver snapshots, GraphWrite writer,
    Runnable beforeEffectWindow, Supplier<String> newRowId, ReentrantLock gate) {
  public WriteContext {
    Objects.requireNonNull(tables);
    Objects.requireNonNull(snapshots);
    Objects.requireNonNull(writer);
    Objects.requireNonNull(beforeEffectWindow);
    Objects.requireNonNull(newRowId);
    Objects.requireNonNull(gate);
  }
}
