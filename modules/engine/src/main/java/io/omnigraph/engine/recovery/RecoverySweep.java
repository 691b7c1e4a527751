package io.omnigraph.engine.recovery;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TableEffect;
import io.omnigraph.engine.recovery.RecoverySidecar.TableOutcome;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.RecoverySidecar.TableUpdateSlot;
import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import io.omnigraph.engine.recovery.TableClassification.Decision;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.snapshot.SchemaFiles;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.CommittedTransaction;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Finds and resolves interrupted writes: lists {@code __recovery/}, reads each sidecar once,
 * classifies every pinned table against the live Lance HEAD and the manifest (docs/recovery.md),
 * then rolls forward (publishes the confirmed effects under the original lineage), rolls back
 * (Lance Restore of each owned drifted table to its expected version through {@link TableStore},
 * then one publish of the restored heads with the pre-minted rollback commit), or refuses. Each
 * roll-forward or rollback appends one {@link RecoveryAudit} row before the sidecar is deleted, so
 * a failed audit append keeps the sidecar and the next sweep records exactly one row.
 *
 * <p>Callers hold the root's effect window for the whole sweep (this process's write gate and the
 * graph's cross-process {@link io.omnigraph.engine.write.WriteLease}): a Restore is only safe when
 * no writer is committing (docs/recovery.md, "Sweep modes"), and a sweep must never roll back the
 * in-flight intent of
 * a live writer in another process. A dry run holds only the gate and changes nothing.
 */
public final class RecoverySweep {
  private static final System.Logger LOG = System.getLogger(RecoverySweep.class.getName());

  /** How much the sweep may do. */
  public enum Mode {
    /** Open-time and {@code omnigraph repair}: roll forward, roll back, discard effect-free intents. */
    FULL,
    /** In-process heal at write entry: roll forward only; anything else is left for the next open. */
    ROLL_FORWARD_ONLY,
    /** {@code omnigraph repair --dry-run}: classify and report, change nothing. */
    DRY_RUN
  }

  /** What happened to one sidecar. */
  public enum Action {
    /** The confirmed effects were published and audited. */
    ROLLED_FORWARD,
    /** The owned effects were restored away, the restored heads published and audited. */
    ROLLED_BACK,
    /** The write had been published (or rolled back) already; the missing audit row was added. */
    FINALIZED,
    /** No table effect exists: the sidecar was deleted (no publish, no audit row). */
    DISCARDED,
    /** Left on storage for a full sweep (roll-forward-only) or only classified (dry run). */
    PENDING,
    /** Left on storage for an operator: recovery cannot prove what to do. */
    REFUSED
  }

