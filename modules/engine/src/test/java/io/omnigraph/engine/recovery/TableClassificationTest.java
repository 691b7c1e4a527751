package io.omnigraph.engine.recovery;

import static io.omnigraph.engine.recovery.TableClassification.INCOMPLETE_PHASE_B;
import static io.omnigraph.engine.recovery.TableClassification.INVARIANT_VIOLATION;
import static io.omnigraph.engine.recovery.TableClassification.NO_MOVEMENT;
import static io.omnigraph.engine.recovery.TableClassification.ROLLED_PAST_EXPECTED;
import static io.omnigraph.engine.recovery.TableClassification.UNEXPECTED_AT_P1;
import static io.omnigraph.engine.recovery.TableClassification.UNEXPECTED_EFFECT_IDENTITY;
import static io.omnigraph.engine.recovery.TableClassification.UNEXPECTED_MULTISTEP;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import io.omnigraph.engine.recovery.TableClassification.Decision;
import io.omnigraph.engine.testing.SidecarSamples;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every cell of the ExactEffect classification and the decision rule (docs/recovery.md,
 * "Classification of one table"). */
class TableClassificationTest {
  static final Optional<TransactionIdentity> OURS = Optional.of(new TransactionIdentity(12, "6f1e-uuid"));
  static final Optional<TransactionIdentity> FOREIGN = Optional.of(new TransactionIdentity(12, "other"));

  static TableClassification armed(long head, long pinned) {
    RecoverySidecar s = SidecarSamples.armed();
    return TableClassification.classify(s.tables().get(0), s.protocol(), head, pinned, OURS);
  }

  static TableClassification confirmed(long head, long pinned, Optional<TransactionIdentity> atHead) {
    RecoverySidecar s = SidecarSamples.confirmed();
    return TableClassification.classify(s.tables().get(0), s.protocol(), head, pinned, atHead);
  }

  @Test
  void headBehindThePinIsAnInvariantViolation() {
    assertThat(armed(11, 12)).isEqualTo(INVARIANT_VIOLATION);
    assertThat(confirmed(11, 12, OURS)).isEqualTo(INVARIANT_VIOLATION);
  }

  @Test
  void headAtThePinIsNoMovement() {
    assertThat(armed(12, 12)).isEqualTo(NO_MOVEMENT);
    assertThat(confirmed(13, 13, OURS)).isEqualTo(NO_MOVEMENT);
  }

  @Test
  void movementUnderAnArmedSidecarIsIncompletePhaseB() {
    assertThat(armed(13, 12)).isEqualTo(INCOMPLETE_PHASE_B);
    assertThat(armed(15, 12)).isEqualTo(INCOMPLETE_PHASE_B);
  }

  @Test
  void confirmedEffectAtHeadOnTheExpectedPinRollsPast() {
    assertThat(confirmed(13, 12, OURS)).isEqualTo(ROLLED_PAST_EXPECTED);
  }

  @Test
  void pinThatMovedAwayFromTheExpectedVersionIsUnexpectedAtP1() {
    assertThat(confirmed(13, 11, OURS)).isEqualTo(UNEXPECTED_AT_P1);
  }

  @Test
  void headPastTheConfirmedVersionIsUnexpectedMultistep() {
    assertThat(confirmed(14, 12, OURS)).isEqualTo(UNEXPECTED_MULTISTEP);
  }

  @Test
  void foreignOrUnknownTransactionAtHeadIsUnexpectedEffectIdentity() {
    assertThat(confirmed(13, 12, FOREIGN)).isEqualTo(UNEXPECTED_EFFECT_IDENTITY);
    assertThat(confirmed(13, 12, Optional.empty())).isEqualTo(UNEXPECTED_EFFECT_IDENTITY);
  }

  @Test
  void decisionIsAllOrNothing() {
    assertThat(TableClassification.decide(List.of(ROLLED_PAST_EXPECTED, ROLLED_PAST_EXPECTED)))
        .isEqualTo(Decision.ROLL_FORWARD);
    assertThat(TableClassification.decide(List.of())).isEqualTo(Decision.ROLL_FORWARD);
    for (TableClassification c : List.of(NO_MOVEMENT, UNEXPECTED_AT_P1, UNEXPECTED_MULTISTEP,
        UNEXPECTED_EFFECT_IDENTITY, INCOMPLETE_PHASE_B)) {
      assertThat(TableClassification.decide(List.of(ROLLED_PAST_EXPECTED, c))).as(c.name()).isEqualTo(Decision.ROLL_BACK);
    }
    assertThat(TableClassification.decide(List.of(ROLLED_PAST_EXPECTED, NO_MOVEMENT, INVARIANT_VIOLATION)))
        .isEqualTo(Decision.ABORT);
  }
}
