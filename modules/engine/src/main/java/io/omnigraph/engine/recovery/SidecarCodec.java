package io.omnigraph.engine.recovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar.AuthorityToken;
import io.omnigraph.engine.recovery.RecoverySidecar.ConfirmedUpdate;
import io.omnigraph.engine.recovery.RecoverySidecar.EffectPhase;
import io.omnigraph.engine.recovery.RecoverySidecar.Lineage;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TableEffect;
import io.omnigraph.engine.recovery.RecoverySidecar.TableOutcome;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.RecoverySidecar.TableUpdateSlot;
import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar.WriterKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Strict JSON for {@link RecoverySidecar} (docs/sidecar-format.md, "Codec strictness"). Parsing
 * never defaults: a missing
 * field, an unknown field, a wrong type, a version other than {@value RecoverySidecar#SCHEMA_VERSION},
 * a pre-v9 file (named as such: it lacks the identity fields), a writer this release
 * cannot recover, or a table path that is not the canonical URI under this root is refused with a
 * {@link SidecarFormatException} whose message names the problem. {@link #write} validates the same
 * rules before producing text, so a writer can never put a file recovery would refuse.
 */
public final class SidecarCodec {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Function<TablePin, String> canonicalUri;

  /**
   * @param canonicalUri the full dataset URI a pin's table must have under this root (from its
   *     identity and key), used to refuse foreign or non-canonical paths
   */
  public SidecarCodec(Function<TablePin, String> canonicalUri) {
    this.canonicalUri = Objects.requireNonNull(canonicalUri);
  }

  /** A sidecar body this release refuses to act on. */
  public static final class SidecarFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SidecarFormatException(String message) {
      super(message);
    }

    SidecarFormatException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  // ------------------------------------------------------------------ write

  /** @return pretty-printed JSON of {@code s}, after the same validation parsing applies */
  public String write(RecoverySidecar s) {
    validate(s);
    ObjectNode o = JSON.createObjectNode();
    o.put("schema_version", RecoverySidecar.SCHEMA_VERSION);
    o.put("operation_id", s.operationId());
    o.put("started_at", Long.toString(s.startedAtMicros()));
    putNullable(o, "branch", s.branch());
    putNullable(o, "actor_id", s.actorId());
    o.put("writer_kind", s.writerKind().json());
    ArrayNode tables = o.putArray("tables");
    for (TablePin p : s.tables()) {
      ObjectNode t = tables.addObject();
      identity(t, p.identity());
      t.put("table_key", p.tableKey());
      t.put("table_path", p.tablePath());
      t.put("expected_version", p.expectedVersion());
      t.put("post_commit_pin", p.postCommitPin());
      if (p.confirmedVersion() != null) {
        t.put("confirmed_version", p.confirmedVersion());
      }
      if (p.tableBranch() != null) {
        t.put("table_branch", p.tableBranch());
      }
    }
    o.put("schema_apply_manifest_published", false);
    if (s.schemaApply() != null) {
      o.put("schema_apply_target_schema_ir_hash", s.schemaApply().targetSchemaIrHash());
      ArrayNode created = o.putArray("additional_registrations");
      for (RecoverySidecar.CreatedTable c : s.schemaApply().created()) {
        ObjectNode n = created.addObject();
        identity(n, c.identity());
        n.put("table_key", c.tableKey());
        n.put("table_path", c.tablePath());
      }
    }
    if (s.groupMembers() != null) {
      ArrayNode members = o.putArray("group_members");
      for (RecoverySidecar.GroupMember m : s.groupMembers()) {
        ObjectNode n = members.addObject();
        n.put("graph_commit_id", m.graphCommitId());
        putNullable(n, "actor_id", m.actorId());
        putNullable(n, "message", m.message());
        n.put("created_at", m.createdAtMicros());
        ArrayNode keys = n.putArray("table_keys");
        m.tableKeys().forEach(keys::add);
      }
    }
    ProtocolV3 v3 = s.protocol();
    ObjectNode p = o.putObject(payloadField(s.writerKind()));
    ObjectNode a = p.putObject("authority");
    a.put("branch_identifier", v3.authority().branchIdentifier());
    putNullable(a, "graph_head", v3.authority().graphHead());
    a.put("schema_identity_domain", v3.authority().schemaIdentityDomain());
    a.put("schema_ir_hash", v3.authority().schemaIrHash());
    a.put("schema_identity_version", v3.authority().schemaIdentityVersion());
    ObjectNode l = p.putObject("lineage");
    l.put("graph_commit_id", v3.lineage().graphCommitId());
    putNullable(l, "branch", v3.lineage().branch());
    putNullable(l, "actor_id", v3.lineage().actorId());
    putNullable(l, "merged_parent_commit_id", v3.lineage().mergedParentCommitId());
    l.put("created_at", v3.lineage().createdAtMicros());
    putNullable(l, "message", v3.lineage().message());
    p.put("rollback_graph_commit_id", v3.rollbackGraphCommitId());
    if (v3.rollbackAuditOutcomes() != null) {
      ArrayNode outs = p.putArray("rollback_audit_outcomes");
      for (TableOutcome t : v3.rollbackAuditOutcomes()) {
        outs.addObject().put("table_key", t.tableKey()).put("from_version", t.fromVersion())
            .put("to_version", t.toVersion());
      }
    }
    p.put("effect_phase", v3.effectPhase().json());
    ArrayNode effects = p.putArray("effects");
    for (TableEffect e : v3.effects()) {
      ObjectNode n = effects.addObject();
      identity(n, e.identity());
      n.put("table_key", e.tableKey());
      if (e.chain() != null) {
        ArrayNode chain = n.putArray("planned_transactions");
        e.chain().forEach(t -> transaction(chain.addObject(), t));
      } else {
        transaction(n.putObject("planned_transaction"), e.planned());
      }
      if (e.confirmed() != null) {
        transaction(n.putObject("confirmed_transaction"), e.confirmed());
      }
      if (e.sourceForkVersion() != null) {
        n.put("source_fork_version", e.sourceForkVersion());
      }
      if (e.confirmedBranchIdentifier() != null) {
        n.put("confirmed_branch_identifier", e.confirmedBranchIdentifier());
      }
    }
    ArrayNode updates = p.putObject("intended_delta").putArray("table_updates");
    for (TableUpdateSlot u : v3.intendedDelta()) {
      ObjectNode n = updates.addObject();
      identity(n, u.identity());
      n.put("table_key", u.tableKey());
      n.put("expected_version", u.expectedVersion());
      putNullable(n, "table_branch", u.tableBranch());
      if (u.confirmed() != null) {
        ObjectNode c = n.putObject("confirmed");
        c.put("table_version", u.confirmed().tableVersion());
        putNullable(c, "table_branch", u.confirmed().tableBranch());
        c.put("row_count", u.confirmed().rowCount());
        try {
          c.set("version_metadata", JSON.readTree(u.confirmed().versionMetadataJson()));
        } catch (JsonProcessingException e) {
          throw new IllegalArgumentException("version metadata is not JSON: " + u.confirmed().versionMetadataJson(), e);
        }
      }
    }
    try {
      return JSON.writeValueAsString(o) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render a sidecar", e);
    }
  }

  /**
   * @return the writer-specific payload field: {@code protocol_v3} for Mutation and Load,
   *     {@code protocol_v8} for EnsureIndices (the same exact-transaction shape: one pre-minted
   *     CreateIndex transaction per table), {@code maintenance} for Optimize (the bounded payload:
   *     no transaction identities, always Armed; docs/sidecar-format.md)
   */
  static String payloadField(WriterKind kind) {
    return switch (kind) {
      case ENSURE_INDICES -> "protocol_v8";
      case SCHEMA_APPLY -> "protocol_v7";
      case BRANCH_MERGE, GROUP_COMMIT -> "protocol_v4";
      case OPTIMIZE -> "maintenance";
      default -> "protocol_v3";
    };
  }

  private static void putNullable(ObjectNode o, String field, String value) {
    if (value == null) {
      o.putNull(field);
    } else {
      o.put(field, value);
    }
  }

  private static void identity(ObjectNode o, TableIdentity id) {
    o.putObject("identity").put("stable_table_id", id.stableTableId()).put("table_incarnation_id", id.incarnationId());
  }

  private static void transaction(ObjectNode o, TransactionIdentity t) {
    o.put("read_version", t.readVersion()).put("uuid", t.uuid());
  }

  // ------------------------------------------------------------------ parse

  /**
   * Parses and validates one sidecar body.
   *
   * @param name the file name, for messages; its stem must equal {@code operation_id}
   * @throws SidecarFormatException when the body is not an exact v9 Mutation/Load sidecar of this root
   */
  public RecoverySidecar parse(String name, String body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new SidecarFormatException("is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new SidecarFormatException("is not a JSON object");
    }
    JsonNode version = root.get("schema_version");
    if (version == null) {
      throw new SidecarFormatException("has no schema_version");
    }
    if (!version.isIntegralNumber()) {
      throw new SidecarFormatException("has a non-integer schema_version " + version);
    }
    long v = version.asLong();
    if (v < RecoverySidecar.SCHEMA_VERSION) {
      throw new SidecarFormatException("is a pre-v9 sidecar (schema_version " + v
          + "): it lacks the per-table identity fields, so this release refuses to infer ownership from table"
          + " names; recover it with the release that wrote it, or remove it after operator review");
    }
    if (v > RecoverySidecar.SCHEMA_VERSION) {
      throw new SidecarFormatException("has schema_version " + v + ", newer than the maximum "
          + RecoverySidecar.SCHEMA_VERSION + " this release supports; upgrade omnigraph or remove the sidecar"
          + " after operator review");
    }
    RecoverySidecar s;
    try {
      s = decode(root);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new SidecarFormatException("is malformed: " + e.getMessage(), e);
    }
    String stem = name.endsWith(".json") ? name.substring(name.lastIndexOf('/') + 1, name.length() - 5) : name;
    if (!stem.equals(s.operationId())) {
      throw new SidecarFormatException("has operation_id " + s.operationId() + " but is named " + name);
    }
    try {
      validate(s);
    } catch (IllegalArgumentException e) {
      throw new SidecarFormatException("is malformed: " + e.getMessage(), e);
    }
    return s;
  }

  private static RecoverySidecar decode(JsonNode root) {
    Obj o = new Obj(root, "sidecar");
    o.allow("schema_version", "operation_id", "started_at", "branch", "actor_id", "writer_kind", "tables",
        "schema_apply_manifest_published", "merge_source_commit_id", "additional_registrations", "tombstones",
        "schema_apply_target_schema_ir_hash", "protocol_v3", "protocol_v4", "protocol_v7", "protocol_v8",
        "ensure_indices_rollback_v6", "maintenance", "group_members");
    String kindText = o.string("writer_kind");
    WriterKind kind = WriterKind.fromJson(kindText)
        .orElseThrow(() -> new IllegalArgumentException("unknown writer_kind '" + kindText + "'"));
    if (kind != WriterKind.MUTATION && kind != WriterKind.LOAD && kind != WriterKind.ENSURE_INDICES
        && kind != WriterKind.OPTIMIZE && kind != WriterKind.SCHEMA_APPLY && kind != WriterKind.BRANCH_MERGE
        && kind != WriterKind.GROUP_COMMIT) {
      throw new IllegalArgumentException("writer_kind " + kindText
          + " is not a writer this release has, so it cannot recover it");
    }
    String payload = payloadField(kind);
    for (String legacy : List.of("merge_source_commit_id", "additional_registrations", "tombstones",
        "schema_apply_target_schema_ir_hash", "protocol_v3", "protocol_v4", "protocol_v7", "protocol_v8",
        "ensure_indices_rollback_v6", "maintenance", "group_members")) {
      boolean groupField = kind == WriterKind.GROUP_COMMIT && legacy.equals("group_members");
      boolean schemaApplyField = kind == WriterKind.SCHEMA_APPLY && (legacy.equals("additional_registrations")
          || legacy.equals("schema_apply_target_schema_ir_hash"));
      if (!legacy.equals(payload) && !schemaApplyField && !groupField && o.node.has(legacy)) {
        throw new IllegalArgumentException("a v9 " + kindText + " sidecar must not carry " + legacy);
      }
    }
    if (o.bool("schema_apply_manifest_published")) {
      throw new IllegalArgumentException("schema_apply_manifest_published is only legal at schema version 5");
    }
    String startedAt = o.string("started_at");
    long started;
    try {
      started = Long.parseLong(startedAt);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("started_at '" + startedAt + "' is not decimal microseconds");
    }
    List<TablePin> pins = new ArrayList<>();
    for (Obj t : o.array("tables")) {
      t.allow("identity", "table_key", "table_path", "expected_version", "post_commit_pin", "confirmed_version",
          "table_branch");
      pins.add(new TablePin(identity(t), t.string("table_key"), t.string("table_path"), t.u64("expected_version"),
          t.u64("post_commit_pin"), t.optionalU64("confirmed_version"), t.optionalString("table_branch")));
    }
    Obj p = o.object(payload);
    p.allow("authority", "lineage", "rollback_graph_commit_id", "rollback_audit_outcomes", "effect_phase", "effects",
        "intended_delta");
    Obj a = p.object("authority");
    a.allow("branch_identifier", "graph_head", "schema_identity_domain", "schema_ir_hash", "schema_identity_version");
    AuthorityToken authority = new AuthorityToken(a.string("branch_identifier"), a.nullableString("graph_head"),
        a.string("schema_identity_domain"), a.string("schema_ir_hash"), a.u64("schema_identity_version"));
    Obj l = p.object("lineage");
    l.allow("graph_commit_id", "branch", "actor_id", "merged_parent_commit_id", "created_at", "message");
    Lineage lineage = new Lineage(l.string("graph_commit_id"), l.nullableString("branch"), l.nullableString("actor_id"),
        l.nullableString("merged_parent_commit_id"), l.u64("created_at"), l.nullableString("message"));
    List<TableOutcome> outcomes = null;
    if (p.node.has("rollback_audit_outcomes")) {
      outcomes = new ArrayList<>();
      for (Obj t : p.array("rollback_audit_outcomes")) {
        t.allow("table_key", "from_version", "to_version");
        outcomes.add(new TableOutcome(t.string("table_key"), t.u64("from_version"), t.u64("to_version")));
      }
    }
    String phaseText = p.string("effect_phase");
    EffectPhase phase = switch (phaseText) {
      case "Armed" -> EffectPhase.ARMED;
      case "EffectsConfirmed" -> EffectPhase.EFFECTS_CONFIRMED;
      default -> throw new IllegalArgumentException("unknown effect_phase '" + phaseText + "'");
    };
    List<TableEffect> effects = new ArrayList<>();
    for (Obj e : p.array("effects")) {
      TransactionIdentity confirmedTx = null;
      if (kind == WriterKind.BRANCH_MERGE || kind == WriterKind.GROUP_COMMIT) {
        e.allow("identity", "table_key", "planned_transactions", "confirmed_transaction", "source_fork_version",
            "confirmed_branch_identifier");
        List<TransactionIdentity> chain = new ArrayList<>();
        for (Obj t : e.array("planned_transactions")) {
          chain.add(transaction(t));
        }
        if (chain.isEmpty()) {
          throw new IllegalArgumentException("a " + kindText + " effect plans at least one transaction");
        }
        confirmedTx = e.node.has("confirmed_transaction") ? transaction(e.object("confirmed_transaction")) : null;
        effects.add(new TableEffect(identity(e), e.string("table_key"), chain.get(0), confirmedTx, chain,
            e.optionalU64("source_fork_version"), e.optionalString("confirmed_branch_identifier")));
        continue;
      }
      e.allow("identity", "table_key", "planned_transaction", "confirmed_transaction", "source_fork_version",
          "confirmed_branch_identifier");
      effects.add(new TableEffect(identity(e), e.string("table_key"), transaction(e.object("planned_transaction")),
          e.node.has("confirmed_transaction") ? transaction(e.object("confirmed_transaction")) : null, null,
          e.optionalU64("source_fork_version"), e.optionalString("confirmed_branch_identifier")));
    }
    Obj d = p.object("intended_delta");
    d.allow("table_updates", "registrations", "renames", "tombstones");
    for (String f : List.of("registrations", "renames", "tombstones")) {
      if (d.node.has(f)) {
        throw new IllegalArgumentException("a " + kindText + " sidecar cannot carry intended_delta." + f);
      }
    }
    List<TableUpdateSlot> slots = new ArrayList<>();
    for (Obj u : d.array("table_updates")) {
      u.allow("identity", "table_key", "expected_version", "table_branch", "confirmed");
      ConfirmedUpdate confirmed = null;
      if (u.node.has("confirmed")) {
        Obj c = u.object("confirmed");
        c.allow("table_version", "table_branch", "row_count", "version_metadata");
        JsonNode meta = c.required("version_metadata");
        if (!meta.isObject()) {
          throw new IllegalArgumentException("confirmed.version_metadata must be an object");
        }
        confirmed = new ConfirmedUpdate(c.u64("table_version"), c.nullableString("table_branch"), c.u64("row_count"),
            meta.toString());
      }
      slots.add(new TableUpdateSlot(identity(u), u.string("table_key"), u.u64("expected_version"),
          u.nullableString("table_branch"), confirmed));
    }
    RecoverySidecar.SchemaApplyPayload schemaApply = null;
    if (kind == WriterKind.SCHEMA_APPLY) {
      List<RecoverySidecar.CreatedTable> created = new ArrayList<>();
      for (Obj c : o.array("additional_registrations")) {
        c.allow("identity", "table_key", "table_path");
        created.add(new RecoverySidecar.CreatedTable(identity(c), c.string("table_key"), c.string("table_path")));
      }
      schemaApply = new RecoverySidecar.SchemaApplyPayload(o.string("schema_apply_target_schema_ir_hash"), created);
    }
    List<RecoverySidecar.GroupMember> members = null;
    if (kind == WriterKind.GROUP_COMMIT) {
      members = new ArrayList<>();
      for (Obj m : o.array("group_members")) {
        m.allow("graph_commit_id", "actor_id", "message", "created_at", "table_keys");
        List<String> keys = new ArrayList<>();
        for (JsonNode k : m.required("table_keys")) {
          if (!k.isTextual()) {
            throw new IllegalArgumentException("group_members.table_keys holds a non-string");
          }
          keys.add(k.asText());
        }
        members.add(new RecoverySidecar.GroupMember(m.string("graph_commit_id"), m.nullableString("actor_id"),
            m.nullableString("message"), m.u64("created_at"), keys));
      }
    }
    return new RecoverySidecar(o.string("operation_id"), started, o.nullableString("branch"),
        o.nullableString("actor_id"), kind, pins,
        new ProtocolV3(authority, lineage, p.string("rollback_graph_commit_id"), outcomes, phase, effects, slots),
        schemaApply, members);
  }

  private static TableIdentity identity(Obj o) {
    Obj i = o.object("identity");
    i.allow("stable_table_id", "table_incarnation_id");
    return new TableIdentity(i.u64("stable_table_id"), i.u64("table_incarnation_id"));
  }

  private static TransactionIdentity transaction(Obj o) {
    o.allow("read_version", "uuid");
    return new TransactionIdentity(o.u64("read_version"), o.string("uuid"));
  }

  /** Shape rules shared by parse and write (docs/sidecar-format.md, "Codec strictness"). */
  private void validate(RecoverySidecar s) {
    fail(s.operationId().isEmpty(), "operation_id is empty");
    // A SchemaApply may change only metadata, registrations or create tables: no rewritten table.
    fail(s.tables().isEmpty() && s.writerKind() != WriterKind.SCHEMA_APPLY, "names no table");
    ProtocolV3 p = s.protocol();
    fail(!Objects.equals(p.lineage().branch(), s.branch()), "lineage branch " + p.lineage().branch()
        + " differs from the sidecar branch " + s.branch());
    fail(p.authority().branchIdentifier().isEmpty() || p.authority().schemaIdentityDomain().isEmpty()
        || p.authority().schemaIrHash().isEmpty(), "has an empty authority field");
    fail(p.rollbackGraphCommitId().equals(p.lineage().graphCommitId()),
        "rollback_graph_commit_id equals the original graph_commit_id");
    Set<TableIdentity> seen = new HashSet<>();
    for (TablePin pin : s.tables()) {
      fail(!seen.add(pin.identity()), "pins table " + pin.identity() + " twice");
      String canonical = canonicalUri.apply(pin);
      fail(!pin.tablePath().equals(canonical), "pins " + pin.tableKey() + " at " + pin.tablePath()
          + ", a foreign or non-canonical URI (expected " + canonical + ")");
      if (s.writerKind() == WriterKind.BRANCH_MERGE || s.writerKind() == WriterKind.GROUP_COMMIT) {
        TableEffect chained = p.effect(pin.identity()).orElseThrow(
            () -> new SidecarFormatException("has no effect for pinned table " + pin.tableKey()));
        fail(chained.chain() == null, "is a " + s.writerKind().json() + " sidecar without a transaction chain for "
            + pin.tableKey());
        List<TransactionIdentity> chain = chained.chain();
        for (int i = 0; i < chain.size(); i++) {
          fail(chain.get(i).readVersion() != pin.expectedVersion() + i, "chains " + pin.tableKey()
              + " non-contiguously: transaction " + i + " reads version " + chain.get(i).readVersion());
        }
        fail(pin.postCommitPin() != pin.expectedVersion() + chain.size(), "pins " + pin.tableKey()
            + " with post_commit_pin " + pin.postCommitPin() + " for a chain of " + chain.size() + " from "
            + pin.expectedVersion());
        fail(chained.confirmed() != null && !chained.confirmed().equals(chain.get(chain.size() - 1)),
            "confirms " + pin.tableKey() + " with a transaction that does not end its chain");
      } else {
        fail(pin.postCommitPin() != pin.expectedVersion() + 1, "pins " + pin.tableKey()
            + " with post_commit_pin " + pin.postCommitPin() + " for expected_version " + pin.expectedVersion());
      }
      if (s.writerKind() == WriterKind.OPTIMIZE) {
        fail(pin.confirmedVersion() != null, "is an Optimize sidecar but confirms " + pin.tableKey());
        continue;
      }
      TableEffect e = p.effect(pin.identity()).orElseThrow(
          () -> new SidecarFormatException("has no effect for pinned table " + pin.tableKey()));
      TableUpdateSlot u = p.slot(pin.identity()).orElseThrow(
          () -> new SidecarFormatException("has no intended_delta slot for pinned table " + pin.tableKey()));
      fail(!e.tableKey().equals(pin.tableKey()) || !u.tableKey().equals(pin.tableKey()),
          "names table " + pin.identity() + " with different keys");
      fail(e.planned().readVersion() != pin.expectedVersion(), "plans " + pin.tableKey() + " on read version "
          + e.planned().readVersion() + " but expects version " + pin.expectedVersion());
      fail(u.expectedVersion() != pin.expectedVersion(), "has a delta slot for " + pin.tableKey()
          + " with another expected version");
      fail(e.firstTouch() && (s.writerKind() != WriterKind.MUTATION && s.writerKind() != WriterKind.LOAD
          && s.writerKind() != WriterKind.BRANCH_MERGE || pin.tableBranch() == null
          || e.sourceForkVersion() != pin.expectedVersion()), "forks " + pin.tableKey() + " first-touch, which only"
          + " a Mutation, Load or BranchMerge does, on a named table_branch, from exactly its expected_version");
      if (p.effectPhase() == EffectPhase.EFFECTS_CONFIRMED) {
        fail(pin.confirmedVersion() == null || e.confirmed() == null || u.confirmed() == null,
            "is EffectsConfirmed but " + pin.tableKey() + " is not confirmed");
        fail(e.firstTouch() != (e.confirmedBranchIdentifier() != null), e.firstTouch()
            ? "confirms first-touch " + pin.tableKey() + " without the identifier of the ref it created"
            : "binds a ref identifier to " + pin.tableKey() + ", which it did not fork");
        fail(e.confirmedBranchIdentifier() != null && e.confirmedBranchIdentifier().isEmpty(),
            "binds an empty ref identifier to " + pin.tableKey());
      } else {
        fail(e.confirmedBranchIdentifier() != null, "is Armed but binds a ref identifier to " + pin.tableKey());
        fail(pin.confirmedVersion() != null || e.confirmed() != null || u.confirmed() != null,
            "is Armed but carries a confirmation for " + pin.tableKey());
      }
    }
    if (s.writerKind() == WriterKind.OPTIMIZE) {
      // The bounded maintenance payload: compaction and index folds are committed by Lance itself,
      // so there is no caller-minted transaction to name and no confirmation boundary.
      fail(!p.effects().isEmpty() || !p.intendedDelta().isEmpty(), "is an Optimize sidecar with exact effects");
      fail(p.effectPhase() != EffectPhase.ARMED, "is an Optimize sidecar that is not Armed");
      return;
    }
    if (s.writerKind() == WriterKind.GROUP_COMMIT) {
      GroupCommitShape.validate(s);
    }
    if (s.writerKind() == WriterKind.BRANCH_MERGE) {
      // Pointer-only tables of a merge have a delta slot (already confirmed: the source's version)
      // but no pin and no effect, so a roll-forward publishes the complete logical merge.
      fail(p.lineage().mergedParentCommitId() == null, "is a BranchMerge sidecar without merged_parent_commit_id");
      fail(p.effects().size() != s.tables().size(), "has effects for tables it does not pin");
      Set<TableIdentity> slotted = new HashSet<>();
      for (TableUpdateSlot u : p.intendedDelta()) {
        fail(!slotted.add(u.identity()), "has two delta slots for " + u.tableKey());
        fail(s.pin(u.identity()).isEmpty() && u.confirmed() == null, "has an unpinned delta slot for "
            + u.tableKey() + " without its pointer");
      }
      return;
    }
    fail(p.effects().size() != s.tables().size() || p.intendedDelta().size() != s.tables().size(),
        "has effects or delta slots for tables it does not pin");
  }

  private static void fail(boolean condition, String message) {
    if (condition) {
      throw new SidecarFormatException(message);
    }
  }

  /** A JSON object read strictly: every field required unless read as optional, no unknown fields. */
  private static final class Obj {
    final JsonNode node;
    final String where;

    Obj(JsonNode node, String where) {
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException(where + " must be a JSON object");
      }
      this.node = node;
      this.where = where;
    }

    void allow(String... fields) {
      Set<String> ok = Set.of(fields);
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!ok.contains(f)) {
          throw new IllegalArgumentException("unknown field " + where + "." + f);
        }
      }
    }

    JsonNode required(String field) {
      JsonNode v = node.get(field);
      if (v == null) {
        throw new IllegalArgumentException("missing field " + where + "." + field);
      }
      return v;
    }

    String string(String field) {
      JsonNode v = required(field);
      if (!v.isTextual()) {
        throw new IllegalArgumentException(where + "." + field + " must be a string");
      }
      return v.asText();
    }

    /** Key must be present; value a string or null. */
    String nullableString(String field) {
      JsonNode v = required(field);
      return v.isNull() ? null : string(field);
    }

    /** Key may be absent (omitted when null). */
    String optionalString(String field) {
      return node.has(field) ? nullableString(field) : null;
    }

    boolean bool(String field) {
      JsonNode v = required(field);
      if (!v.isBoolean()) {
        throw new IllegalArgumentException(where + "." + field + " must be a boolean");
      }
      return v.asBoolean();
    }

    long u64(String field) {
      JsonNode v = required(field);
      if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
        throw new IllegalArgumentException(where + "." + field + " must be a non-negative integer");
      }
      return v.asLong();
    }

    Long optionalU64(String field) {
      return node.has(field) ? u64(field) : null;
    }

    Obj object(String field) {
      return new Obj(required(field), where + "." + field);
    }

    List<Obj> array(String field) {
      JsonNode v = required(field);
      if (!v.isArray()) {
        throw new IllegalArgumentException(where + "." + field + " must be an array");
      }
      List<Obj> out = new ArrayList<>();
      for (int i = 0; i < v.size(); i++) {
        out.add(new Obj(v.get(i), where + "." + field + "[" + i + "]"));
      }
      return out;
    }
  }
}
