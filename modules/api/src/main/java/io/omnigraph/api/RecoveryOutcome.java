package io.omnigraph.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a recovery sweep found for one interrupted write (one recovery sidecar) and what it did;
 * returned by {@link Omnigraph#repair}.
 *
 * @param operationId the interrupted write's operation id (its sidecar is {@code __recovery/<id>.json})
 * @param writerKind {@code Load} or {@code Mutation}
 * @param actor the interrupted write's actor, or {@code null}
 * @param tables per table key, how the table classified ({@code NO_MOVEMENT}, {@code ROLLED_PAST_EXPECTED},
 *     {@code UNEXPECTED_AT_P1}, {@code UNEXPECTED_MULTISTEP}, {@code UNEXPECTED_EFFECT_IDENTITY},
 *     {@code INCOMPLETE_PHASE_B}, {@code INVARIANT_VIOLATION})
 * @param decision {@code ROLL_FORWARD}, {@code ROLL_BACK}, {@code ABORT}, or {@code null} when not reached
 * @param action {@code ROLLED_FORWARD}, {@code ROLLED_BACK}, {@code FINALIZED} (already published; audit
 *     completed), {@code DISCARDED} (nothing was committed), {@code PENDING} (dry run: nothing done) or
 *     {@code REFUSED} (kept for an operator)
 * @param detail why, in words
 * @param tableOutcomes per table, {@code "from->to"} versions of a roll-forward or rollback
 */
public record RecoveryOutcome(String operationId, String writerKind, String actor, Map<String, String> tables,
    String decision, String action, String detail, Map<String, String> tableOutcomes) {
  public RecoveryOutcome {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(action, "action");
    tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    tableOutcomes = Collections.unmodifiableMap(new LinkedHashMap<>(tableOutcomes));
  }

  /** @return outcomes rendered for people, one line each */
  public static List<String> describe(List<RecoveryOutcome> outcomes) {
    return outcomes.stream().map(o -> o.operationId + " " + o.writerKind + " actor=" + o.actor + ": " + o.action
        + " (" + o.detail + ") tables=" + o.tables + (o.tableOutcomes.isEmpty() ? "" : " versions=" + o.tableOutcomes))
        .toList();
  }
}
