package io.omnigraph.testkit.fault;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FaultRule} armed on a {@link FaultProxy}: counts the requests it matched and how often
 * it fired. Thread-safe.
 */
public final class ArmedFault {
  private final FaultRule rule;
  private final AtomicInteger matched = new AtomicInteger();
  private final AtomicInteger fired = new AtomicInteger();
  private volatile boolean disarmed;

  ArmedFault(FaultRule rule) {
    this.rule = rule;
  }

  /** @return the rule */
  public FaultRule rule() {
    return rule;
  }

  /** @return how many requests matched the rule since it was armed (fired or not) */
  public int matched() {
    return matched.get();
  }

  /** @return how many requests the fault was applied to */
  public int fired() {
    return fired.get();
  }

  /** @return whether the fault has been applied to every request it selects */
  public boolean exhausted() {
    return fired.get() >= rule.times();
  }

  /** Stops the rule from matching further requests. */
  public void disarm() {
    disarmed = true;
  }

  /** @return whether {@link #disarm()} was called or the proxy disarmed it */
  public boolean disarmed() {
    return disarmed;
  }

  /**
   * Counts a matching request and decides whether the fault applies to it. Called by the proxy
   * under its rule lock, so counting and deciding are atomic per request.
   */
  boolean offer(String method, String target) {
    if (disarmed || !rule.matches(method, target)) {
      return false;
    }
    int n = matched.incrementAndGet();
    if (n >= rule.nth() && n < rule.nth() + rule.times()) {
      fired.incrementAndGet();
      return true;
    }
    return false;
  }

  @Override
  public String toString() {
    return rule + " (matched " + matched() + ", fired " + fired() + "/" + rule.times() + ")";
  }
}
