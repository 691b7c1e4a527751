package io.omnigraph.engine.load;

import io.omnigraph.engine.mutate.RogueMutateStep;

/** Deliberately violates the capability-isolation rule: load calling into mutate. Never called. */
public final class RogueLoadShortcut {
  private RogueLoadShortcut() {}

  static int borrow() {
    return RogueMutateStep.pending();
  }
}
