package io.omnigraph.engine.recovery;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TableOutcome;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.RecoverySidecar.TableUpdateSlot;
import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import io.omnigraph.engine.recovery.RecoverySweep.Action;
import io.omnigraph.engine.recovery.RecoverySweep.Mode;
import io.omnigraph.engine.recovery.RecoverySweep.Outcome;
import io.omnigraph.engine.recovery.TableClassification.Decision;
import io.omnigraph.engine.table.CommittedTransaction;
import io.omnigraph.engine.table.TableSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The sweep's handling of a sidecar with a pre-minted transaction chain per table: a
 * {@code BranchMerge} (docs/branches.md, "Merge recovery") and a {@code GroupCommit}
 * (docs/concurrency.md, "Group commit"), which is classified the same way and all-or-nothing for its
 * batch; rolled forward, it publishes one commit per member.
 */
final class MergeRecovery {
  private final RecoverySweep sweep;

  MergeRecovery(RecoverySweep sweep) {
    this.sweep = sweep;
  }

  /** One table of a BranchMerge sidecar as observed now. */
  record ChainObserved(TablePin pin, LanceLocation location, long head, long pinned, int landed,
      boolean compensated) {}

  /**
   * A BranchMerge sidecar (docs/branches.md, "Merge recovery"): per pinned table, the landed
   * effects must be a contiguous prefix of the pre-minted chain (each version {@code expected + i + 1}
   * carrying exactly the chain's i-th transaction), optionally topped by this recovery's own
   * compensating Restore to the expected version. Anything else is refused. A confirmed, complete
   * chain is rolled forward only while the captured target authority (graph head, schema) still
   * holds; otherwise — or when unconfirmed — a full sweep compensates: restores every touched table
   * to its expected version and publishes the pre-minted rollback commit.
   */
  Outcome process(RecoverySidecar s, Mode mode) {
    ProtocolV3 p = s.protocol();
    String branch = GraphBranch.fromColumn(s.branch());
    ManifestState state;
    try {
      state = sweep.readState(branch);
    } catch (NotFoundException e) {
      if (s.branch() == null) {
        throw e;
      }
      return sweep.orphaned(s, mode);
    }
    Map<String, TableClassification> classes = new LinkedHashMap<>();
    if (RecoverySweep.visible(state, p.lineage().graphCommitId()) || RecoverySweep.visible(state, p.rollbackGraphCommitId())) {
      return sweep.resolveWithoutEffects(s, state, classes, Decision.ROLL_FORWARD, mode);
    }
    List<ChainObserved> observed = new ArrayList<>();
    boolean complete = true;
    boolean anyEffect = false;
    FirstTouchRecovery forks = new FirstTouchRecovery(sweep);
    for (TablePin pin : s.tables()) {
      Optional<TableEntry> entry = state.table(pin.tableKey());
      if (entry.isPresent() && !entry.get().identity().equals(pin.identity())) {
        return RecoverySweep.outcome(s, classes, null, RecoverySweep.refuse(mode), "table " + pin.tableKey() + " is now bound to "
            + entry.get().identity() + ", not the sidecar's " + pin.identity(), List.of());
      }
      long pinned = entry.map(TableEntry::version).orElse(0L);
      LanceLocation loc = io.omnigraph.engine.table.TableReader.branchLocation(
          sweep.root.lance(pin.identity().canonicalPath(pin.tableKey())), pin.tableBranch());
      var fork = forks.observe(pin, p.effect(pin.identity()).orElseThrow(), entry);
      if (fork.isPresent() && fork.get().refusal() != null) {
        return RecoverySweep.outcome(s, classes, null, RecoverySweep.refuse(mode), fork.get().refusal(), List.of());
      }
      long head;
      try {
        // A first-touch ref the merge had not created yet: no effect on this table.
        head = fork.isPresent() && fork.get().leftover() == io.omnigraph.engine.table.TableFork.Leftover.ABSENT
            ? pinned : sweep.tables.reader().latestVersionOf(loc);
      } catch (NotFoundException e) {
        return RecoverySweep.outcome(s, classes, null, RecoverySweep.refuse(mode), "table " + pin.tableKey() + " has no dataset at "
            + loc.uri(), List.of());
      }
      if (head < pinned) {
        classes.put(pin.tableKey(), TableClassification.INVARIANT_VIOLATION);
        return RecoverySweep.outcome(s, classes, Decision.ABORT, RecoverySweep.refuse(mode), "table " + pin.tableKey() + " has HEAD " + head
            + " behind its published version " + pinned + " (storage lost a commit)", List.of());
      }
      if (pinned != pin.expectedVersion()) {
        return RecoverySweep.outcome(s, classes, null, RecoverySweep.refuse(mode), "table " + pin.tableKey() + " is published at " + pinned
            + " instead of the " + what(s) + "'s expected " + pin.expectedVersion() + ", and neither it nor its"
            + " rollback is in the lineage", List.of());
      }
      List<TransactionIdentity> chain = p.effect(pin.identity()).orElseThrow().transactions();
      int landed = 0;
      while (landed < chain.size() && pin.expectedVersion() + landed + 1 <= head) {
        Optional<CommittedTransaction> t = sweep.tables.reader().transactionAt(loc, pin.expectedVersion() + landed + 1);
        TransactionIdentity want = chain.get(landed);
        if (t.isEmpty() || t.get().readVersion() != want.readVersion() || !t.get().uuid().equals(want.uuid())) {
          break;
        }
        landed++;
      }
      boolean compensated = false;
      if (pin.expectedVersion() + landed < head) {
        Optional<CommittedTransaction> top = head == pin.expectedVersion() + landed + 1 && landed > 0
            ? sweep.tables.reader().transactionAt(loc, head) : Optional.empty();
        if (top.isEmpty() || !top.get().restores(pin.expectedVersion())) {
          classes.put(pin.tableKey(), TableClassification.UNEXPECTED_EFFECT_IDENTITY);
          return RecoverySweep.outcome(s, classes, null, RecoverySweep.refuse(mode), "table " + pin.tableKey() + " version "
              + (pin.expectedVersion() + landed + 1) + " is not the " + what(s) + "'s next pre-minted transaction (landed "
              + landed + " of " + chain.size() + "): a non-contiguous or foreign chain recovery will not adopt or"
              + " undo", List.of());
        }
        compensated = true;
      }
      classes.put(pin.tableKey(), landed == 0 ? TableClassification.NO_MOVEMENT
          : landed == chain.size() && !compensated ? TableClassification.ROLLED_PAST_EXPECTED
          : TableClassification.INCOMPLETE_PHASE_B);
      complete &= landed == chain.size() && !compensated;
      anyEffect |= landed > 0;
      observed.add(new ChainObserved(pin, loc, head, pinned, landed, compensated));
    }
    if (!anyEffect) {
      if (mode != Mode.FULL) {
        return RecoverySweep.outcome(s, classes, Decision.ROLL_BACK, Action.PENDING, "no " + what(s) + " effect yet; a live writer may still"
            + " own it (a full sweep discards it)", List.of());
      }
      try {
        forks.removeNoEffect(); // the no-effect forks go before the intent that names them
      } catch (ConflictException e) {
        return RecoverySweep.outcome(s, classes, Decision.ROLL_BACK, Action.REFUSED, e.getMessage(), List.of());
      }
      sweep.sidecars.delete(s.operationId());
      return RecoverySweep.outcome(s, classes, Decision.ROLL_BACK, Action.DISCARDED, "the " + what(s) + " never committed a table; nothing"
          + " to undo", List.of());
    }
    boolean authorityHolds = Objects.equals(state.graphHeads().get(branch), p.authority().graphHead())
        && p.authority().schemaIrHash().equals(sweep.schema.irHash())
        && p.authority().schemaIdentityDomain().equals(sweep.schema.domain());
    boolean forward = p.effectPhase() == RecoverySidecar.EffectPhase.EFFECTS_CONFIRMED && complete && authorityHolds;
    if (mode == Mode.DRY_RUN || (mode == Mode.ROLL_FORWARD_ONLY && !forward)) {
      return RecoverySweep.outcome(s, classes, forward ? Decision.ROLL_FORWARD : Decision.ROLL_BACK, Action.PENDING, forward
          ? "would publish the confirmed " + what(s) : "the " + what(s) + " is unconfirmed, partial or its target moved; a full"
          + " sweep compensates it", List.of());
    }
    if (forward) {
      List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
      Map<String, Long> expected = new TreeMap<>();
      for (TableUpdateSlot slot : p.intendedDelta()) {
        var c = slot.confirmed();
        String uri = io.omnigraph.engine.table.TableReader.branchLocation(
            sweep.root.lance(slot.identity().canonicalPath(slot.tableKey())), c.tableBranch()).uri();
        updates.add(new ManifestPublisher.TableUpdate(slot.identity(), slot.tableKey(), c.tableVersion(), c.rowCount(),
            uri, c.tableBranch()));
        expected.put(slot.tableKey(), slot.expectedVersion());
      }
      var l = p.lineage();
      ManifestPublisher.LineageIntent last = new ManifestPublisher.LineageIntent(l.graphCommitId(), l.actorId(),
          l.message(), l.createdAtMicros(), l.mergedParentCommitId());
      Failpoints.hit(Failpoints.RECOVERY_BEFORE_ROLL_FORWARD_PUBLISH);
      try {
        sweep.publisher.publish(s.groupMembers() == null
            ? new ManifestPublisher.PublishRequest(branch, updates, expected,
                Optional.ofNullable(p.authority().graphHead()), last)
            : ManifestPublisher.PublishRequest.group(branch, updates, expected,
                Optional.ofNullable(p.authority().graphHead()), groupSteps(s, observed), last));
      } catch (ConflictException e) {
        return RecoverySweep.outcome(s, classes, Decision.ROLL_FORWARD, RecoverySweep.refuse(mode), "publishing the confirmed "
            + what(s) + " failed: " + e.getMessage(), List.of());
      }
      RecoverySweep.AuditPlan plan = RecoverySweep.forwardPlan(s);
      sweep.audit.append(plan.row(s));
      sweep.sidecars.delete(s.operationId());
      return RecoverySweep.outcome(s, classes, Decision.ROLL_FORWARD, Action.ROLLED_FORWARD, "published the confirmed "
          + what(s) + " as commit " + l.graphCommitId(), plan.outcomes());
    }
    // Compensate: remove the no-effect forks first (a crash after the rollback publish cannot strand
    // them), restore every table the chain touched to its expected version, then publish the
    // pre-minted rollback commit. The audit plan is durable before the first restore.
    try {
      forks.removeNoEffect();
    } catch (ConflictException e) {
      return RecoverySweep.outcome(s, classes, Decision.ROLL_BACK, Action.REFUSED, e.getMessage(), List.of());
    }
    List<ChainObserved> touched = observed.stream().filter(o -> o.landed() > 0).toList();
    List<TableOutcome> plan = p.rollbackAuditOutcomes();
    if (plan == null) {
      List<TableOutcome> outs = new ArrayList<>();
      for (ChainObserved o : touched) {
        outs.add(new TableOutcome(o.pin().tableKey(), o.pin().expectedVersion() + o.landed(), o.pinned()));
      }
      plan = outs;
      sweep.sidecars.rewrite(s.with(s.tables(), new ProtocolV3(p.authority(), p.lineage(), p.rollbackGraphCommitId(), outs,
          p.effectPhase(), p.effects(), p.intendedDelta())));
    }
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (ChainObserved o : touched) {
      long restoredHead;
      if (o.compensated()) {
        restoredHead = o.head(); // an earlier sweep restored it and died before publishing: never restore twice
      } else {
        try (TableSnapshot head = sweep.tables.reader().openAt(o.location(), o.head())) {
          restoredHead = sweep.tables.writer().restore(head, o.pin().tableKey(), o.pinned());
        }
      }
      Failpoints.hit(Failpoints.MERGE_RECOVERY_AFTER_RESTORE);
      long rows;
      try (TableSnapshot after = sweep.tables.reader().openAt(o.location(), restoredHead)) {
        rows = sweep.tables.reader().countRows(after);
      }
      updates.add(new ManifestPublisher.TableUpdate(o.pin().identity(), o.pin().tableKey(), restoredHead, rows,
          o.location().uri(), o.pin().tableBranch()));
      expected.put(o.pin().tableKey(), o.pinned());
    }
    Failpoints.hit(Failpoints.RECOVERY_POST_RESTORE_PRE_PUBLISH);
    sweep.publisher.publish(new ManifestPublisher.PublishRequest(branch, updates, expected, Optional.empty(),
        new ManifestPublisher.LineageIntent(p.rollbackGraphCommitId(), RecoverySidecar.RECOVERY_ACTOR,
            "recovery: compensated interrupted " + what(s) + " " + s.operationId(), s.startedAtMicros())));
    Failpoints.hit(Failpoints.RECOVERY_POST_ROLLBACK_PUBLISH_PRE_AUDIT);
    RecoverySweep.AuditPlan a = new RecoverySweep.AuditPlan(RecoveryAudit.Kind.RolledBack, p.rollbackGraphCommitId(), plan);
    sweep.audit.append(a.row(s));
    sweep.sidecars.delete(s.operationId());
    return RecoverySweep.outcome(s, classes, Decision.ROLL_BACK, Action.ROLLED_BACK, "compensated the " + what(s)
        + ": restored "
        + touched.size() + " table(s) and published commit " + p.rollbackGraphCommitId(), plan);
  }

