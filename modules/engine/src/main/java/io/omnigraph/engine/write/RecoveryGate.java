package io.omnigraph.engine.write;

import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.storage.GraphRoot;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the recovery sweep meets the write protocol: a sweep runs inside the root's effect window
 * (so it never races a live writer), and every write first passes the entry barrier. The steady
 * state costs one listing of {@code __recovery/}: nothing listed means nothing to resolve, and an
 * intent armed after the listing belongs to a live writer, which resolves it itself.
 */
public final class RecoveryGate {
  private RecoveryGate() {}

  /**
   * Runs a sweep inside the root's effect window ({@link RecoverySweep.Mode#DRY_RUN} changes nothing
   * and holds only this process's gate). The lease is checked before each sidecar is resolved.
   *
   * @return what it did, per sidecar
   */
  public static List<RecoverySweep.Outcome> sweep(GraphRoot root, RecoverySweep sweep, RecoverySweep.Mode mode) {
    if (sweep.sidecars().list().isEmpty()) {
      return List.of();
    }
    if (mode == RecoverySweep.Mode.DRY_RUN) {
      ReentrantLock gate = WriteGates.of(root);
      gate.lock();
      try {
        return sweep.run(mode, () -> { });
      } finally {
        gate.unlock();
      }
    }
    try (EffectWindow window = WriteGates.exclusive(root, "recovery")) {
      return sweep.run(mode, window::checkValid);
    }
  }

  /**
   * The write-entry barrier: when {@code __recovery/} lists any sidecar, enters the effect window
   * and heals roll-forward-only (a confirmed write whose publish failed is published); a sidecar
   * still unresolved refuses the write with RecoveryRequired (HTTP 503). {@link GraphWrite}
   * re-lists inside its own effect window.
   */
  public static void beforeWrite(GraphRoot root, WriteLease lease, RecoverySweep sweep) {
    if (!sweep.sidecars().list().isEmpty()) {
      try (EffectWindow window = EffectWindow.enter(WriteGates.of(root), lease, "recovery heal "
          + ProcessHandle.current().pid())) {
        sweep.barrier(window::checkValid);
      }
    }
  }
}
