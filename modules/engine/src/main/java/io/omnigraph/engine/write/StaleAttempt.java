package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Internal signal from {@link GraphWrite}: before any effect, the write's token no longer holds
 * (another write published since it was prepared) and the write asked to be re-prepared
 * ({@link GraphWrite.OnMovement#REPREPARE}). Nothing was written. The writer discards the whole
 * attempt and prepares again from a fresh manifest state, through {@link #withReprepare}; it never
 * reaches a caller.
 */
public final class StaleAttempt extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Re-prepares after unrelated movement before a write gives up (as the reference). */
  public static final int MAX_PRE_EFFECT_REPREPARES = 32;

  private final transient ConflictException conflict;

  StaleAttempt(ConflictException conflict) {
    super(conflict.getMessage(), null, false, false);
    this.conflict = Objects.requireNonNull(conflict);
  }

  /** @return the read-set conflict that made the attempt stale */
  public ConflictException conflict() {
    return conflict;
  }

  /**
   * Runs {@code attempt} (prepare → {@link GraphWrite#commitAndPublish}) until it is not stale,
   * at most {@value #MAX_PRE_EFFECT_REPREPARES} re-prepares. Each attempt must prepare from a fresh
   * manifest state and release what it prepared when it fails.
   *
   * <p>The first attempt prepares without the gate (threads of one process prepare in parallel).
   * Every re-prepare runs under {@code gate}, this process's write gate of the root (reentrant, so
   * the attempt's own effect window takes it again): no other writer of this process can publish
   * between the re-prepare and its effects, so only writers of other processes can make it stale.
   * Without this, writers of one process could starve one another (docs/concurrency.md, "Progress").
   *
   * @throws ConflictException (ReadSetChanged on the graph head) when every re-prepare was stale
   */
  public static <T> T withReprepare(ReentrantLock gate, Supplier<T> attempt) {
    Objects.requireNonNull(gate, "gate");
    try {
      return attempt.get();
    } catch (StaleAttempt first) {
      gate.lock();
      try {
        for (int reprepares = 1; ; reprepares++) {
          try {
            return attempt.get();
          } catch (StaleAttempt stale) {
            if (reprepares >= MAX_PRE_EFFECT_REPREPARES) {
              throw new ConflictException("the write re-prepared " + MAX_PRE_EFFECT_REPREPARES
                  + " times because other writers kept publishing first; nothing was written, retry later",
                  stale.conflict().detail().orElse(null), stale.conflict());
            }
          }
        }
      } finally {
        gate.unlock();
      }
    }
  }
}
