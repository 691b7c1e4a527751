package io.omnigraph.engine.recovery;

import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.recovery.RecoverySidecar.AuthorityToken;
import io.omnigraph.engine.recovery.RecoverySidecar.ConfirmedUpdate;
import io.omnigraph.engine.recovery.RecoverySidecar.EffectPhase;
import io.omnigraph.engine.recovery.RecoverySidecar.Lineage;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TableEffect;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.RecoverySidecar.TableUpdateSlot;
import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar.WriterKind;
import io.omnigraph.engine.schema.Ulid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A writer's side of the recovery protocol (docs/write-protocol.md, phases 4–8): {@link #arm}
 * is Phase A (the v9 sidecar is durable before the first table commit), {@link #confirm} is the
 * Phase B confirmation (the WAL commit point: every planned transaction landed at its read version
 * + 1), and {@link #retire} is Phase D after the publish. Between them the sidecar on storage
 * says exactly what a crash left behind.
 */
public final class WriteIntent {
  /**
   * The sidecar's branch identifier of a graph branch: its name, as JSON, until branches have a
   * native Lance identifier.
   */
  public static String branchIdentifier(String branch) {
    return "{\"branch\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(branch) + "}";
  }

  /**
   * One table a writer will commit.
   *
   * @param identity its identity
   * @param tableKey its key
   * @param tableUri its full Lance dataset URI
   * @param expectedVersion the published version (and the staged transaction's read version)
   * @param transactionUuid the staged transaction's pre-minted UUID
   * @param tableBranch the native ref the effect lands on ({@code null} = main)
   * @param firstTouch whether the writer forks {@code tableBranch} from {@code expectedVersion} only
   *     after arming (recorded as the effect's {@code source_fork_version})
   */
  public record PlannedTable(TableIdentity identity, String tableKey, String tableUri, long expectedVersion,
      String transactionUuid, String tableBranch, boolean firstTouch) {
    public PlannedTable {
      if (firstTouch && tableBranch == null) {
        throw new IllegalArgumentException("a first-touch table forks a named ref, not main");
      }
    }

    /** A table whose ref exists. */
    public PlannedTable(TableIdentity identity, String tableKey, String tableUri, long expectedVersion,
        String transactionUuid, String tableBranch) {
      this(identity, tableKey, tableUri, expectedVersion, transactionUuid, tableBranch, false);
    }

    /** A table committed on its main ref. */
    public PlannedTable(TableIdentity identity, String tableKey, String tableUri, long expectedVersion,
        String transactionUuid) {
      this(identity, tableKey, tableUri, expectedVersion, transactionUuid, null, false);
    }
  }

  /**
   * One table's landed commit.
   *
   * @param identity its identity
   * @param version the committed version
   * @param rowCount its row count at that version
   * @param versionMetadataJson the manifest version metadata to publish (JSON object)
   * @param branchIdentifier for a first-touch table: the native identifier of the ref the writer
   *     created ({@code NativeBranch.identifierText}), which the confirmation binds; else {@code null}
   */
  public record ConfirmedTable(TableIdentity identity, long version, long rowCount, String versionMetadataJson,
      String branchIdentifier) {
    /** A table whose ref existed before the write. */
    public ConfirmedTable(TableIdentity identity, long version, long rowCount, String versionMetadataJson) {
      this(identity, version, rowCount, versionMetadataJson, null);
    }
  }

  private final SidecarStore store;
  private RecoverySidecar sidecar;
  private String token;

  private WriteIntent(SidecarStore store, RecoverySidecar sidecar, String token) {
    this.store = store;
    this.sidecar = sidecar;
    this.token = token;
  }

  /**
   * Phase A: writes the Armed sidecar with {@code IfAbsent}.
   *
   * @param branch the graph branch the write targets
   * @param commitId the pre-minted graph commit id the publish will use
   * @param createdAtMicros the commit time the publish will use
   * @param expectedHead the graph head the write was prepared against
   * @throws io.omnigraph.api.StorageFailureException the put failed: abort, nothing durable happened
   */
  public static WriteIntent arm(SidecarStore store, WriterKind kind, String branch, String actorId, String message,
      Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId, long createdAtMicros,
      List<PlannedTable> tables) {
    return arm(store, kind, branch, actorId, message, expectedHead, schema, commitId, createdAtMicros, tables, null);
  }

  /** {@link #arm}, for a SchemaApply with its payload (the schema it accepts, the tables it creates). */
  public static WriteIntent arm(SidecarStore store, WriterKind kind, String branch, String actorId, String message,
      Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId, long createdAtMicros,
      List<PlannedTable> tables, RecoverySidecar.SchemaApplyPayload schemaApply) {
    Objects.requireNonNull(store);
    RecoverySidecar s = armed(kind, branch, actorId, message, expectedHead, schema, commitId, createdAtMicros, tables,
        schemaApply);
    String token = store.arm(s);
    return new WriteIntent(store, s, token);
  }

  /**
   * An Armed sidecar whose bytes are written ahead and not yet put ({@link #prepareArm}); close it
   * (it discards them unless {@link #arm()} put them).
   */
  public static final class PreparedArm implements AutoCloseable {
    private final SidecarStore store;
    private final SidecarStore.Prepared prepared;

    private PreparedArm(SidecarStore store, SidecarStore.Prepared prepared) {
      this.store = store;
      this.prepared = prepared;
    }

    /**
     * Phase A: puts the prepared sidecar with {@code IfAbsent} ({@link #arm(SidecarStore, WriterKind,
     * String, String, String, Optional, RecoverySweep.SchemaAuthority, String, long, List)}'s semantics).
     */
    public WriteIntent arm() {
      String token = store.arm(prepared);
      return new WriteIntent(store, prepared.sidecar(), token);
    }

    @Override
    public void close() {
      prepared.close();
    }
  }

  /**
   * Writes the bytes of the Armed sidecar {@link #arm(SidecarStore, WriterKind, String, String,
   * String, Optional, RecoverySweep.SchemaAuthority, String, long, List)} would put, without putting
   * it: a writer does this while it checks its token inside the effect window, so Phase A then costs
   * only the rename and the directory sync (docs/write-protocol.md, "Durability").
   *
   * @throws io.omnigraph.api.StorageFailureException writing the bytes failed: nothing is visible
   */
  public static PreparedArm prepareArm(SidecarStore store, WriterKind kind, String branch, String actorId,
      String message, Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId,
      long createdAtMicros, List<PlannedTable> tables) {
    Objects.requireNonNull(store);
    return new PreparedArm(store, store.prepare(armed(kind, branch, actorId, message, expectedHead, schema, commitId,
        createdAtMicros, tables, null)));
  }

  private static RecoverySidecar armed(WriterKind kind, String branch, String actorId, String message,
      Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId, long createdAtMicros,
      List<PlannedTable> tables, RecoverySidecar.SchemaApplyPayload schemaApply) {
    List<TablePin> pins = new ArrayList<>();
    List<TableEffect> effects = new ArrayList<>();
    List<TableUpdateSlot> slots = new ArrayList<>();
    for (PlannedTable t : tables) {
      pins.add(new TablePin(t.identity(), t.tableKey(), t.tableUri(), t.expectedVersion(), t.expectedVersion() + 1,
          null, t.tableBranch()));
      effects.add(new TableEffect(t.identity(), t.tableKey(),
          new TransactionIdentity(t.expectedVersion(), t.transactionUuid()), null, null,
          t.firstTouch() ? t.expectedVersion() : null));
      slots.add(new TableUpdateSlot(t.identity(), t.tableKey(), t.expectedVersion(), t.tableBranch(), null));
    }
    ProtocolV3 p = new ProtocolV3(new AuthorityToken(branchIdentifier(branch), expectedHead.orElse(null),
        schema.domain(), schema.irHash(), schema.identityVersion()),
        new Lineage(commitId, GraphBranch.toColumn(branch), actorId, null, createdAtMicros, message), Ulid.generate(),
        null,
        EffectPhase.ARMED, effects, slots);
    return new RecoverySidecar(Ulid.generate(), RecoverySweep.nowMicros(), GraphBranch.toColumn(branch),
        actorId, kind, pins, p, schemaApply);
  }

  /**
   * Phase A of Optimize: the bounded maintenance sidecar (writer kind {@code Optimize}, payload
   * {@code maintenance}): the same identity envelope, authority and pre-minted lineage as every
   * writer, but no transaction identities (Lance commits compaction and index folds itself) and no
   * confirmation. Recovery rolls it forward only over content-preserving Lance operations
   * (docs/maintenance.md, "Recovery").
   *
   * @param tables per table: identity, key, URI, expected (published) version; the uuid is ignored
   */
  public static WriteIntent armMaintenance(SidecarStore store, String branch, String actorId, String message,
      Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId, long createdAtMicros,
      List<PlannedTable> tables) {
    List<TablePin> pins = new ArrayList<>();
    for (PlannedTable t : tables) {
      pins.add(new TablePin(t.identity(), t.tableKey(), t.tableUri(), t.expectedVersion(), t.expectedVersion() + 1,
          null, null));
    }
    ProtocolV3 p = new ProtocolV3(new AuthorityToken(branchIdentifier(branch), expectedHead.orElse(null),
        schema.domain(), schema.irHash(), schema.identityVersion()),
        new Lineage(commitId, GraphBranch.toColumn(branch), actorId, null, createdAtMicros, message), Ulid.generate(),
        null, EffectPhase.ARMED, List.of(), List.of());
    RecoverySidecar s = new RecoverySidecar(Ulid.generate(), RecoverySweep.nowMicros(), GraphBranch.toColumn(branch),
        actorId, WriterKind.OPTIMIZE, pins, p);
    String token = store.arm(s);
    return new WriteIntent(store, s, token);
  }

  /**
   * One table a branch merge commits: its pre-minted chain of transaction UUIDs, committed at read
   * versions {@code expectedVersion}, {@code expectedVersion + 1}, … in order.
   */
  public record PlannedChain(TableIdentity identity, String tableKey, String tableUri, long expectedVersion,
      List<String> uuids, String tableBranch, boolean firstTouch) {
    public PlannedChain {
      uuids = List.copyOf(uuids);
      if (uuids.isEmpty()) {
        throw new IllegalArgumentException("a planned chain has at least one transaction");
      }
      if (firstTouch && tableBranch == null) {
        throw new IllegalArgumentException("a first-touch table forks a named ref, not main");
      }
    }

    /** A chain on a ref that exists. */
    public PlannedChain(TableIdentity identity, String tableKey, String tableUri, long expectedVersion,
        List<String> uuids, String tableBranch) {
      this(identity, tableKey, tableUri, expectedVersion, uuids, tableBranch, false);
    }
  }

  /**
   * Phase A of a branch merge, its bytes written ahead: the v9 {@code BranchMerge} sidecar (payload
   * {@code protocol_v4}) with every table's pre-minted chain, and a confirmed delta slot for every
   * pointer-only table (its new version needs no commit), so roll-forward publishes the complete
   * logical merge. The bytes are written without putting them: a merge does this while it checks
   * its token inside the effect window, so its Phase A ({@link PreparedArm#arm()}) then costs only
   * the rename and the directory sync.
   *
   * @param mergedParent the captured source head, the merge commit's second parent
   * @param pointers the pointer-only table updates (already final)
   * @throws io.omnigraph.api.StorageFailureException writing the bytes failed: nothing is visible
   */
  public static PreparedArm prepareArmMerge(SidecarStore store, String branch, String actorId, String message,
      Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId, long createdAtMicros,
      String mergedParent, List<PlannedChain> chains, List<TableUpdateSlot> pointers) {
    Objects.requireNonNull(store);
    return new PreparedArm(store, store.prepare(armedMerge(branch, actorId, message, expectedHead, schema, commitId,
        createdAtMicros, mergedParent, chains, pointers)));
  }

  private static RecoverySidecar armedMerge(String branch, String actorId, String message,
      Optional<String> expectedHead, RecoverySweep.SchemaAuthority schema, String commitId, long createdAtMicros,
      String mergedParent, List<PlannedChain> chains, List<TableUpdateSlot> pointers) {
    Objects.requireNonNull(mergedParent, "mergedParent");
    List<TablePin> pins = new ArrayList<>();
    List<TableEffect> effects = new ArrayList<>();
    List<TableUpdateSlot> slots = new ArrayList<>();
    for (PlannedChain t : chains) {
      pins.add(new TablePin(t.identity(), t.tableKey(), t.tableUri(), t.expectedVersion(),
          t.expectedVersion() + t.uuids().size(), null, t.tableBranch()));
      List<TransactionIdentity> chain = new ArrayList<>();
      for (int i = 0; i < t.uuids().size(); i++) {
        chain.add(new TransactionIdentity(t.expectedVersion() + i, t.uuids().get(i)));
      }
      effects.add(new TableEffect(t.identity(), t.tableKey(), chain.get(0), null, chain,
          t.firstTouch() ? t.expectedVersion() : null));
      slots.add(new TableUpdateSlot(t.identity(), t.tableKey(), t.expectedVersion(), t.tableBranch(), null));
    }
    slots.addAll(pointers);
    ProtocolV3 p = new ProtocolV3(new AuthorityToken(branchIdentifier(branch), expectedHead.orElse(null),
        schema.domain(), schema.irHash(), schema.identityVersion()),
        new Lineage(commitId, GraphBranch.toColumn(branch), actorId, mergedParent, createdAtMicros, message),
        Ulid.generate(), null, EffectPhase.ARMED, effects, slots);
    return new RecoverySidecar(Ulid.generate(), RecoverySweep.nowMicros(), GraphBranch.toColumn(branch),
        actorId, WriterKind.BRANCH_MERGE, pins, p);
  }

  /**
   * Phase A of a group commit (docs/concurrency.md, "Group commit"): the v9 {@code GroupCommit}
   * sidecar (payload {@code protocol_v4}, the merge's chain shape, plus {@code group_members}) with
   * every table's pre-minted chain — one transaction per member touching the table, in member order —
   * and the member list; its lineage is the last member's commit. Armed once and confirmed once for
   * the whole batch ({@link #confirm}).
   *
   * @param members the batch in chain order (at least two), each with the tables it touches
   * @param chains per table the chain of its members' transaction UUIDs, in member order
   * @param expectedHead the head every member was prepared against (the first member's parent)
   */
  public static WriteIntent armGroup(SidecarStore store, String branch, Optional<String> expectedHead,
      RecoverySweep.SchemaAuthority schema, List<RecoverySidecar.GroupMember> members, List<PlannedChain> chains) {
    List<TablePin> pins = new ArrayList<>();
    List<TableEffect> effects = new ArrayList<>();
    List<TableUpdateSlot> slots = new ArrayList<>();
    for (PlannedChain t : chains) {
      if (t.firstTouch()) {
        throw new IllegalArgumentException("a group commit forks no table");
      }
      pins.add(new TablePin(t.identity(), t.tableKey(), t.tableUri(), t.expectedVersion(),
          t.expectedVersion() + t.uuids().size(), null, t.tableBranch()));
      List<TransactionIdentity> chain = new ArrayList<>();
      for (int i = 0; i < t.uuids().size(); i++) {
        chain.add(new TransactionIdentity(t.expectedVersion() + i, t.uuids().get(i)));
      }
      effects.add(new TableEffect(t.identity(), t.tableKey(), chain.get(0), null, chain, null));
      slots.add(new TableUpdateSlot(t.identity(), t.tableKey(), t.expectedVersion(), t.tableBranch(), null));
    }
    RecoverySidecar.GroupMember last = members.get(members.size() - 1);
    ProtocolV3 p = new ProtocolV3(new AuthorityToken(branchIdentifier(branch), expectedHead.orElse(null),
        schema.domain(), schema.irHash(), schema.identityVersion()),
        new Lineage(last.graphCommitId(), GraphBranch.toColumn(branch), last.actorId(), null, last.createdAtMicros(),
            last.message()), Ulid.generate(), null, EffectPhase.ARMED, effects, slots);
    RecoverySidecar s = new RecoverySidecar(Ulid.generate(), RecoverySweep.nowMicros(), GraphBranch.toColumn(branch),
        last.actorId(), WriterKind.GROUP_COMMIT, pins, p, null, members);
    String token = store.arm(s);
    return new WriteIntent(store, s, token);
  }

  /** @return the operation id (the sidecar's file stem) */
  public String operationId() {
    return sidecar.operationId();
  }

  /** @return the sidecar as last written */
  public RecoverySidecar sidecar() {
    return sidecar;
  }

  /**
   * Phase B confirmation: records every table's achieved version and moves the sidecar to
   * EffectsConfirmed. Each commit went through {@code TableWriter.commitStaged} with zero retries and
   * landed at read version + 1, which is what proves the planned transaction is the one at that
   * version; anything else must not be confirmed (the caller throws instead).
   *
   * @throws IllegalArgumentException a table is missing or not at expected + 1 (the file stays Armed)
   * @throws io.omnigraph.api.StorageFailureException the rewrite failed (the file stays Armed)
   */
  public void confirm(List<ConfirmedTable> confirmed) {
    RecoverySidecar next = confirmed(confirmed);
    token = store.confirm(next, token);
    sidecar = next;
  }

  /**
   * Writes the bytes of the confirmation {@link #confirm(List)} would put, without putting it
   * (docs/write-protocol.md, "Durability"): a writer does this while it syncs its committed tables,
   * then {@link #confirm(SidecarStore.Prepared)} puts it. Safe on another thread than the writer's
   * as long as nothing else runs on this intent meanwhile.
   *
   * @throws IllegalArgumentException a table is missing or not at expected + 1
   * @throws io.omnigraph.api.StorageFailureException writing the bytes failed (the file stays Armed)
   */
  public SidecarStore.Prepared prepareConfirm(List<ConfirmedTable> confirmed) {
    return store.prepare(confirmed(confirmed));
  }

  /**
   * Phase B confirmation of a {@link #prepareConfirm prepared} confirmation ({@link #confirm(List)}'s
   * semantics).
   *
   * @throws io.omnigraph.api.StorageFailureException the rewrite failed (the file stays Armed)
   */
  public void confirm(SidecarStore.Prepared prepared) {
    token = store.confirm(prepared, token);
    sidecar = prepared.sidecar();
  }

  private RecoverySidecar confirmed(List<ConfirmedTable> confirmed) {
    Map<TableIdentity, ConfirmedTable> byId = new HashMap<>();
    for (ConfirmedTable c : confirmed) {
      byId.put(c.identity(), c);
    }
    ProtocolV3 p = sidecar.protocol();
    List<TablePin> pins = new ArrayList<>();
    for (TablePin pin : sidecar.tables()) {
      ConfirmedTable c = byId.get(pin.identity());
      if (c == null || c.version() != pin.postCommitPin()) {
        throw new IllegalArgumentException("cannot confirm " + pin.tableKey() + ": "
            + (c == null ? "no commit" : "committed at " + c.version() + ", planned " + pin.postCommitPin()));
      }
      pins.add(pin.confirmed(c.version()));
    }
    List<TableEffect> effects = new ArrayList<>();
    for (TableEffect e : p.effects()) {
      List<TransactionIdentity> txs = e.transactions();
      String ref = byId.get(e.identity()).branchIdentifier();
      if (e.firstTouch() != (ref != null)) {
        // The confirmation binds the exact ref a first-touch effect created (docs/sidecar-format.md).
        throw new IllegalArgumentException("cannot confirm " + e.tableKey() + ": " + (ref == null
            ? "the identifier of the ref it forked is missing" : "it forked no ref, yet a ref identifier is given"));
      }
      effects.add(new TableEffect(e.identity(), e.tableKey(), e.planned(), txs.get(txs.size() - 1), e.chain(),
          e.sourceForkVersion(), ref));
    }
    List<TableUpdateSlot> slots = new ArrayList<>();
    for (TableUpdateSlot u : p.intendedDelta()) {
      if (u.confirmed() != null) {
        slots.add(u); // a merge's pointer-only slot: final since arming
        continue;
      }
      ConfirmedTable c = byId.get(u.identity());
      slots.add(new TableUpdateSlot(u.identity(), u.tableKey(), u.expectedVersion(), u.tableBranch(),
          new ConfirmedUpdate(c.version(), u.tableBranch(), c.rowCount(), c.versionMetadataJson())));
    }
    return sidecar.with(pins, new ProtocolV3(p.authority(), p.lineage(), p.rollbackGraphCommitId(),
        p.rollbackAuditOutcomes(), EffectPhase.EFFECTS_CONFIRMED, effects, slots));
  }

  /**
   * Phase D: deletes the sidecar after the publish. A failure is logged and tolerated (see
   * {@link SidecarStore#retire}).
   *
   * @return whether the sidecar is gone
   */
  public boolean retire() {
    return store.retire(sidecar.operationId());
  }

  /**
   * Phase D of a write whose publish is durable: {@link #retire} without making the removal
   * durable against power loss ({@link SidecarStore#retirePublished}).
   *
   * @return whether the sidecar is gone
   */
  public boolean retirePublished() {
    return store.retirePublished(sidecar.operationId());
  }
}
