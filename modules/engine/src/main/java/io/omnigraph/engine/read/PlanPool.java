package io.omnigraph.engine.read;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The idle plans of one prepared read query (docs/queries.md, "Plan caching"). An execution takes
 * a plan, {@link ReadPlan#bind binds} it to its parameter values and gives it back when it has
 * run; concurrent executions each hold a plan of their own (a plan carries per-run state), so at
 * most {@value #SLOTS} plans wait here and more concurrent executions plan for themselves.
 * Thread-safe, lock-free.
 */
final class PlanPool {
  static final int SLOTS = 4;

  private final AtomicReferenceArray<ReadPlan> idle = new AtomicReferenceArray<>(SLOTS);

  /**
   * @return an idle plan bound to these values, or null (none idle, or none fits them: a plan that
   *     does not fit is dropped, the caller plans anew and gives that plan back)
   */
  ReadPlan take(Map<String, Object> params, long nowMillis) {
    for (int i = 0; i < SLOTS; i++) {
      ReadPlan p = idle.getAndSet(i, null);
      if (p != null && p.bind(params, nowMillis)) {
        return p;
      }
    }
    return null;
  }

  /** Keeps {@code plan} for a later execution (it must not be used by the caller any more). */
  void give(ReadPlan plan) {
    for (int i = 0; i < SLOTS; i++) {
      if (idle.compareAndSet(i, null, plan)) {
        return;
      }
    }
  }

  /** @return how many plans are idle (tests) */
  int idle() {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
      n += idle.get(i) == null ? 0 : 1;
    }
    return n;
  }
}
