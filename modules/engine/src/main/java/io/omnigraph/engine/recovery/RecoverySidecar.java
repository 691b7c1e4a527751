package io.omnigraph.engine.recovery;

import io.omnigraph.engine.manifest.TableIdentity;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A v9 recovery sidecar (docs/sidecar-format.md): the write-ahead intent a Mutation or Load writer
 * puts at {@code __recovery/{operationId}.json} before its first durable table effect (Phase A),
 * confirms after its last table commit (Phase B confirmation) and deletes after the publish (Phase D).
 * Parsed and written only by {@link SidecarCodec}, which refuses anything but this exact shape.
 *
 * @param operationId ULID, also the file stem (sorts chronologically)
 * @param startedAtMicros when the writer armed, microseconds since the epoch
 * @param branch the graph branch ({@code null} = main)
 * @param actorId the initiating actor, or {@code null}
 * @param writerKind which writer
 * @param tables one pin per table the writer commits to
 * @param protocol the Mutation/Load payload ({@code protocol_v3})
 */
public record RecoverySidecar(String operationId, long startedAtMicros, String branch, String actorId,
    WriterKind writerKind, List<TablePin> tables, ProtocolV3 protocol, SchemaApplyPayload schemaApply,
    List<GroupMember> groupMembers) {

  /** A sidecar of any writer but SchemaApply and GroupCommit. */
  public RecoverySidecar(String operationId, long startedAtMicros, String branch, String actorId,
      WriterKind writerKind, List<TablePin> tables, ProtocolV3 protocol) {
    this(operationId, startedAtMicros, branch, actorId, writerKind, tables, protocol, null, null);
  }

  /** A sidecar of any writer but GroupCommit. */
  public RecoverySidecar(String operationId, long startedAtMicros, String branch, String actorId,
      WriterKind writerKind, List<TablePin> tables, ProtocolV3 protocol, SchemaApplyPayload schemaApply) {
    this(operationId, startedAtMicros, branch, actorId, writerKind, tables, protocol, schemaApply, null);
  }

  /**
   * One member of a group commit (top-level {@code group_members}, in chain order;
   * docs/sidecar-format.md): its pre-minted graph commit and the tables its transactions touch. Member
   * j's transaction on a table is the next link of that table's chain after the members before it.
   *
   * @param graphCommitId its pre-minted commit id
   * @param actorId its actor, or {@code null}
   * @param message its commit message, or {@code null}
   * @param createdAtMicros its commit time (strictly increasing along the members)
   * @param tableKeys the pinned tables it touches
   */
  public record GroupMember(String graphCommitId, String actorId, String message, long createdAtMicros,
      List<String> tableKeys) {
    public GroupMember {
      Objects.requireNonNull(graphCommitId, "graphCommitId");
      tableKeys = List.copyOf(tableKeys);
    }
  }

  /**
   * What a SchemaApply sidecar adds to the envelope (top-level {@code schema_apply_target_schema_ir_hash}
   * and {@code additional_registrations}; docs/sidecar-format.md).
   *
   * @param targetSchemaIrHash the identity of the schema the apply accepts
   * @param created the tables the apply creates (version one at a fresh path), in creation order
   */
  public record SchemaApplyPayload(String targetSchemaIrHash, List<CreatedTable> created) {
    public SchemaApplyPayload {
      Objects.requireNonNull(targetSchemaIrHash, "targetSchemaIrHash");
      created = List.copyOf(created);
    }
  }

  /**
   * A table a SchemaApply creates.
   *
   * @param identity its identity
   * @param tableKey its key
   * @param tablePath its dataset path relative to the graph root
   */
  public record CreatedTable(TableIdentity identity, String tableKey, String tablePath) {
    public CreatedTable {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(tableKey, "tableKey");
      Objects.requireNonNull(tablePath, "tablePath");
    }
  }

  /** The only envelope version this release reads and writes. */
  public static final int SCHEMA_VERSION = 9;
  /** The directory of sidecars under the graph root. */
  public static final String DIR = "__recovery";
  /** The actor of commits recovery mints itself (rollbacks). */
  public static final String RECOVERY_ACTOR = "omnigraph:recovery";

  public RecoverySidecar {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(writerKind, "writerKind");
    tables = List.copyOf(tables);
    Objects.requireNonNull(protocol, "protocol");
    if ((writerKind == WriterKind.SCHEMA_APPLY) != (schemaApply != null)) {
      throw new IllegalArgumentException("a SchemaApply sidecar, and only it, carries the schema apply payload");
    }
    groupMembers = groupMembers == null ? null : List.copyOf(groupMembers);
    if ((writerKind == WriterKind.GROUP_COMMIT) != (groupMembers != null)) {
      throw new IllegalArgumentException("a GroupCommit sidecar, and only it, carries group_members");
    }
  }

  /** @return the sidecar's path under the graph root */
  public String path() {
    return path(operationId);
  }

  /** @return the path of the sidecar of {@code operationId} */
  public static String path(String operationId) {
    return DIR + "/" + operationId + ".json";
  }

  /** @return the table keys this sidecar pins, in pin order */
  public List<String> tableKeys() {
    return tables.stream().map(TablePin::tableKey).toList();
  }

  /** @return the pin of {@code identity} */
  public Optional<TablePin> pin(TableIdentity identity) {
    return tables.stream().filter(p -> p.identity().equals(identity)).findFirst();
  }

  /** @return this sidecar with another payload and pins (used by Phase B confirmation) */
  public RecoverySidecar with(List<TablePin> newTables, ProtocolV3 newProtocol) {
    return new RecoverySidecar(operationId, startedAtMicros, branch, actorId, writerKind, newTables, newProtocol,
        schemaApply, groupMembers);
  }

  /** The writer that armed a sidecar; JSON names are the reference's Debug names. */
  public enum WriterKind {
    /** A .gq mutation. */
    MUTATION("Mutation"),
    /** A bulk load. */
    LOAD("Load"),
    /** A schema apply (payload {@code protocol_v7}; docs/schema-migration.md, "Recovery"). */
    SCHEMA_APPLY("SchemaApply"),
    /** A branch merge (payload {@code protocol_v4}: a pre-minted transaction chain per table). */
    BRANCH_MERGE("BranchMerge"),
    /**
     * A group commit: several insertion-only mutations committed as one chain per table and
     * published together, each its own graph commit (payload {@code protocol_v4}, the merge's chain
     * shape, plus {@code group_members}; docs/concurrency.md, "Group commit").
     */
    GROUP_COMMIT("GroupCommit"),
    /** An index build (not written by this release; refused). */
    ENSURE_INDICES("EnsureIndices"),
    /** Compaction (not written by this release; refused). */
    OPTIMIZE("Optimize");

    private final String json;

    WriterKind(String json) {
      this.json = json;
    }

    /** @return the JSON spelling */
    public String json() {
      return json;
    }

    /** @return the kind spelled {@code json}, or empty */
    public static Optional<WriterKind> fromJson(String json) {
      for (WriterKind k : values()) {
        if (k.json.equals(json)) {
          return Optional.of(k);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * One table the writer commits to ({@code SidecarTablePin}).
   *
   * @param identity the stable identity pair
   * @param tableKey the table key (diagnostic alias)
   * @param tablePath the full dataset URI, canonical under the root
   * @param expectedVersion the published version at writer start (the CAS expectation)
   * @param postCommitPin the HEAD the writer's commit produces ({@code expectedVersion + 1})
   * @param confirmedVersion the exact HEAD after the writer's effect (set at confirmation), or {@code null}
   * @param tableBranch the native Lance ref ({@code null} = main)
   */
  public record TablePin(TableIdentity identity, String tableKey, String tablePath, long expectedVersion,
      long postCommitPin, Long confirmedVersion, String tableBranch) {
    public TablePin {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(tableKey, "tableKey");
      Objects.requireNonNull(tablePath, "tablePath");
    }

    /** @return this pin with its confirmed version set */
    public TablePin confirmed(long version) {
      return new TablePin(identity, tableKey, tablePath, expectedVersion, postCommitPin, version, tableBranch);
    }
  }

  /**
   * A Lance transaction's identity: its parent version and UUID.
   *
   * @param readVersion the version the transaction was prepared on
   * @param uuid the pre-minted transaction UUID
   */
  public record TransactionIdentity(long readVersion, String uuid) {
    public TransactionIdentity {
      Objects.requireNonNull(uuid, "uuid");
    }
  }

  /**
   * The authority the write was prepared against ({@code RecoveryAuthorityToken}).
   *
   * @param branchIdentifier the manifest branch identity (opaque; {@code main} has one fixed value here)
   * @param graphHead the exact graph head, or {@code null}
   * @param schemaIdentityDomain accepted schema identity domain
   * @param schemaIrHash accepted schema IR hash
   * @param schemaIdentityVersion accepted schema identity version
   */
  public record AuthorityToken(String branchIdentifier, String graphHead, String schemaIdentityDomain,
      String schemaIrHash, long schemaIdentityVersion) {
    public AuthorityToken {
      Objects.requireNonNull(branchIdentifier, "branchIdentifier");
      Objects.requireNonNull(schemaIdentityDomain, "schemaIdentityDomain");
      Objects.requireNonNull(schemaIrHash, "schemaIrHash");
    }
  }

  /**
   * The graph commit the writer pre-minted ({@code RecoveryLineageIntent}); roll-forward publishes it verbatim.
   *
   * @param graphCommitId the commit id
   * @param branch the graph branch ({@code null} = main)
   * @param actorId the commit's actor, or {@code null}
   * @param mergedParentCommitId the merge parent, or {@code null}
   * @param createdAtMicros the commit time
   * @param message the commit message, or {@code null} (a Java extension: commits here carry messages)
   */
  public record Lineage(String graphCommitId, String branch, String actorId, String mergedParentCommitId,
      long createdAtMicros, String message) {
    public Lineage {
      Objects.requireNonNull(graphCommitId, "graphCommitId");
    }
  }

  /** Whether the writer's table effects are all confirmed. */
  public enum EffectPhase {
    /** Written at Phase A: effects are planned, none proven. Recovery rolls back. */
    ARMED("Armed"),
    /** Written after every table commit landed as planned. Recovery may roll forward. */
    EFFECTS_CONFIRMED("EffectsConfirmed");

    private final String json;

    EffectPhase(String json) {
      this.json = json;
    }

    /** @return the JSON spelling */
    public String json() {
      return json;
    }
  }

  /**
   * One table's planned (and, once confirmed, achieved) Lance transaction.
   *
   * @param identity the table
   * @param tableKey its key
   * @param planned the pre-minted transaction
   * @param confirmed the transaction observed at the confirmed version, or {@code null}
   * @param chain a BranchMerge's pre-minted chain (read versions expected, expected + 1, …), the first
   *     being {@code planned}; {@code null} for single-transaction writers
   * @param sourceForkVersion for a first-touch table of a Mutation/Load on a graph branch (JSON
   *     {@code source_fork_version}): the inherited version the writer forks the pin's
   *     {@code table_branch} ref from AFTER arming (docs/branches.md, "Lazy table forks"); {@code null}
   *     when the ref already exists
   * @param confirmedBranchIdentifier for a confirmed first-touch effect (JSON
   *     {@code confirmed_branch_identifier}): the native identifier of the ref the writer created
   *     ({@code NativeBranch.identifierText}), bound at confirmation; recovery acts on that ref only
   *     while it still has this identifier (docs/recovery.md). {@code null} otherwise
   */
  public record TableEffect(TableIdentity identity, String tableKey, TransactionIdentity planned,
      TransactionIdentity confirmed, List<TransactionIdentity> chain, Long sourceForkVersion,
      String confirmedBranchIdentifier) {
    /** An effect on a table whose ref exists (no first-touch fork). */
    public TableEffect(TableIdentity identity, String tableKey, TransactionIdentity planned,
        TransactionIdentity confirmed, List<TransactionIdentity> chain) {
      this(identity, tableKey, planned, confirmed, chain, null, null);
    }

    /** An effect without a bound ref identity (armed, or on a ref that existed). */
    public TableEffect(TableIdentity identity, String tableKey, TransactionIdentity planned,
        TransactionIdentity confirmed, List<TransactionIdentity> chain, Long sourceForkVersion) {
      this(identity, tableKey, planned, confirmed, chain, sourceForkVersion, null);
    }

    public TableEffect {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(tableKey, "tableKey");
      Objects.requireNonNull(planned, "planned");
      chain = chain == null ? null : List.copyOf(chain);
      if (chain != null && (chain.isEmpty() || !chain.get(0).equals(planned))) {
        throw new IllegalArgumentException("a transaction chain starts with the planned transaction");
      }
    }

    /** One planned transaction (Mutation, Load, EnsureIndices). */
    public TableEffect(TableIdentity identity, String tableKey, TransactionIdentity planned,
        TransactionIdentity confirmed) {
      this(identity, tableKey, planned, confirmed, null, null, null);
    }

    /** @return whether the writer forks the table's ref after arming (a first-touch table) */
    public boolean firstTouch() {
      return sourceForkVersion != null;
    }

    /** @return the planned transactions in commit order: the chain of a BranchMerge, else just {@link #planned()} */
    public List<TransactionIdentity> transactions() {
      return chain == null ? List.of(planned) : chain;
    }
  }

  /**
   * The manifest update a table needs once its effect landed ({@code RecoveryTableUpdateSlot}).
   *
   * @param identity the table
   * @param tableKey its key
   * @param expectedVersion the published version at writer start
   * @param tableBranch the native ref ({@code null} = main)
   * @param confirmed the exact update to publish, or {@code null} before confirmation
   */
  public record TableUpdateSlot(TableIdentity identity, String tableKey, long expectedVersion, String tableBranch,
      ConfirmedUpdate confirmed) {
    public TableUpdateSlot {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(tableKey, "tableKey");
    }
  }

  /**
   * The exact table update roll-forward publishes.
   *
   * @param tableVersion the achieved Lance version
   * @param tableBranch the native ref ({@code null} = main)
   * @param rowCount the table's row count at that version
   * @param versionMetadataJson the manifest version metadata, a JSON object
   */
  public record ConfirmedUpdate(long tableVersion, String tableBranch, long rowCount, String versionMetadataJson) {
    public ConfirmedUpdate {
      Objects.requireNonNull(versionMetadataJson, "versionMetadataJson");
    }
  }

  /**
   * One table's outcome in an audit plan or audit row.
   *
   * @param tableKey the table
   * @param fromVersion the version before recovery (the observed HEAD for rollbacks)
   * @param toVersion the version recovery left the table at (logically)
   */
  public record TableOutcome(String tableKey, long fromVersion, long toVersion) {
    public TableOutcome {
      Objects.requireNonNull(tableKey, "tableKey");
    }
  }

  /**
   * The Mutation/Load payload ({@code protocol_v3}).
   *
   * @param authority the token the write was prepared against
   * @param lineage the pre-minted commit
   * @param rollbackGraphCommitId the pre-minted id of a rollback commit
   * @param rollbackAuditOutcomes the durable rollback audit plan, or {@code null} when none is prepared
   * @param effectPhase armed or confirmed
   * @param effects one per pinned table
   * @param intendedDelta one manifest update slot per pinned table
   */
  public record ProtocolV3(AuthorityToken authority, Lineage lineage, String rollbackGraphCommitId,
      List<TableOutcome> rollbackAuditOutcomes, EffectPhase effectPhase, List<TableEffect> effects,
      List<TableUpdateSlot> intendedDelta) {
    public ProtocolV3 {
      Objects.requireNonNull(authority, "authority");
      Objects.requireNonNull(lineage, "lineage");
      Objects.requireNonNull(rollbackGraphCommitId, "rollbackGraphCommitId");
      rollbackAuditOutcomes = rollbackAuditOutcomes == null ? null : List.copyOf(rollbackAuditOutcomes);
      Objects.requireNonNull(effectPhase, "effectPhase");
      effects = List.copyOf(effects);
      intendedDelta = List.copyOf(intendedDelta);
    }

    /** @return the effect of {@code identity} */
    public Optional<TableEffect> effect(TableIdentity identity) {
      return effects.stream().filter(e -> e.identity().equals(identity)).findFirst();
    }

    /** @return the update slot of {@code identity} */
    public Optional<TableUpdateSlot> slot(TableIdentity identity) {
      return intendedDelta.stream().filter(e -> e.identity().equals(identity)).findFirst();
    }
  }
}