  /**
   * The result for one sidecar.
   *
   * @param operationId the sidecar's operation
   * @param writerKind its writer (JSON name)
   * @param actorId its actor, or {@code null}
   * @param tables per table key, its classification
   * @param decision the all-or-nothing decision over the tables
   * @param action what the sweep did
   * @param detail why, in words
   * @param outcomes per table: from and to version (empty unless rolled forward or back)
   */
  public record Outcome(String operationId, String writerKind, String actorId, Map<String, TableClassification> tables,
      Decision decision, Action action, String detail, List<TableOutcome> outcomes) {
    public Outcome {
      tables = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tables));
      outcomes = List.copyOf(outcomes);
    }

    /** @return whether the sidecar still blocks writes */
    public boolean unresolved() {
      return action == Action.PENDING || action == Action.REFUSED;
    }
  }

  /**
   * The accepted schema identity of the open graph, compared with a sidecar's authority token.
   *
   * @param domain schema identity domain
   * @param irHash IR hash
   * @param identityVersion identity version
   */
  public record SchemaAuthority(String domain, String irHash, long identityVersion) {}

  final GraphRoot root;
  final TableStore tables;
  private final ManifestStore manifest;
  final ManifestPublisher publisher;
  final SidecarStore sidecars;
  final RecoveryAudit audit;
  final SchemaAuthority schema;

  /**
   * The sweep of a graph root: its sidecar store, its audit log and the identity of the schema the
   * root accepts (also used by repair and cleanup before a graph handle exists).
   */
  public static RecoverySweep forRoot(GraphRoot root, TableStore tables, ManifestStore manifest,
      ManifestPublisher publisher, CompiledSchema schema) {
    SidecarStore sidecars = new SidecarStore(root, new SidecarCodec(
        pin -> root.lance(pin.identity().canonicalPath(pin.tableKey())).uri()));
    return new RecoverySweep(root, tables, manifest, publisher, sidecars,
        new RecoveryAudit(tables, root.lance(RecoveryAudit.PATH), manifest.durability()),
        new SchemaAuthority(schema.ir().identityDomain(), schema.ir().hash(), SchemaFiles.IDENTITY_VERSION));
  }

  /**
   * @param root the graph root
   * @param tables the table gateway (the only Lance writer)
   * @param manifest the manifest
   * @param publisher the manifest publisher
   * @param sidecars sidecar I/O
   * @param audit the audit log
   * @param schema the accepted schema identity
   */
  public RecoverySweep(GraphRoot root, TableStore tables, ManifestStore manifest, ManifestPublisher publisher,
      SidecarStore sidecars, RecoveryAudit audit, SchemaAuthority schema) {
    this.root = Objects.requireNonNull(root);
    this.tables = Objects.requireNonNull(tables);
    this.manifest = Objects.requireNonNull(manifest);
    this.publisher = Objects.requireNonNull(publisher);
    this.sidecars = Objects.requireNonNull(sidecars);
    this.audit = Objects.requireNonNull(audit);
    this.schema = Objects.requireNonNull(schema);
  }

  /** @return the sidecar I/O this sweep uses */
  public SidecarStore sidecars() {
    return sidecars;
  }

  /** @return the accepted schema identity writers record in their authority token */
  public SchemaAuthority schema() {
    return schema;
  }

  /** @return the audit log */
  public RecoveryAudit audit() {
    return audit;
  }

  /**
   * Runs the sweep over every sidecar, oldest first.
   *
   * @return one outcome per sidecar found (empty in the steady state: one listing, nothing read)
   * @throws io.omnigraph.api.StorageFailureException the listing or a read failed
   * @throws RecoveryRequiredException a sidecar is corrupt, foreign or of an unsupported version
   *     (in every mode; the file is kept), or, in {@link Mode#FULL}, a sidecar had to be refused
   */
  public List<Outcome> run(Mode mode) {
    return run(mode, () -> { });
  }

  /**
   * {@link #run(Mode)}, calling {@code beforeEach} before each sidecar is resolved (the caller's
   * effect window checks there that its lease is still valid, so no restore or publish starts
   * without exclusion).
   */
  public List<Outcome> run(Mode mode, Runnable beforeEach) {
    Objects.requireNonNull(beforeEach, "beforeEach");
    List<Outcome> out = new ArrayList<>();
    List<String> listed = sidecars.list();
    if (!listed.isEmpty()) {
      // The caller already holds the root's write gate; the reference's "gates" point is here.
      Failpoints.hit(Failpoints.RECOVERY_POST_LIST_PRE_GATES);
      Failpoints.hit(Failpoints.SIDECAR_POST_LIST_PRE_READ);
    }
    for (String path : listed) {
      Optional<RecoverySidecar> s = sidecars.read(path);
      if (s.isEmpty()) {
        continue; // its writer finished and deleted it between the listing and the read
      }
      beforeEach.run();
      Outcome o = process(s.get(), mode);
      log(o, mode);
      out.add(o);
      if (mode == Mode.FULL && o.action() == Action.REFUSED) {
        throw new RecoveryRequiredException("recovery required for operation " + o.operationId() + ": " + o.detail()
            + "; the sidecar " + RecoverySidecar.path(o.operationId()) + " was kept for operator review",
            new ErrorDetail.RecoveryRequired(o.operationId()));
      }
    }
    return out;
  }

  /**
   * The write-entry barrier: heals roll-forward-only, then refuses when any sidecar is still
   * unresolved. Callers hold the effect window.
   *
   * @param beforeEach run before each sidecar is resolved (the lease check)
   * @throws RecoveryRequiredException naming the oldest unresolved operation (HTTP 503)
   */
  public void barrier(Runnable beforeEach) {
    for (Outcome o : run(Mode.ROLL_FORWARD_ONLY, beforeEach)) {
      if (o.unresolved()) {
        throw new RecoveryRequiredException("recovery required for operation " + o.operationId() + ": " + o.detail()
            + "; reopen the graph read-write or run 'omnigraph repair' to resolve it",
            new ErrorDetail.RecoveryRequired(o.operationId()));
      }
    }
  }

  /**
   * Resolves the one Optimize sidecar {@code operationId} with the full sweep's rule, right after
   * the optimize that armed it failed in this process (automatic maintenance, docs/maintenance.md):
   * its writer is finished, so "no table effect yet" is discarded instead of left for the next open,
   * and the bounded maintenance rule never restores anything. Callers hold the effect window.
   *
   * @return what was done; empty when the sidecar is gone or is not an Optimize sidecar
   * @throws RecoveryRequiredException the sidecar had to be refused (it stays)
   */
  public Optional<Outcome> resolveMaintenance(String operationId, Runnable beforeEach) {
    Optional<RecoverySidecar> s = sidecars.read(RecoverySidecar.path(operationId));
    if (s.isEmpty() || s.get().writerKind() != RecoverySidecar.WriterKind.OPTIMIZE) {
      return Optional.empty();
    }
    beforeEach.run();
    Outcome o = processMaintenance(s.get(), Mode.FULL);
    log(o, Mode.FULL);
    if (o.action() == Action.REFUSED) {
      throw new RecoveryRequiredException("recovery required for operation " + o.operationId() + ": " + o.detail()
          + "; the sidecar " + RecoverySidecar.path(o.operationId()) + " was kept for operator review",
          new ErrorDetail.RecoveryRequired(o.operationId()));
    }
    return Optional.of(o);
  }

  private static void log(Outcome o, Mode mode) {
    System.Logger.Level level = o.action() == Action.PENDING || mode == Mode.DRY_RUN ? System.Logger.Level.DEBUG
        : o.action() == Action.REFUSED ? System.Logger.Level.WARNING : System.Logger.Level.INFO;
    LOG.log(level, "recovery " + o.operationId() + " (" + o.writerKind() + "): " + o.action() + ", " + o.detail()
        + " " + o.tables());
  }

  // ------------------------------------------------------------------ per sidecar

  /** One table as observed now. */
  private record Observed(TablePin pin, LanceLocation location, long head, long pinned,
      Optional<CommittedTransaction> atExpectedPlusOne, Optional<CommittedTransaction> atHead) {
    boolean ownsFirstEffect(TableEffect e) {
      return atExpectedPlusOne.isPresent() && atExpectedPlusOne.get().readVersion() == e.planned().readVersion()
          && atExpectedPlusOne.get().uuid().equals(e.planned().uuid());
    }
  }

  private Outcome process(RecoverySidecar s, Mode mode) {
    if (s.writerKind() == RecoverySidecar.WriterKind.OPTIMIZE) {
      return processMaintenance(s, mode);
    }
    if (s.writerKind() == RecoverySidecar.WriterKind.SCHEMA_APPLY) {
      return processSchemaApply(s, mode);
    }
    if (s.writerKind() == RecoverySidecar.WriterKind.BRANCH_MERGE || s.writerKind() == RecoverySidecar.WriterKind.GROUP_COMMIT) {
      return new MergeRecovery(this).process(s, mode);
    }
    ProtocolV3 p = s.protocol();
    ManifestState state;
    try {
      state = readState(GraphBranch.fromColumn(s.branch()));
    } catch (NotFoundException e) {
      if (s.branch() == null) {
        throw e;
      }
      return orphaned(s, mode);
    }
    List<Observed> observed = new ArrayList<>();
    Map<String, TableClassification> classes = new LinkedHashMap<>();
    FirstTouchRecovery forks = new FirstTouchRecovery(this);
    for (TablePin pin : s.tables()) {
      Optional<TableEntry> entry = state.table(pin.tableKey());
      if (entry.isPresent() && !entry.get().identity().equals(pin.identity())) {
        return outcome(s, classes, null, Action.REFUSED, "table " + pin.tableKey() + " is now bound to "
            + entry.get().identity() + ", not the sidecar's " + pin.identity(), List.of());
      }
      long pinned = entry.map(TableEntry::version).orElse(0L);
      LanceLocation loc = io.omnigraph.engine.table.TableReader.branchLocation(
          root.lance(pin.identity().canonicalPath(pin.tableKey())), pin.tableBranch());
      var fork = forks.observe(pin, p.effect(pin.identity()).orElseThrow(), entry);
      if (fork.isPresent() && fork.get().refusal() != null) {
        return outcome(s, classes, null, refuse(mode), fork.get().refusal(), List.of());
      }
      if (fork.isPresent() && fork.get().leftover() == io.omnigraph.engine.table.TableFork.Leftover.ABSENT) {
        // Crash before the fork (or inside Lance's create): no ref, so no effect on this table.
        observed.add(new Observed(pin, loc, pinned, pinned, Optional.empty(), Optional.empty()));
        classes.put(pin.tableKey(), TableClassification.NO_MOVEMENT);
        continue;
      }
      long head;
      try (TableSnapshot latest = tables.reader().openLatest(loc)) {
        head = latest.version();
      } catch (NotFoundException e) {
        return outcome(s, classes, null, Action.REFUSED, "table " + pin.tableKey() + " has no dataset at "
            + loc.uri(), List.of());
      }
      long first = pin.expectedVersion() + 1;
      Optional<CommittedTransaction> atFirst = head >= first && first >= 2
          ? tables.reader().transactionAt(loc, first) : Optional.empty();
      Optional<CommittedTransaction> atHead = head > pinned && head >= 2
          ? (head == first ? atFirst : tables.reader().transactionAt(loc, head)) : Optional.empty();
      Observed o = new Observed(pin, loc, head, pinned, atFirst, atHead);
      observed.add(o);
      classes.put(pin.tableKey(), TableClassification.classify(pin, p, head, pinned,
          atHead.map(t -> new TransactionIdentity(t.readVersion(), t.uuid()))));
    }
    Decision decision = TableClassification.decide(new ArrayList<>(classes.values()));
    if (decision == Decision.ABORT) {
      return outcome(s, classes, decision, mode == Mode.FULL ? Action.REFUSED : Action.PENDING,
          "a table's Lance HEAD is behind its published version (storage lost a commit)", List.of());
    }

    // Ownership (docs/recovery.md, "Classification of one table"): which drifted tables carry
    // exactly this write's effect.
    boolean anyOwned = false;
    for (Observed o : observed) {
      if (o.head() == o.pinned()) {
        continue;
      }
      TableEffect e = p.effect(o.pin().identity()).orElseThrow();
      if (o.pinned() != o.pin().expectedVersion()) {
        return outcome(s, classes, decision, refuse(mode), "table " + o.pin().tableKey() + " is published at "
            + o.pinned() + " (the write expected " + o.pin().expectedVersion() + ") and its HEAD " + o.head()
            + " is ahead of that: foreign drift recovery will not restore through", List.of());
      }
      if (!o.ownsFirstEffect(e)) {
        return outcome(s, classes, decision, refuse(mode), "table " + o.pin().tableKey() + " moved to HEAD "
            + o.head() + " by a transaction this write did not plan: foreign drift recovery will not adopt or undo",
            List.of());
      }
      boolean atHead = o.head() == o.pin().expectedVersion() + 1;
      boolean compensated = o.head() == o.pin().expectedVersion() + 2 && o.atHead().isPresent()
          && o.atHead().get().restores(o.pin().expectedVersion());
      if (!atHead && !compensated) {
        return outcome(s, classes, decision, refuse(mode), "this write's commit on " + o.pin().tableKey()
            + " is buried under later commits (HEAD " + o.head() + ")", List.of());
      }
      anyOwned = true;
    }

    if (!anyOwned) {
      if (mode == Mode.FULL && forks.any()) {
        // Unpublished no-effect forks go before the intent that names them (docs/branches.md).
        try {
          forks.removeNoEffect();
        } catch (ConflictException e) {
          return outcome(s, classes, decision, Action.REFUSED, e.getMessage(), List.of());
        }
      }
      return resolveWithoutEffects(s, state, classes, decision, mode);
    }
    boolean tokenHolds = Objects.equals(state.graphHeads().get(GraphBranch.fromColumn(s.branch())),
        p.authority().graphHead())
        && p.authority().schemaIrHash().equals(schema.irHash())
        && p.authority().schemaIdentityDomain().equals(schema.domain());
    if (decision == Decision.ROLL_FORWARD && !tokenHolds) {
      decision = Decision.ROLL_BACK;
      if (mode != Mode.FULL) {
        return outcome(s, classes, decision, Action.PENDING, "the graph head or schema changed since the write was"
            + " prepared, so its confirmed effects cannot be published; a full sweep rolls it back", List.of());
      }
    }
    if (mode == Mode.DRY_RUN) {
      return outcome(s, classes, decision, Action.PENDING, decision == Decision.ROLL_FORWARD
          ? "would publish the confirmed effects" : "would restore the drifted tables and publish", List.of());
    }
    if (decision == Decision.ROLL_FORWARD) {
      return rollForward(s, observed, classes);
    }
    if (mode == Mode.ROLL_FORWARD_ONLY) {
      return outcome(s, classes, decision, Action.PENDING, "the write's effects are unconfirmed or partial and need a"
          + " rollback, which only a full sweep (open or 'omnigraph repair') performs", List.of());
    }
    try {
      forks.removeNoEffect(); // first, so a crash after the rollback publish cannot strand them
    } catch (ConflictException e) {
      return outcome(s, classes, decision, Action.REFUSED, e.getMessage(), List.of());
    }
    return rollBack(s, observed, classes);
  }

  /**
   * The bounded maintenance rule for an Optimize sidecar (docs/maintenance.md, "Recovery"): Lance
   * commits compaction and index folds itself, so no transaction identity was pre-minted. A table
   * whose HEAD moved past its pin is rolled FORWARD when every version after the pin was produced by
   * a content-preserving operation (Rewrite, CreateIndex, ReserveFragments): its rows are the
   * published rows, so publishing the HEAD changes no answer. Anything else moved the table and is
   * refused (the sidecar stays). Single-writer-process model: Optimize holds the effect window (gate
   * and lease) from arming to retirement, so nothing else commits to its tables meanwhile.
   */
  private Outcome processMaintenance(RecoverySidecar s, Mode mode) {
    ProtocolV3 p = s.protocol();
    ManifestState state = readState(GraphBranch.fromColumn(s.branch()));
    Map<String, TableClassification> classes = new LinkedHashMap<>();
    if (visible(state, p.lineage().graphCommitId()) || visible(state, p.rollbackGraphCommitId())) {
      return resolveWithoutEffects(s, state, classes, Decision.ROLL_FORWARD, mode);
    }
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    List<TableOutcome> outs = new ArrayList<>();
    for (TablePin pin : s.tables()) {
      Optional<TableEntry> entry = state.table(pin.tableKey());
      if (entry.isEmpty() || !entry.get().identity().equals(pin.identity())) {
        return outcome(s, classes, null, refuse(mode), "table " + pin.tableKey() + " is no longer published as "
            + pin.identity(), List.of());
      }
      long pinned = entry.get().version();
      if (pinned != pin.expectedVersion()) {
        return outcome(s, classes, null, refuse(mode), "table " + pin.tableKey() + " is published at " + pinned
            + " instead of the expected " + pin.expectedVersion() + " but the optimize commit is not in the lineage",
            List.of());
      }
      LanceLocation loc = root.lance(pin.identity().canonicalPath(pin.tableKey()));
      long head = tables.reader().latestVersionOf(loc);
      if (head < pinned) {
        classes.put(pin.tableKey(), TableClassification.INVARIANT_VIOLATION);
        return outcome(s, classes, Decision.ABORT, refuse(mode), "table " + pin.tableKey() + " has HEAD " + head
            + " behind its published version " + pinned + " (storage lost a commit)", List.of());
      }
      if (head == pinned) {
        classes.put(pin.tableKey(), TableClassification.NO_MOVEMENT);
        continue;
      }
      for (long v = pinned + 1; v <= head; v++) {
        Optional<CommittedTransaction> t = tables.reader().transactionAt(loc, v);
        if (t.isEmpty() || !t.get().preservesContent()) {
          classes.put(pin.tableKey(), TableClassification.UNEXPECTED_MULTISTEP);
          return outcome(s, classes, null, refuse(mode), "table " + pin.tableKey() + " version " + v + " was made by "
              + t.map(CommittedTransaction::operation).orElse("an unknown transaction")
              + ", not by compaction or an index build: recovery will not publish it", List.of());
        }
      }
      classes.put(pin.tableKey(), TableClassification.ROLLED_PAST_EXPECTED);
      long rows;
      try (TableSnapshot at = tables.reader().openAt(loc, head)) {
        rows = tables.reader().countRows(at);
      }
      updates.add(new ManifestPublisher.TableUpdate(pin.identity(), pin.tableKey(), head, rows, loc.uri()));
      expected.put(pin.tableKey(), pinned);
      outs.add(new TableOutcome(pin.tableKey(), pinned, head));
    }
    if (updates.isEmpty()) {
      if (mode != Mode.FULL) {
        return outcome(s, classes, Decision.ROLL_FORWARD, Action.PENDING, "no table effect yet; a live optimize may"
            + " still own it (a full sweep discards it)", List.of());
      }
      sidecars.delete(s.operationId());
      return outcome(s, classes, Decision.ROLL_FORWARD, Action.DISCARDED, "the optimize never moved a table; nothing"
          + " to publish", List.of());
    }
    if (mode == Mode.DRY_RUN) {
      return outcome(s, classes, Decision.ROLL_FORWARD, Action.PENDING, "would publish the compacted versions", outs);
    }
    var l = p.lineage();
    String branch = GraphBranch.fromColumn(s.branch());
    Failpoints.hit(Failpoints.RECOVERY_BEFORE_ROLL_FORWARD_PUBLISH);
    try {
      // Content-preserving: published onto whatever head the branch has now (its tables were not touched since).
      publisher.publish(new ManifestPublisher.PublishRequest(branch, updates, expected,
          state.headCommitId(branch), new ManifestPublisher.LineageIntent(l.graphCommitId(), l.actorId(),
              l.message(), l.createdAtMicros())));
    } catch (ConflictException e) {
      return outcome(s, classes, Decision.ROLL_FORWARD, Action.REFUSED, "publishing the compacted versions failed: "
          + e.getMessage(), List.of());
    }
    audit.append(new AuditPlan(RecoveryAudit.Kind.RolledForward, l.graphCommitId(), outs).row(s));
    sidecars.delete(s.operationId());
    return outcome(s, classes, Decision.ROLL_FORWARD, Action.ROLLED_FORWARD,
        "published the compacted versions as commit " + l.graphCommitId(), outs);
  }

  /**
   * A SchemaApply sidecar (docs/schema-migration.md, "Recovery"). Published (its commit is in main's
   * lineage): the schema files are promoted if a crash interrupted that, then the sidecar is
   * finalized. Not published: the apply is rolled back, Armed or EffectsConfirmed alike, and only by a
   * full sweep: every rewritten table whose HEAD carries exactly the apply's pre-minted Overwrite is
   * restored to its published version, every table the apply created (at its fresh, unregistered
   * path) is deleted, and one rollback commit is published. Anything else (a table moved by a
   * transaction the apply did not plan, a created path the manifest registers) is refused.
   */
  private Outcome processSchemaApply(RecoverySidecar s, Mode mode) {
    ProtocolV3 p = s.protocol();
    ManifestState state = readState(GraphBranch.MAIN);
    Map<String, TableClassification> classes = new LinkedHashMap<>();
    if (visible(state, p.lineage().graphCommitId())) {
      if (mode != Mode.DRY_RUN) {
        SchemaFiles.promoteIfBehind(root, state.schemaIrHash());
      }
      return resolveWithoutEffects(s, state, classes, Decision.ROLL_FORWARD, mode);
    }
    if (visible(state, p.rollbackGraphCommitId())) {
      return resolveWithoutEffects(s, state, classes, Decision.ROLL_BACK, mode);
    }
    record Owned(TablePin pin, LanceLocation loc, long head, boolean compensated) {}
    List<Owned> owned = new ArrayList<>();
    for (TablePin pin : s.tables()) {
      Optional<TableEntry> entry = state.table(pin.tableKey());
      if (entry.isEmpty() || !entry.get().identity().equals(pin.identity())
          || entry.get().version() != pin.expectedVersion()) {
        return outcome(s, classes, Decision.ROLL_BACK, refuse(mode), "table " + pin.tableKey() + " is no longer"
            + " published as " + pin.identity() + " at version " + pin.expectedVersion(), List.of());
      }
      LanceLocation loc = root.lance(pin.identity().canonicalPath(pin.tableKey()));
      long head = tables.reader().latestVersionOf(loc);
      long expected = pin.expectedVersion();
      if (head == expected) {
        classes.put(pin.tableKey(), TableClassification.NO_MOVEMENT);
        continue;
      }
      TableEffect e = p.effect(pin.identity()).orElseThrow();
      Optional<CommittedTransaction> first = tables.reader().transactionAt(loc, expected + 1);
      boolean ours = first.isPresent() && first.get().readVersion() == e.planned().readVersion()
          && first.get().uuid().equals(e.planned().uuid());
      boolean compensated = head == expected + 2 && ours
          && tables.reader().transactionAt(loc, head).map(t -> t.restores(expected)).orElse(false);
      if (!ours || (head != expected + 1 && !compensated)) {
        classes.put(pin.tableKey(), TableClassification.UNEXPECTED_MULTISTEP);
        return outcome(s, classes, Decision.ROLL_BACK, refuse(mode), "table " + pin.tableKey() + " moved to HEAD "
            + head + " by a transaction the schema apply did not plan: recovery will not restore through it",
            List.of());
      }
      classes.put(pin.tableKey(), TableClassification.ROLLED_PAST_EXPECTED);
      owned.add(new Owned(pin, loc, head, compensated));
    }
    List<RecoverySidecar.CreatedTable> created = new ArrayList<>();
    for (RecoverySidecar.CreatedTable c : s.schemaApply().created()) {
      boolean registered = state.tables().values().stream().anyMatch(t -> t.identity().equals(c.identity())
          || t.path().equals(c.tablePath()));
      if (registered) {
        return outcome(s, classes, Decision.ROLL_BACK, refuse(mode), "the table " + c.tableKey()
            + " the schema apply would create at " + c.tablePath() + " is registered in the manifest", List.of());
      }
      // A dataset's top level holds only directories, which a listing of direct children does not show.
      Optional<TableSnapshot> exists = tables.reader().openLatestIfExists(root.lance(c.tablePath()));
      if (exists.isPresent()) {
        exists.get().close();
        created.add(c);
      }
    }
    if (owned.isEmpty() && created.isEmpty()) {
      return resolveWithoutEffects(s, state, classes, Decision.ROLL_BACK, mode);
    }
    if (mode != Mode.FULL) {
      return outcome(s, classes, Decision.ROLL_BACK, Action.PENDING, "the interrupted schema apply is unpublished;"
          + " only a full sweep (open read-write or 'omnigraph repair') rolls it back", List.of());
    }
    List<TableOutcome> outs = new ArrayList<>();
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (Owned o : owned) {
      long restored = o.head();
      if (!o.compensated()) {
        try (TableSnapshot head = tables.reader().openAt(o.loc(), o.head())) {
          restored = tables.writer().restore(head, o.pin().tableKey(), o.pin().expectedVersion());
        }
      }
      long rows;
      try (TableSnapshot after = tables.reader().openAt(o.loc(), restored)) {
        rows = tables.reader().countRows(after);
      }
      updates.add(new ManifestPublisher.TableUpdate(o.pin().identity(), o.pin().tableKey(), restored, rows,
          o.loc().uri()));
      expected.put(o.pin().tableKey(), o.pin().expectedVersion());
      outs.add(new TableOutcome(o.pin().tableKey(), o.compensated() ? o.head() - 1 : o.head(),
          o.pin().expectedVersion()));
    }
    for (RecoverySidecar.CreatedTable c : created) {
      // A fresh path no registration names: only this apply created a dataset there.
      root.deletePrefix(c.tablePath());
      outs.add(new TableOutcome(c.tableKey(), 1, 0));
    }
    Failpoints.hit(Failpoints.RECOVERY_POST_RESTORE_PRE_PUBLISH);
    publisher.publish(new ManifestPublisher.PublishRequest(GraphBranch.MAIN, updates, expected, Optional.empty(),
        new ManifestPublisher.LineageIntent(p.rollbackGraphCommitId(), RecoverySidecar.RECOVERY_ACTOR,
            "recovery: rolled back interrupted schemaapply " + s.operationId(), s.startedAtMicros())));
    Failpoints.hit(Failpoints.RECOVERY_POST_ROLLBACK_PUBLISH_PRE_AUDIT);
    audit.append(new AuditPlan(RecoveryAudit.Kind.RolledBack, p.rollbackGraphCommitId(), outs).row(s));
    sidecars.delete(s.operationId());
    return outcome(s, classes, Decision.ROLL_BACK, Action.ROLLED_BACK, "restored " + owned.size() + " table(s),"
        + " deleted " + created.size() + " created table(s) and published commit " + p.rollbackGraphCommitId(), outs);
  }

  static Action refuse(Mode mode) {
    return mode == Mode.FULL ? Action.REFUSED : Action.PENDING;
  }

  /** Every table is at its manifest pin: the write published, was rolled back, or never committed. */
  Outcome resolveWithoutEffects(RecoverySidecar s, ManifestState state,
      Map<String, TableClassification> classes, Decision decision, Mode mode) {
    ProtocolV3 p = s.protocol();
    boolean original = visible(state, p.lineage().graphCommitId());
    boolean rollback = visible(state, p.rollbackGraphCommitId());
    if (original || rollback) {
      AuditPlan plan = original ? forwardPlan(s) : new AuditPlan(RecoveryAudit.Kind.RolledBack,
          p.rollbackGraphCommitId(), p.rollbackAuditOutcomes() == null ? List.of() : p.rollbackAuditOutcomes());
      if (mode == Mode.DRY_RUN) {
        return outcome(s, classes, decision, Action.PENDING, "already " + (original ? "published" : "rolled back")
            + "; would record the audit row and delete the sidecar", plan.outcomes);
      }
      // Stale sidecar: Phase D failed, or the audit append did. Exactly one audit row per operation.
      if (!audit.recorded(s.operationId())) {
        audit.append(plan.row(s));
      }
      sidecars.delete(s.operationId());
      return outcome(s, classes, decision, Action.FINALIZED, (original ? "the write was already published"
          : "the rollback was already published") + "; audit row ensured, sidecar deleted", plan.outcomes);
    }
    for (TablePin pin : s.tables()) {
      long pinned = state.table(pin.tableKey()).map(TableEntry::version).orElse(0L);
      if (pinned != pin.expectedVersion()) {
        return outcome(s, classes, decision, refuse(mode), "table " + pin.tableKey() + " is published at " + pinned
            + " instead of the expected " + pin.expectedVersion() + " but neither this write's commit nor its"
            + " rollback is in the lineage", List.of());
      }
    }
    if (mode != Mode.FULL) {
      return outcome(s, classes, decision, Action.PENDING, "no table effect yet; a live writer may still own it"
          + " (a full sweep discards it)", List.of());
    }
    sidecars.delete(s.operationId());
    return outcome(s, classes, decision, Action.DISCARDED, "the write never committed a table; nothing to undo",
        List.of());
  }

  private Outcome rollForward(RecoverySidecar s, List<Observed> observed, Map<String, TableClassification> classes) {
    ProtocolV3 p = s.protocol();
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (Observed o : observed) {
      TableUpdateSlot slot = p.slot(o.pin().identity()).orElseThrow();
      updates.add(new ManifestPublisher.TableUpdate(o.pin().identity(), o.pin().tableKey(),
          slot.confirmed().tableVersion(), slot.confirmed().rowCount(), o.location().uri(), o.pin().tableBranch()));
      expected.put(o.pin().tableKey(), o.pin().expectedVersion());
    }
    var l = p.lineage();
    Failpoints.hit(Failpoints.RECOVERY_BEFORE_ROLL_FORWARD_PUBLISH);
    try {
      publisher.publish(new ManifestPublisher.PublishRequest(GraphBranch.fromColumn(s.branch()), updates, expected,
          Optional.ofNullable(p.authority().graphHead()),
          new ManifestPublisher.LineageIntent(l.graphCommitId(), l.actorId(), l.message(), l.createdAtMicros())));
    } catch (ConflictException e) {
      return outcome(s, classes, Decision.ROLL_FORWARD, Action.REFUSED, "publishing the confirmed effects failed: "
          + e.getMessage(), List.of());
    }
    AuditPlan plan = forwardPlan(s);
    audit.append(plan.row(s));
    sidecars.delete(s.operationId());
    return outcome(s, classes, Decision.ROLL_FORWARD, Action.ROLLED_FORWARD,
        "published the confirmed effects as commit " + l.graphCommitId(), plan.outcomes);
  }

  private Outcome rollBack(RecoverySidecar s, List<Observed> observed, Map<String, TableClassification> classes) {
    ProtocolV3 p = s.protocol();
    List<Observed> drifted = observed.stream().filter(o -> o.head() > o.pinned()).toList();
    List<TableOutcome> plan = p.rollbackAuditOutcomes();
    if (plan == null) {
      // Persist the audit plan before the first restore: a crash after a restore would otherwise lose
      // the observed HEAD the audit row must name.
      List<TableOutcome> outs = new ArrayList<>();
      for (Observed o : drifted) {
        // A compensating restore already at HEAD (a sweep died before publishing) hides the drifted version below it.
        long from = o.head() == o.pin().expectedVersion() + 2 ? o.head() - 1 : o.head();
        outs.add(new TableOutcome(o.pin().tableKey(), from, o.pinned()));
      }
      plan = outs;
      sidecars.rewrite(s.with(s.tables(), new ProtocolV3(p.authority(), p.lineage(), p.rollbackGraphCommitId(), outs,
          p.effectPhase(), p.effects(), p.intendedDelta())));
    }
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (Observed o : drifted) {
      long restoredHead;
      boolean compensated = o.head() == o.pin().expectedVersion() + 2;
      if (compensated) {
        restoredHead = o.head(); // an earlier sweep restored it and crashed before publishing
      } else {
        try (TableSnapshot head = tables.reader().openAt(o.location(), o.head())) {
          restoredHead = tables.writer().restore(head, o.pin().tableKey(), o.pinned());
        }
      }
      long rows;
      try (TableSnapshot after = tables.reader().openAt(o.location(), restoredHead)) {
        rows = tables.reader().countRows(after);
      }
      updates.add(new ManifestPublisher.TableUpdate(o.pin().identity(), o.pin().tableKey(), restoredHead, rows,
          o.location().uri(), o.pin().tableBranch()));
      expected.put(o.pin().tableKey(), o.pinned());
    }
    Failpoints.hit(Failpoints.RECOVERY_POST_RESTORE_PRE_PUBLISH);
    publisher.publish(new ManifestPublisher.PublishRequest(GraphBranch.fromColumn(s.branch()), updates, expected,
        Optional.empty(),
        new ManifestPublisher.LineageIntent(p.rollbackGraphCommitId(), RecoverySidecar.RECOVERY_ACTOR,
            "recovery: rolled back interrupted " + s.writerKind().json().toLowerCase(java.util.Locale.ROOT) + " "
                + s.operationId(), s.startedAtMicros())));
    Failpoints.hit(Failpoints.RECOVERY_POST_ROLLBACK_PUBLISH_PRE_AUDIT);
    AuditPlan a = new AuditPlan(RecoveryAudit.Kind.RolledBack, p.rollbackGraphCommitId(), plan);
    audit.append(a.row(s));
    sidecars.delete(s.operationId());
    return outcome(s, classes, Decision.ROLL_BACK, Action.ROLLED_BACK, "restored " + drifted.size()
        + " table(s) to their published versions and published commit " + p.rollbackGraphCommitId(), plan);
  }

  record AuditPlan(RecoveryAudit.Kind kind, String commitId, List<TableOutcome> outcomes) {
    RecoveryAudit.Row row(RecoverySidecar s) {
      return new RecoveryAudit.Row(commitId, kind, s.actorId(), s.operationId(), s.writerKind().json(), outcomes,
          nowMicros());
    }
  }

  static AuditPlan forwardPlan(RecoverySidecar s) {
    List<TableOutcome> outs = new ArrayList<>();
    for (TableUpdateSlot u : s.protocol().intendedDelta()) {
      long to = u.confirmed() == null ? u.expectedVersion() : u.confirmed().tableVersion();
      outs.add(new TableOutcome(u.tableKey(), u.expectedVersion(), to));
    }
    return new AuditPlan(RecoveryAudit.Kind.RolledForward, s.protocol().lineage().graphCommitId(), outs);
  }

  static boolean visible(ManifestState state, String commitId) {
    return state.commits().stream().map(GraphCommit::commitId).anyMatch(commitId::equals);
  }

  ManifestState readState(String branch) {
    try (TableSnapshot m = manifest.openLatest(branch)) {
      return manifest.read(m);
    }
  }

  /**
   * The branch-delete orphaning exception (docs/branches.md): the sidecar's graph branch is gone,
   * so its effects are unreachable from any manifest; the sidecar is discarded with one
   * {@code OrphanDiscarded} audit row (a dry run only reports it).
   */
  Outcome orphaned(RecoverySidecar s, Mode mode) {
    String detail = "the write's branch " + s.branch() + " was deleted; its effects are unreachable";
    if (mode == Mode.DRY_RUN) {
      return outcome(s, new LinkedHashMap<>(), null, Action.PENDING, detail, List.of());
    }
    List<TableOutcome> outs = new ArrayList<>();
    for (TablePin pin : s.tables()) {
      outs.add(new TableOutcome(pin.tableKey(), pin.expectedVersion(), pin.expectedVersion()));
    }
    AuditPlan a = new AuditPlan(RecoveryAudit.Kind.OrphanDiscarded, s.protocol().rollbackGraphCommitId(), outs);
    if (audit.list().stream().noneMatch(r -> r.operationId().equals(s.operationId()))) {
      audit.append(a.row(s));
    }
    sidecars.delete(s.operationId());
    return outcome(s, new LinkedHashMap<>(), null, Action.DISCARDED, detail + "; discarded (audited)", outs);
  }

  static Outcome outcome(RecoverySidecar s, Map<String, TableClassification> classes, Decision decision,
      Action action, String detail, List<TableOutcome> outcomes) {
    return new Outcome(s.operationId(), s.writerKind().json(), s.actorId(), classes, decision, action, detail,
        outcomes);
  }

  static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
