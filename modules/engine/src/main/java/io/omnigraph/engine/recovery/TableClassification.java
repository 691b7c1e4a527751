package io.omnigraph.engine.recovery;

import io.omnigraph.engine.recovery.RecoverySidecar.EffectPhase;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TableEffect;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.RecoverySidecar.TableUpdateSlot;
import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import java.util.List;
import java.util.Optional;

/**
 * What one pinned table's live state says about an interrupted write (docs/recovery.md,
 * "Classification of one table"; the
 * {@code ExactEffect} mode used by v9 Mutation/Load sidecars).
 */
public enum TableClassification {
  /** The Lance HEAD equals the manifest pin: the write left no effect here (or it is published). */
  NO_MOVEMENT,
  /** The HEAD is exactly the writer's confirmed effect on the expected version: safe to publish. */
  ROLLED_PAST_EXPECTED,
  /** The HEAD moved but the manifest pin is no longer the version the writer expected. */
  UNEXPECTED_AT_P1,
  /** The HEAD is not the confirmed version (more or other commits). */
  UNEXPECTED_MULTISTEP,
  /** The transaction at HEAD is not the writer's planned one. */
  UNEXPECTED_EFFECT_IDENTITY,
  /** The HEAD moved but the sidecar was never confirmed (crash during Phase B). */
  INCOMPLETE_PHASE_B,
  /** The HEAD is behind the manifest pin: impossible unless storage lost data. */
  INVARIANT_VIOLATION;

  /**
   * Classifies one table.
   *
   * @param pin the sidecar's pin of the table
   * @param protocol the sidecar payload
   * @param lanceHead the table's live Lance HEAD
   * @param manifestPinned the version the manifest publishes now (0 when absent)
   * @param headTransaction the transaction that produced {@code lanceHead}, when known
   */
  public static TableClassification classify(TablePin pin, ProtocolV3 protocol, long lanceHead, long manifestPinned,
      Optional<TransactionIdentity> headTransaction) {
    if (lanceHead < manifestPinned) {
      return INVARIANT_VIOLATION;
    }
    if (lanceHead == manifestPinned) {
      return NO_MOVEMENT;
    }
    Optional<TableEffect> effect = protocol.effect(pin.identity());
    Optional<TableUpdateSlot> slot = protocol.slot(pin.identity());
    if (protocol.effectPhase() != EffectPhase.EFFECTS_CONFIRMED || effect.isEmpty() || slot.isEmpty()
        || effect.get().confirmed() == null || slot.get().confirmed() == null) {
      return INCOMPLETE_PHASE_B;
    }
    if (pin.expectedVersion() != manifestPinned) {
      return UNEXPECTED_AT_P1;
    }
    long confirmed = slot.get().confirmed().tableVersion();
    if (lanceHead != confirmed || pin.confirmedVersion() == null || pin.confirmedVersion() != confirmed) {
      return UNEXPECTED_MULTISTEP;
    }
    if (!effect.get().confirmed().equals(effect.get().planned())
        || headTransaction.isEmpty() || !headTransaction.get().equals(effect.get().confirmed())) {
      return UNEXPECTED_EFFECT_IDENTITY;
    }
    return ROLLED_PAST_EXPECTED;
  }

  /** What to do with a whole sidecar (all-or-nothing over its pins; docs/recovery.md,
   * "Classification of one table"). */
  public enum Decision {
    /** Publish the confirmed effects. */
    ROLL_FORWARD,
    /** Restore the drifted tables and publish the restored heads. */
    ROLL_BACK,
    /** Refuse: keep the sidecar for an operator. */
    ABORT
  }

  /** @return the decision for a sidecar whose tables classified as {@code tables} */
  public static Decision decide(List<TableClassification> tables) {
    if (tables.contains(INVARIANT_VIOLATION)) {
      return Decision.ABORT;
    }
    for (TableClassification c : tables) {
      if (c != ROLLED_PAST_EXPECTED) {
        return Decision.ROLL_BACK;
      }
    }
    return Decision.ROLL_FORWARD;
  }
}
