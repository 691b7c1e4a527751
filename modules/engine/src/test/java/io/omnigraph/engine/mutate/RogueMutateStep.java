package io.omnigraph.engine.mutate;

/** Fixture for the capability-isolation rule: a mutate-side class a rogue load class reaches into. Never called. */
public final class RogueMutateStep {
  private RogueMutateStep() {}

  public static int pending() {
    return 0;
  }
}