  private static String what(RecoverySidecar s) {
    return s.groupMembers() == null ? "branch merge" : "group commit";
  }

  /**
   * The members of a confirmed group commit before its last, each with the versions its
   * transactions produced (the chain position of each table it touches) and that version's row
   * count, read from the table: roll-forward publishes each member as its own commit.
   */
  private List<ManifestPublisher.GroupStep> groupSteps(RecoverySidecar s, List<ChainObserved> observed) {
    List<ManifestPublisher.GroupStep> steps = new ArrayList<>();
    for (int i = 0; i < s.groupMembers().size() - 1; i++) {
      RecoverySidecar.GroupMember m = s.groupMembers().get(i);
      List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
      for (String key : m.tableKeys()) {
        ChainObserved o = observed.stream().filter(c -> c.pin().tableKey().equals(key)).findFirst().orElseThrow();
        long version = GroupCommitShape.versionAfter(s, i, o.pin());
        long rows;
        try (TableSnapshot at = sweep.tables.reader().openAt(o.location(), version)) {
          rows = sweep.tables.reader().countRows(at);
        }
        updates.add(new ManifestPublisher.TableUpdate(o.pin().identity(), key, version, rows, o.location().uri(),
            o.pin().tableBranch()));
      }
      steps.add(new ManifestPublisher.GroupStep(new ManifestPublisher.LineageIntent(m.graphCommitId(), m.actorId(),
          m.message(), m.createdAtMicros()), updates));
    }
    return steps;
  }
}
