package io.omnigraph.engine.snapshot;

import io.omnigraph.engine.load.RogueLoadShortcut;
import io.omnigraph.engine.mutate.RogueMutateStep;

/**
 * Deliberately violates the snapshot layering rule: the snapshot core reaching up into the load
 * and mutate capabilities that stand on it. Never called.
 */
public final class RogueSnapshotShortcut {
  private RogueSnapshotShortcut() {}

  static int borrow() {
    return RogueMutateStep.pending() + RogueLoadShortcut.class.getModifiers();
  }
}
