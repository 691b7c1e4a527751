package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.recovery.SidecarStore;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.table.RetryableCommitConflict;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The effect and publish half of every graph write (load, mutation): the ONE place that turns
 * staged table transactions into a graph commit. Writers prepare and stage (no Lance HEAD moves);
 * {@link #commitAndPublish} then
 *
 * <ol>
 *   <li>requires every touched table's live Lance HEAD to equal its published pin (uncovered drift
 *       is refused before any effect);</li>
 *   <li>re-lists {@code __recovery/} inside the effect window: any pending sidecar is an
 *       unresolved intent this write must not run past ({@link RecoveryRequiredException});</li>
 *   <li>(Phase A) arms a v9 recovery sidecar naming every staged transaction
 *       ({@link WriteIntent#arm}); a failed put aborts the write before any effect;</li>
 *   <li>(Phase B) commits each staged transaction exactly at its read version, zero retries, then
 *       confirms the sidecar (EffectsConfirmed: the recovery WAL's commit point);</li>
 *   <li>(Phase C) publishes ONE graph commit with the pre-minted commit id, the expected head and
 *       the expected table versions;</li>
 *   <li>(Phase D) deletes the sidecar; a failed delete is logged and tolerated (the write is
 *       durable; the next write or open audits the stale sidecar as rolled forward).</li>
 * </ol>
 *
 * <p>Everything from the token check to Phase D runs inside one {@link EffectWindow}, so a
 * recovery sweep (which takes the same window) never observes another writer's intent mid-flight.
 *
 * <p>Optimistic concurrency (docs/write-protocol.md, "OCC rules at a glance"): the whole effect
 * half runs inside
 * the {@link EffectWindow} (this process's gate, then the graph's cross-process {@link WriteLease}).
 * First the write's token ({@link WriteToken}: branch, the exact head it was prepared against,
 * schema identity) is compared with a fresh manifest state. A caller-supplied head expectation that
 * no longer holds is {@link io.omnigraph.api.PreconditionFailedException} (412). A moved head is
 * either {@link StaleAttempt} (for {@link OnMovement#REPREPARE} writers: insert-only mutations,
 * load append and merge, which re-prepare through {@link StaleAttempt#withReprepare}) or a typed
 * ReadSetChanged conflict (409, for update, delete and overwrite). A table commit that Lance refuses
 * before any effect landed is effect-free: strict-insert ids are probed against fresh
 * manifest-visible state (an exact match is KeyConflict, never an upsert), otherwise the attempt is
 * stale or ReadSetChanged as above.
 *
 * <p>Failure semantics: anything before the first table commit leaves the graph untouched and is
 * reported as is (a lost commit race is a {@link ConflictException} with a read-set detail; the
 * sidecar of an effect-free attempt is deleted again). Once a table commit has landed, every later
 * failure is {@link RecoveryRequiredException} naming the sidecar's operation, which stays on
 * storage: unconfirmed, the next open rolls the write back; confirmed, the next write's entry heal
 * (or the next open) rolls it forward.
 */
public final class GraphWrite {
  /** Who is writing; recorded in recovery sidecars and audit rows. */
  public enum WriterKind { LOAD, MUTATION, ENSURE_INDICES }

  /** What a write does when another write published between its preparation and its effects. */
  public enum OnMovement {
    /** Insert-only mutations, load append and merge: discard the attempt and prepare again. */
    REPREPARE,
    /** Update, delete, overwrite: fail with a typed ReadSetChanged conflict. */
    READ_SET_CHANGED
  }

  /** The graph-wide authority a write is checked against inside its effect window. */
  public interface Authority {
    /** @return a fresh scan of the manifest */
    ManifestState freshState();

    /** @return the identity (IR hash) of the schema accepted at {@code state} */
    String schemaIdentity(ManifestState state);

    /** Enters the exclusive effect window (waits for other writers). */
    EffectWindow enter(String operation);

    /**
     * Called once a write is published and its sidecar retired, still inside the effect window;
     * must not fail and must not do I/O (automatic maintenance only takes note here and runs after
     * the window closed, docs/maintenance.md).
     */
    default void published(Intent intent, Outcome outcome) { }

    /**
     * @return the identity of {@code branch} now: its native Lance branch identifier of
     *     {@code __manifest} ({@value io.omnigraph.engine.manifest.GraphBranch#MAIN} for main)
     * @throws io.omnigraph.api.NotFoundException the branch does not exist (any more)
     */
    String branchIdentity(String branch);
  }

  /**
   * One touched table.
   *
   * @param spec the table
   * @param published its published entry in the manifest cut the write was prepared against
   * @param snapshot the table opened at {@code published.version()}; {@code null} for a first-touch table
   * @param staged the staged transaction, prepared against {@code snapshot}; {@code null} for a
   *     first-touch table
   * @param firstTouch for a table the write's branch touches first: the fork and the deferred
   *     staging, performed after the sidecar is armed; otherwise {@code null}
   */
  public record TableEffect(TableSpec spec, TableEntry published, TableSnapshot snapshot, StagedWrite staged,
      FirstTouch firstTouch) {
    public TableEffect {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(published, "published");
      if (firstTouch != null) {
        if (snapshot != null || staged != null) {
          throw new IllegalArgumentException("table " + spec.tableKey() + ": a first-touch effect is staged after the fork");
        }
      } else {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(staged, "staged");
        if (staged.readVersion() != published.version()) {
          throw new IllegalArgumentException("table " + spec.tableKey() + ": staged at version "
              + staged.readVersion() + " but published at " + published.version());
        }
      }
    }

    /** A table whose ref exists: staged already. */
    public TableEffect(TableSpec spec, TableEntry published, TableSnapshot snapshot, StagedWrite staged) {
      this(spec, published, snapshot, staged, null);
    }

    /** A first-touch table: forked and staged after the sidecar is armed. */
    public TableEffect(TableSpec spec, TableEntry published, FirstTouch firstTouch) {
      this(spec, published, null, null, Objects.requireNonNull(firstTouch, "firstTouch"));
    }
  }

  /**
   * What to commit.
   *
   * @param kind the writer
   * @param token the branch, its exact head (empty: none) and the schema identity the write was
   *     prepared against
   * @param actorId who, or {@code null}
   * @param message the commit message, or {@code null}
   * @param effects one entry per touched table, each table at most once; may be empty (the commit
   *     then records no table change)
   * @param onMovement what to do when the head moved since {@code expectedHead}
   * @param callerExpectedHead the head the caller requires ({@code --expect-head}), or {@code null}
   */
  public record Intent(WriterKind kind, WriteToken token, String actorId, String message,
      List<TableEffect> effects, OnMovement onMovement, String callerExpectedHead) {
    /** An intent that fails with ReadSetChanged on movement and has no caller head expectation. */
    public Intent(WriterKind kind, WriteToken token, String actorId, String message, List<TableEffect> effects) {
      this(kind, token, actorId, message, effects, OnMovement.READ_SET_CHANGED, null);
    }

    public Intent {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(onMovement, "onMovement");
      effects = List.copyOf(effects);
      Set<String> seen = new HashSet<>();
      for (TableEffect e : effects) {
        if (!seen.add(e.spec().tableKey())) {
          throw new IllegalArgumentException("table " + e.spec().tableKey() + " is touched twice in one write");
        }
      }
    }

    /** @return the graph branch the write targets */
    public String branch() {
      return token.branch();
    }

    /** @return this intent with {@code staged} as its effects (the first-touch ones forked and staged) */
    Intent withEffects(List<TableEffect> staged) {
      return new Intent(kind, token, actorId, message, staged, onMovement, callerExpectedHead);
    }

    /** @return the branch head the write was prepared against (empty: the branch had none) */
    public Optional<String> expectedHead() {
      return token.head();
    }
  }

  /**
   * A published write.
   *
   * @param commitId the new graph commit
   * @param state the manifest state after the publish
   * @param tableVersions per touched table key, the Lance version now published
   * @param phaseNanos time spent per phase ({@code commit}: table commits, {@code publish}: the
   *     manifest publish), in that order
   * @param manifestFragments fragments of the manifest version the publish was based on, plus the
   *     one its merge-insert added (read from the opened version: no I/O; automatic maintenance's
   *     trigger, docs/maintenance.md)
   * @param tableFragments per touched table key, its fragments at the committed version (read from
   *     the handle the commit returned: no I/O)
   */
  public record Outcome(String commitId, ManifestState state, Map<String, Long> tableVersions,
      Map<String, Long> phaseNanos, int manifestFragments, Map<String, Integer> tableFragments) {
    public Outcome {
      tableVersions = Map.copyOf(tableVersions);
      phaseNanos = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(phaseNanos));
      tableFragments = Map.copyOf(tableFragments);
    }
  }

  private final TableStore tables;
  private final ManifestPublisher publisher;
  private final SidecarStore sidecars;
  private final RecoverySweep.SchemaAuthority schema;
  private final Authority authority;
  private final GroupCommitQueue groupQueue = new GroupCommitQueue(this);

  /**
   * @param tables the table gateway
   * @param publisher the manifest publisher
   * @param sidecars recovery sidecar I/O of the graph root
   * @param schema the accepted schema identity, recorded in each sidecar's authority token
   * @param authority the graph-wide authority (fresh state, schema identity, effect window)
   */
  public GraphWrite(TableStore tables, ManifestPublisher publisher, SidecarStore sidecars,
      RecoverySweep.SchemaAuthority schema, Authority authority) {
    this.tables = Objects.requireNonNull(tables);
    this.publisher = Objects.requireNonNull(publisher);
    this.sidecars = Objects.requireNonNull(sidecars);
    this.schema = Objects.requireNonNull(schema);
    this.authority = Objects.requireNonNull(authority);
  }

  /**
   * Commits every staged effect of {@code intent} and publishes one graph commit.
   *
   * @return the commit
   * @throws StaleAttempt before any effect, for a {@link OnMovement#REPREPARE} write whose token moved
   * @throws io.omnigraph.api.PreconditionFailedException the caller's expected head does not hold
   * @throws ConflictException before any effect: the token moved (ReadSetChanged), a strict id
   *     exists (KeyConflict), drift, or a concurrent commit won the race; the graph is untouched
   * @throws RecoveryRequiredException a sidecar of an interrupted write is pending (nothing done), or
   *     after an effect: tables are committed but unpublished
   */
  public Outcome commitAndPublish(Intent intent) {
    try (EffectWindow window = enterWindow(intent.kind().name().toLowerCase(java.util.Locale.ROOT))) {
      return inWindow(intent, window, null);
    }
  }

  /**
   * {@link #inWindow} for a write whose token and the pending-sidecar listing the group commit
   * leader already checked against {@code base}, inside this same window.
   */
  Outcome inWindowChecked(Intent intent, EffectWindow window, ManifestPublisher.Base base) {
    return inWindowChecked(intent, window, base, null);
  }

  /**
   * {@link #inWindowChecked}, with the Armed sidecar's bytes {@code early} started for this very
   * intent when the window was entered ({@link #startArm}); {@code null}, or one started for another
   * intent, is ignored (the caller closes it).
   */
  Outcome inWindowChecked(Intent intent, EffectWindow window, ManifestPublisher.Base base, EarlyArm early) {
    boolean mine = early != null && early.intent == intent;
    if (mine) {
      early.used = true;
    }
    return inWindow(intent, window, Objects.requireNonNull(base), true, mine ? early : null);
  }

  /**
   * A write's commit id, commit time and Armed sidecar bytes, started on a second thread right after
   * its effect window was entered (group commit's leader alone in its queue: docs/concurrency.md),
   * so the sidecar's {@code fdatasync} overlaps the reads of the round instead of following them.
   * Closing it discards the bytes unless the write used them.
   */
  static final class EarlyArm implements AutoCloseable {
    private static final java.util.concurrent.atomic.AtomicLong USED = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong DISCARDED = new java.util.concurrent.atomic.AtomicLong();
    private final Intent intent;
    private final String commitId;
    private final long createdAt;
    private final Ahead<WriteIntent.PreparedArm> arm;
    private boolean used;

    private EarlyArm(Intent intent, String commitId, long createdAt, Ahead<WriteIntent.PreparedArm> arm) {
      this.intent = intent;
      this.commitId = commitId;
      this.createdAt = createdAt;
      this.arm = arm;
    }

    @Override
    public void close() {
      (used ? USED : DISCARDED).incrementAndGet();
      if (arm != null) {
        arm.close(); // discards the bytes unless the write took them
      }
    }
  }

  /**
   * Mints {@code intent}'s commit id and time and starts writing its Armed sidecar's bytes; call it
   * inside the write's effect window only (commit times follow the commit order).
   */
  EarlyArm startArm(Intent intent) {
    String commitId = Ulid.generate();
    long createdAt = nowMicros();
    return new EarlyArm(intent, commitId, createdAt,
        intent.effects().isEmpty() ? null : Ahead.start(() -> prepareArm(intent, commitId, createdAt)));
  }

  /**
   * Commits {@code member}'s write, batched with other queued members of this handle into one group
   * commit when it can be (docs/concurrency.md, "Group commit"; {@link GroupCommitQueue}): each
   * member is still its own graph commit. The caller must not hold this process's write gate (a
   * writer re-preparing under it commits alone through {@link #commitAndPublish}).
   *
   * @return the member's commit, or {@code null} when its (re-)preparation staged nothing
   * @throws StaleAttempt as {@link #commitAndPublish}, when the member ended up committing alone
   * @throws RuntimeException the member's own typed failure (its preparation, its conflict), or the
   *     batch's: a {@link RecoveryRequiredException} names the batch's sidecar for every member
   */
  public Outcome commitGrouped(Member member) {
    return groupQueue.submit(member);
  }

  /**
   * A write that may join a group commit (docs/concurrency.md, "Group commit"): an insert-only
   * mutation on main that prepares itself again, in its own thread, when the batch's leader finds
   * it prepared against an older head.
   */
  public interface Member {
    /** @return the current attempt's intent, or {@code null} when it staged nothing */
    Intent intent();

    /**
     * @return whether the schema lets this write's rows be checked against the head alone: none of
     *     its tables has a {@code @unique} constraint or a bounded edge cardinality, which two
     *     members validated against the same head could break together
     */
    boolean groupable();

    /** Discards the current attempt and prepares again from a fresh snapshot of the branch head. */
    void reprepare();
  }

  /**
   * @return {batches of two or more members, members committed in them, leaders alone in their
   *     queue whose sidecar bytes written from the window's entry were used, and those discarded} by
   *     group commit in this process so far (observables of docs/concurrency.md, "Group commit")
   */
  public static long[] groupCommitCounts() {
    return new long[] {GroupCommitQueue.batches(), GroupCommitQueue.batchedMembers(), EarlyArm.USED.get(),
        EarlyArm.DISCARDED.get()};
  }

  /** Enters this graph's effect window for one operation of this process. */
  EffectWindow enterWindow(String what) {
    return authority.enter(what + " " + ProcessHandle.current().pid());
  }

  /**
   * The whole effect half of one write inside {@code window}: revalidation, Phases A to D.
   *
   * @param base the manifest opened inside the window, or {@code null} to open it here
   */
  Outcome inWindow(Intent intent, EffectWindow window, ManifestPublisher.Base base) {
    return inWindow(intent, window, base, false, null);
  }

  private Outcome inWindow(Intent intent, EffectWindow window, ManifestPublisher.Base base, boolean checked,
      EarlyArm early) {
    // Minted inside the window, so commit times follow the commit order. The Armed sidecar is then
    // fully known: its bytes are written (and on local disk synced) on a second thread while the
    // token is checked, so Phase A costs only the rename and the directory sync
    // (docs/write-protocol.md, "Durability"); a write that stops before Phase A discards them.
    // Group commit's leader may have started them already, when it entered the window (EarlyArm).
    String commitId = early != null ? early.commitId : Ulid.generate();
    long createdAt = early != null ? early.createdAt : nowMicros();
    try (Ahead<WriteIntent.PreparedArm> arm = early != null ? early.arm : intent.effects().isEmpty() ? null
            : Ahead.start(() -> prepareArm(intent, commitId, createdAt));
        ManifestPublisher.Base opened = base == null ? publisher.openBase(intent.branch()) : null) {
      ManifestPublisher.Base fresh = base == null ? opened : base;
      if (!checked) {
        revalidate(intent, fresh.state());
        sidecars.requireNonePending();
      }
      for (TableEffect e : intent.effects()) {
        if (e.firstTouch() == null) {
          requireHeadAtPin(e); // a first-touch table's ref does not exist yet: its fork starts at the pin
        }
      }
      window.checkValid();
      Outcome outcome = effectsAndPublish(intent, fresh, commitId, createdAt, arm);
      authority.published(intent, outcome);
      return outcome;
    }
  }

  /** @return the token of {@code branch} now, at {@code fresh} */
  WriteToken tokenNow(ManifestState fresh, String branch) {
    return WriteToken.capture(fresh, branch, authority.branchIdentity(branch), authority.schemaIdentity(fresh));
  }

  /** The token check inside the effect window, before any effect, against the manifest read inside it. */
  private void revalidate(Intent intent, ManifestState fresh) {
    WriteToken prepared = intent.token();
    WriteToken now = tokenNow(fresh, intent.branch());
    now.requireHead(intent.callerExpectedHead(), fresh);
    String what = intent.kind().name().toLowerCase(java.util.Locale.ROOT);
    switch (prepared.compare(now)) {
      case NONE -> { }
      case HEAD -> {
        ConflictException changed = prepared.readSetChanged(now, what);
        throw intent.onMovement() == OnMovement.REPREPARE ? new StaleAttempt(changed) : changed;
      }
      case IDENTITY -> throw prepared.readSetChanged(now, what);
    }
  }

  private Outcome effectsAndPublish(Intent intent, ManifestPublisher.Base fresh, String commitId, long createdAt,
      Ahead<WriteIntent.PreparedArm> arm) {
    // In memory, before any effect: the opened base version's fragments plus the one the publish's
    // merge-insert adds (a retried publish may land on a later base; the count only decides whether
    // automatic maintenance looks, and maintenance plans from the real counts).
    int manifestFragments = tables.reader().fragmentCount(fresh.snapshot()) + 1;
    Failpoints.hit(Failpoints.WRITE_POST_STAGE_PRE_EFFECT);
    // The publish's files are written on another thread while the sidecar is armed and the tables are
    // committed and confirmed; they stay unreferenced until the publish commits them (PublishAhead).
    try (PublishAhead ahead = PublishAhead.start(publisher, intent, fresh, commitId, createdAt)) {
      WriteIntent sidecar = null;
      if (arm != null) {
        try (WriteIntent.PreparedArm prepared = arm.take()) {
          sidecar = prepared.arm();
        }
      }
      return effectsAndPublish(intent, fresh, sidecar, commitId, createdAt, manifestFragments, ahead);
    }
  }

  private Outcome effectsAndPublish(Intent intent, ManifestPublisher.Base fresh, WriteIntent sidecar, String commitId,
      long createdAt, int manifestFragments, PublishAhead ahead) {
    String operation = sidecar == null ? commitId : sidecar.operationId();
    try (FirstTouchForks forks = new FirstTouchForks(intent.effects())) {
      if (forks.any()) {
        // Sidecar-before-ref: the sidecar names every fork, so each is created only now.
        try {
          intent = intent.withEffects(forks.forkAndStage(operation));
        } catch (RecoveryRequiredException e) {
          throw e;
        } catch (RuntimeException e) {
          sidecar.retire(); // the forks made so far are removed: effect-free
          throw e;
        }
      }
      return effectsAndPublish(intent, fresh, sidecar, operation, commitId, createdAt, manifestFragments, forks,
          ahead);
    }
  }

  private Outcome effectsAndPublish(Intent intent, ManifestPublisher.Base fresh, WriteIntent sidecar,
      String operation, String commitId, long createdAt, int manifestFragments, FirstTouchForks forks,
      PublishAhead ahead) {
    Map<String, Long> phases = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    List<ManifestPublisher.TableUpdate> updates;
    Map<String, Integer> fragments = new TreeMap<>();
    try {
      updates = commitAll(intent, operation, fragments, !forks.any());
    } catch (RecoveryRequiredException e) {
      throw e; // a table committed: the sidecar stays for recovery
    } catch (ConflictException | StaleAttempt e) {
      // Effect-free by construction (a refused first commit, a KeyConflict probe): withdraw the intent
      // once the untouched forks it names are removed.
      if (sidecar != null) {
        RuntimeException out = forks.removeAfter(operation, e);
        if (out != e) {
          throw out;
        }
        sidecar.retire();
      }
      throw e;
    } catch (OmnigraphException e) {
      // The first commit failed for another reason than a refusal: withdraw the intent only when its
      // table provably did not move; otherwise the commit may have landed and recovery must decide.
      if (sidecar != null) {
        TableEffect first = intent.effects().get(0);
        boolean unmoved;
        try {
          unmoved = tables.reader().latestVersion(first.snapshot()) == first.published().version();
        } catch (OmnigraphException probe) {
          e.addSuppressed(probe);
          unmoved = false;
        }
        if (!unmoved) {
          throw new RecoveryRequiredException("recovery required for operation " + operation + ": committing "
              + first.spec().tableKey() + " failed (" + e.getMessage() + ") and it cannot be proven that nothing"
              + " landed; the next open resolves the sidecar " + RecoverySidecar.path(operation),
              new ErrorDetail.RecoveryRequired(operation), e);
        }
        RuntimeException out = forks.removeAfter(operation, e);
        if (out != e) {
          throw out;
        }
        sidecar.retire();
      }
      throw e;
    }
    Map<String, Long> expected = new TreeMap<>();
    Map<String, Long> versions = new LinkedHashMap<>();
    for (TableEffect e : intent.effects()) {
      expected.put(e.spec().tableKey(), e.published().version());
    }
    long tSync = System.nanoTime();
    phases.put("commit", tSync - t0);
    // Durability (docs/write-protocol.md, "Durability"): the committed table versions are durable
    // before the sidecar says they are confirmed, so recovery never rolls forward onto a lost file.
    // The confirmation's bytes are written (and synced) on a second thread meanwhile; it is put after.
    List<ManifestPublisher.TableUpdate> landed = updates;
    try (Ahead<SidecarStore.Prepared> confirmation = sidecar == null ? null
        : Ahead.start(() -> sidecar.prepareConfirm(confirmedTables(landed, forks.identities())))) {
      try {
        publisher.makeDurable(updates, expected);
      } catch (OmnigraphException e) {
        throw partial(operation, updates.stream().map(ManifestPublisher.TableUpdate::tableKey).toList(),
            "making them durable", e);
      }
      if (sidecar != null) {
        confirm(sidecar, confirmation);
      }
    }
    long t1 = System.nanoTime();
    phases.put("sync", t1 - tSync);
    for (ManifestPublisher.TableUpdate u : updates) {
      versions.put(u.tableKey(), u.version());
    }
    ManifestState state;
    try {
      Failpoints.hit(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH);
      // The first attempt is based on the manifest version the token was revalidated against.
      state = publisher.publish(new ManifestPublisher.PublishRequest(intent.branch(), updates, expected,
          intent.expectedHead(),
          new ManifestPublisher.LineageIntent(commitId, intent.actorId(), intent.message(), createdAt)), fresh,
          ahead.take());
    } catch (OmnigraphException e) {
      if (updates.isEmpty()) {
        throw e;
      }
      throw new RecoveryRequiredException("recovery required for operation " + operation + ": tables "
          + versions.keySet() + " were committed but the graph commit was not published (" + e.getMessage()
          + "); the confirmed sidecar " + RecoverySidecar.path(operation) + " lets the next write or open publish it",
          new ErrorDetail.RecoveryRequired(operation), e);
    }
    phases.put("publish", System.nanoTime() - t1);
    if (sidecar != null) {
      // The publish is durable (the publisher synced it): the removal need not be.
      sidecar.retirePublished();
    }
    return new Outcome(commitId, state, versions, phases, manifestFragments, fragments);
  }

  private WriteIntent.PreparedArm prepareArm(Intent intent, String commitId, long createdAt) {
    List<WriteIntent.PlannedTable> planned = new ArrayList<>();
    for (TableEffect e : intent.effects()) {
      String tableBranch = GraphBranch.toColumn(intent.branch());
      TableIdentity id = new TableIdentity(e.spec().stableTableId(), e.spec().tableIncarnationId());
      if (e.firstTouch() != null) {
        planned.add(new WriteIntent.PlannedTable(id, e.spec().tableKey(), e.firstTouch().plan().main().uri(),
            e.published().version(), e.firstTouch().uuid(), tableBranch, true));
        continue;
      }
      planned.add(new WriteIntent.PlannedTable(id, e.spec().tableKey(),
          TableReader.mainUri(e.snapshot().location(), tableBranch), e.published().version(), e.staged().uuid(),
          tableBranch));
    }
    RecoverySidecar.WriterKind kind = switch (intent.kind()) {
      case LOAD -> RecoverySidecar.WriterKind.LOAD;
      case MUTATION -> RecoverySidecar.WriterKind.MUTATION;
      case ENSURE_INDICES -> RecoverySidecar.WriterKind.ENSURE_INDICES;
    };
    return WriteIntent.prepareArm(sidecars, kind, intent.branch(), intent.actorId(), intent.message(),
        intent.expectedHead(), schema, commitId, createdAt, planned);
  }

  static List<WriteIntent.ConfirmedTable> confirmedTables(List<ManifestPublisher.TableUpdate> updates) {
    return confirmedTables(updates, Map.of());
  }

  /** @param forkedRefs per first-touch table key, the identifier of the ref the write created (the confirmation binds it) */
  static List<WriteIntent.ConfirmedTable> confirmedTables(List<ManifestPublisher.TableUpdate> updates,
      Map<String, String> forkedRefs) {
    List<WriteIntent.ConfirmedTable> confirmed = new ArrayList<>();
    for (ManifestPublisher.TableUpdate u : updates) {
      confirmed.add(new WriteIntent.ConfirmedTable(u.identity(), u.version(), u.rowCount(),
          ManifestStore.versionMetadata(u.tableUri(), u.version()), forkedRefs.get(u.tableKey())));
    }
    return confirmed;
  }

  private static void confirm(WriteIntent sidecar, Ahead<SidecarStore.Prepared> confirmation) {
    try (SidecarStore.Prepared prepared = confirmation.take()) {
      sidecar.confirm(prepared);
    } catch (OmnigraphException | IllegalArgumentException e) {
      throw new RecoveryRequiredException("recovery required for operation " + sidecar.operationId()
          + ": every table was committed but the recovery sidecar could not be confirmed (" + e.getMessage()
          + "); the next open rolls the write back", new ErrorDetail.RecoveryRequired(sidecar.operationId()), e);
    }
  }

  void requireHeadAtPin(TableEffect e) {
    long head = tables.reader().latestVersion(e.snapshot());
    if (head != e.published().version()) {
      String key = e.spec().tableKey();
      throw new ConflictException("table " + key + " has Lance HEAD " + head + " but the graph publishes "
          + e.published().version() + ": an earlier write committed without publishing; the table needs repair",
          new ErrorDetail.ReadSetConflict("table_head:" + key, Long.toString(e.published().version()),
              Long.toString(head)));
    }
  }

  private List<ManifestPublisher.TableUpdate> commitAll(Intent intent, String operation,
      Map<String, Integer> fragments, boolean postSidecarFailpoint) {
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    List<String> landed = new ArrayList<>();
    if (postSidecarFailpoint) {
      Failpoints.hit(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT); // with forks, FirstTouchForks hits it before them
    }
    for (TableEffect e : intent.effects()) {
      String key = e.spec().tableKey();
      TableSnapshot after;
      try {
        Failpoints.hit(Failpoints.TABLE_COMMIT_BEFORE);
        after = tables.writer().commitStagedAndOpen(e.snapshot(), e.staged());
      } catch (RetryableCommitConflict ex) {
        // Lance refused the commit: nothing of this table landed.
        if (landed.isEmpty()) {
          throw effectFree(intent, e, ex);
        }
        throw partial(operation, landed, key, ex);
      } catch (ConflictException ex) {
        // The commit landed, but rebased past a concurrent commit: that version is this write's effect.
        landed.add(key);
        throw partial(operation, landed, key, ex);
      } catch (OmnigraphException ex) {
        if (landed.isEmpty()) {
          throw ex;
        }
        throw partial(operation, landed, key, ex);
      }
      landed.add(key);
      long version = after.version();
      long rows;
      // The row count is read from the handle the commit returned: no second open of the new version.
      // On main that handle is kept for the next write on this table, which stages against exactly
      // this version (TableReader.keep; a branch ref is never kept).
      try {
        Failpoints.hit(Failpoints.TABLE_COMMIT_AFTER);
        rows = tables.reader().countRows(after);
        fragments.put(key, tables.reader().fragmentCount(after));
      } catch (RuntimeException ex) {
        after.close();
        throw ex instanceof OmnigraphException oe ? partial(operation, landed, key, oe) : ex;
      }
      if (GraphBranch.MAIN.equals(intent.branch()) && e.published().branch() == null) {
        tables.reader().keep(after);
      } else {
        after.close();
      }
      updates.add(new ManifestPublisher.TableUpdate(
          new TableIdentity(e.spec().stableTableId(), e.spec().tableIncarnationId()),
          key, version, rows, e.snapshot().location().uri(), GraphBranch.toColumn(intent.branch())));
    }
    return updates;
  }

  /**
   * The effect-free finalizer: a table commit was refused before any of this write's effects
   * landed. A caller head expectation that no longer holds is PreconditionFailed. Strict-insert ids
   * are probed against fresh manifest-visible state: an exact match is KeyConflict. Otherwise the
   * attempt is stale (re-prepare) or ReadSetChanged.
   */
  private RuntimeException effectFree(Intent intent, TableEffect failed, RetryableCommitConflict cause) {
    String key = failed.spec().tableKey();
    ConflictException changed = new ConflictException("a concurrent writer committed to " + key
        + " first; nothing was written", new ErrorDetail.ReadSetConflict("table_head:" + key,
            Long.toString(failed.published().version()), null), cause);
    ManifestState fresh = null;
    if (intent.callerExpectedHead() != null) {
      // The caller's expectation is terminal: a refusal caused by a head that moved is 412, not 409.
      fresh = authority.freshState();
      WriteToken.capture(fresh, intent.branch(), authority.schemaIdentity(fresh))
          .requireHead(intent.callerExpectedHead(), fresh);
    }
    for (TableEffect e : intent.effects()) {
      if (e.staged().kind() != StagedWrite.Kind.STRICT_INSERT || e.staged().ids().isEmpty()) {
        continue;
      }
      fresh = fresh == null ? authority.freshState() : fresh;
      Optional<TableEntry> entry = fresh.table(e.spec().tableKey());
      if (entry.isEmpty()) {
        continue;
      }
      try (TableSnapshot s = tables.reader().openAt(e.snapshot().location(), entry.get().version())) {
        List<String> existing = tables.reader().existingIds(s, e.staged().ids());
        if (!existing.isEmpty()) {
          return WriteErrors.keyConflict(e.spec().tableKey(), existing, "already exists");
        }
      }
    }
    return intent.onMovement() == OnMovement.REPREPARE ? new StaleAttempt(changed) : changed;
  }

  static RecoveryRequiredException partial(String operation, List<String> landed, String failed,
      RuntimeException cause) {
    return new RecoveryRequiredException("recovery required for operation " + operation + ": tables " + landed
        + " were committed but " + failed + " failed (" + cause.getMessage()
        + "); nothing was published, and the next open rolls the write back from its sidecar "
        + RecoverySidecar.path(operation), new ErrorDetail.RecoveryRequired(operation), cause);
  }

  TableStore tables() {
    return tables;
  }

  ManifestPublisher publisher() {
    return publisher;
  }

  SidecarStore sidecars() {
    return sidecars;
  }

  RecoverySweep.SchemaAuthority schema() {
    return schema;
  }

  Authority authority() {
    return authority;
  }

  /** Microseconds since the epoch, the lineage timestamp unit. */
  public static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
