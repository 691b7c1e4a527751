package io.omnigraph.engine.write;

import io.omnigraph.engine.storage.GraphRoot;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The process-local write gates, one per graph root (by {@link GraphRoot#identity()}), shared by
 * every handle on that root, and the exclusive effect window built from a gate and the root's
 * cross-process {@link WriteLease}.
 */
public final class WriteGates {
  private static final ConcurrentHashMap<String, ReentrantLock> GATES = new ConcurrentHashMap<>();

  private WriteGates() {}

  /** @return this process's write gate of {@code root} */
  public static ReentrantLock of(GraphRoot root) {
    return GATES.computeIfAbsent(root.identity(), k -> new ReentrantLock());
  }

  /**
   * Enters the exclusive effect window of a graph root (this process's write gate, then the graph's
   * cross-process {@link WriteLease}) for work that is not a {@link GraphWrite}: the recovery sweep
   * and cleanup. A sweep holding it cannot race a live writer of any process, so it never rolls
   * back an intent whose writer is still committing.
   */
  public static EffectWindow exclusive(GraphRoot root, String operation) {
    return EffectWindow.enter(of(root), new WriteLease(root), operation + " " + ProcessHandle.current().pid());
  }
}
