package io.omnigraph.engine.write;

import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The exclusive part of a write attempt: revalidate the token, commit the staged table
 * transactions, publish. Entering takes this process's write gate for the graph root (so threads
 * of one JVM queue in memory rather than poll storage) and then the graph's cross-process
 * {@link WriteLease}; closing releases both in reverse order.
 */
public final class EffectWindow implements AutoCloseable {
  private final ReentrantLock gate;
  private final WriteLease.Held lease;

  private EffectWindow(ReentrantLock gate, WriteLease.Held lease) {
    this.gate = gate;
    this.lease = lease;
  }

  /**
   * Waits for the gate and the lease.
   *
   * @throws io.omnigraph.api.ConflictException the lease stayed held by another writer too long
   */
  public static EffectWindow enter(ReentrantLock gate, WriteLease lease, String operation) {
    Objects.requireNonNull(gate);
    gate.lock();
    try {
      return new EffectWindow(gate, lease.acquire(operation));
    } catch (RuntimeException | Error e) {
      gate.unlock();
      throw e;
    }
  }

  /**
   * Fails when the lease is about to expire, so no effect starts without exclusion.
   *
   * @throws io.omnigraph.api.ConflictException the lease (nearly) expired
   */
  public void checkValid() {
    lease.checkValid();
  }

  /**
   * Releases the lease, then the gate. A release that fails (storage error or unknown outcome) is
   * not thrown: the write's outcome is already decided (published or not) and must be reported as
   * such; the unreleased lease only makes other writers wait until it expires.
   */
  @Override
  public void close() {
    try {
      lease.close();
    } catch (io.omnigraph.api.OmnigraphException e) {
      // Deliberate: see above. The lease file names this holder and expires after its time to live.
    } finally {
      gate.unlock();
    }
  }
}
