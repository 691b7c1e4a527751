package io.omnigraph.engine.gq;

import io.omnigraph.engine.plan.MutationPlan;

/**
 * Deliberately violates the front-end layering rule: a .gq front-end class reaching into the plan
 * layer that consumes it. Never called.
 */
public final class RogueGqPlanBinder {
  private RogueGqPlanBinder() {}

  static String planName(MutationPlan plan) {
    return plan.queryName();
  }
}
