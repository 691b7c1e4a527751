package io.omnigraph.engine.recovery;

import static io.omnigraph.engine.testing.SidecarSamples.ID;
import static io.omnigraph.engine.testing.SidecarSamples.PERSON;
import static io.omnigraph.engine.testing.SidecarSamples.ROOT;
import static io.omnigraph.engine.testing.SidecarSamples.armed;
import static io.omnigraph.engine.testing.SidecarSamples.confirmed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.SidecarCodec.SidecarFormatException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The v9 sidecar JSON: exact round trips and strict refusals (docs/sidecar-format.md). */
class SidecarCodecTest {
  static final SidecarCodec CODEC = new SidecarCodec(p -> ROOT + p.identity().canonicalPath(p.tableKey()));
  static final ObjectMapper JSON = new ObjectMapper();

  static String name() {
    return RecoverySidecar.path(ID);
  }

  static ObjectNode tree(RecoverySidecar s) throws Exception {
    return (ObjectNode) JSON.readTree(CODEC.write(s));
  }

  static RecoverySidecar parse(JsonNode n) {
    return CODEC.parse(name(), n.toString());
  }

  @Test
  void armedAndConfirmedSidecarsRoundTripExactly() {
    for (RecoverySidecar s : List.of(armed(), confirmed())) {
      assertThat(CODEC.parse(name(), CODEC.write(s))).isEqualTo(s);
    }
  }

  @Test
  void writtenJsonHasTheV9FieldNames() throws Exception {
    JsonNode n = tree(confirmed());
    assertThat(n.get("schema_version").asInt()).isEqualTo(9);
    assertThat(n.get("writer_kind").asText()).isEqualTo("Mutation");
    assertThat(n.get("started_at").asText()).isEqualTo("1752480000123456");
    JsonNode pin = n.get("tables").get(0);
    assertThat(pin.get("identity").get("stable_table_id").asLong()).isEqualTo(3);
    assertThat(pin.get("identity").get("table_incarnation_id").asLong()).isEqualTo(4);
    assertThat(pin.get("expected_version").asLong()).isEqualTo(12);
    assertThat(pin.get("post_commit_pin").asLong()).isEqualTo(13);
    assertThat(pin.get("confirmed_version").asLong()).isEqualTo(13);
    JsonNode p = n.get("protocol_v3");
    assertThat(p.get("effect_phase").asText()).isEqualTo("EffectsConfirmed");
    assertThat(p.get("effects").get(0).get("planned_transaction").get("uuid").asText()).isEqualTo("6f1e-uuid");
    assertThat(p.get("intended_delta").get("table_updates").get(0).get("confirmed").get("version_metadata")
        .get("naming_scheme").asText()).isEqualTo("V2");
    assertThat(p.get("authority").get("schema_identity_version").asLong()).isEqualTo(2);
  }

  @Test
  void everyMissingFieldIsRefusedNeverDefaulted() throws Exception {
    List<String> paths = new ArrayList<>();
    collectRequired(tree(confirmed()), "", paths);
    assertThat(paths).hasSizeGreaterThan(30);
    for (String path : paths) {
      ObjectNode n = tree(confirmed());
      remove(n, path);
      assertThatThrownBy(() -> parse(n)).as("without " + path).isInstanceOf(SidecarFormatException.class);
    }
  }

  /** Every field whose absence must be refused: all but the documented optional ones. */
  private static void collectRequired(JsonNode n, String prefix, List<String> out) {
    if (n.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String p = prefix + "/" + e.getKey();
        // Optional by the v9 shape: omitted when null or empty. Their absence changes the meaning, tested below.
        if (!List.of("confirmed_version", "table_branch", "rollback_audit_outcomes", "confirmed_transaction",
            "confirmed").contains(e.getKey()) || p.endsWith("/confirmed/table_branch")) {
          out.add(p);
        }
        if (!e.getKey().equals("version_metadata")) { // opaque to the codec: any JSON object
          collectRequired(e.getValue(), p, out);
        }
      }
    } else if (n.isArray() && n.size() > 0) {
      collectRequired(n.get(0), prefix + "/0", out);
    }
  }

  private static void remove(JsonNode root, String path) {
    int slash = path.lastIndexOf('/');
    JsonNode parent = path.substring(0, slash).isEmpty() ? root : root.at(path.substring(0, slash));
    ((ObjectNode) parent).remove(path.substring(slash + 1));
  }

  @Test
  void droppingAConfirmationFromAConfirmedSidecarIsRefused() throws Exception {
    for (String path : List.of("/tables/0/confirmed_version", "/protocol_v3/effects/0/confirmed_transaction",
        "/protocol_v3/intended_delta/table_updates/0/confirmed")) {
      ObjectNode n = tree(confirmed());
      remove(n, path);
      assertThatThrownBy(() -> parse(n)).as(path).isInstanceOf(SidecarFormatException.class)
          .hasMessageContaining("not confirmed");
    }
  }

  @Test
  void unknownFieldIsRefused() throws Exception {
    ObjectNode n = tree(armed());
    ((ObjectNode) n.get("protocol_v3")).put("surprise", 1);
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("unknown field sidecar.protocol_v3.surprise");
  }

  @Test
  void preV9SidecarIsRefusedByNameEvenWithIdentities() throws Exception {
    ObjectNode n = tree(armed());
    n.put("schema_version", 3);
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("pre-v9").hasMessageContaining("identity");
  }

  @Test
  void newerVersionIsRefusedWithUpgradeAdvice() throws Exception {
    ObjectNode n = tree(armed());
    n.put("schema_version", 10);
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("newer").hasMessageContaining("upgrade omnigraph");
  }

  @Test
  void foreignTablePathIsRefused() throws Exception {
    ObjectNode n = tree(armed());
    ((ObjectNode) n.get("tables").get(0)).put("table_path", "s3://other/g9/nodes/0000000000000003-0000000000000004");
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("foreign or non-canonical");
  }

  @Test
  void writersThisReleaseCannotRecoverAreRefused() throws Exception {
    ObjectNode n = tree(armed());
    n.put("writer_kind", "SchemaApply");
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("SchemaApply");
    n.put("writer_kind", "Frobnicate");
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("unknown");
  }

  /** A BranchMerge sidecar: a chain of three on node:Person and one pointer-only slot. */
  static RecoverySidecar merge(List<RecoverySidecar.TransactionIdentity> chain, String mergedParent,
      RecoverySidecar.ConfirmedUpdate pointer) {
    RecoverySidecar a = armed();
    RecoverySidecar.ProtocolV3 p = a.protocol();
    RecoverySidecar.TablePin pin = a.tables().get(0);
    var lineage = new RecoverySidecar.Lineage(p.lineage().graphCommitId(), null, "svc", mergedParent,
        p.lineage().createdAtMicros(), "merge f into main");
    return new RecoverySidecar(a.operationId(), a.startedAtMicros(), null, "svc", RecoverySidecar.WriterKind.BRANCH_MERGE,
        List.of(new RecoverySidecar.TablePin(PERSON, "node:Person", pin.tablePath(), 12, 12 + chain.size(), null, null)),
        new RecoverySidecar.ProtocolV3(p.authority(), lineage, p.rollbackGraphCommitId(), null,
            RecoverySidecar.EffectPhase.ARMED,
            List.of(new RecoverySidecar.TableEffect(PERSON, "node:Person", chain.get(0), null, chain)),
            List.of(new RecoverySidecar.TableUpdateSlot(PERSON, "node:Person", 12, null, null),
                new RecoverySidecar.TableUpdateSlot(new io.omnigraph.engine.manifest.TableIdentity(5, 6), "edge:Knows", 3,
                    null, pointer))));
  }

  static final List<RecoverySidecar.TransactionIdentity> CHAIN = List.of(
      new RecoverySidecar.TransactionIdentity(12, "u0"), new RecoverySidecar.TransactionIdentity(13, "u1"),
      new RecoverySidecar.TransactionIdentity(14, "u2"));

  @Test
  void branchMergeSidecarsCarryAContiguousChainAndPointerSlotsAsProtocolV4() throws Exception {
    var pointer = new RecoverySidecar.ConfirmedUpdate(7, "f", 10, "{\"manifest_path\":\"y\"}");
    RecoverySidecar s = merge(CHAIN, "01JZ8Q3V80000000000000000S", pointer);
    assertThat(CODEC.parse(name(), CODEC.write(s))).isEqualTo(s);
    JsonNode n = tree(s);
    assertThat(n.get("writer_kind").asText()).isEqualTo("BranchMerge");
    assertThat(n.get("tables").get(0).get("post_commit_pin").asLong()).isEqualTo(15);
    assertThat(n.get("protocol_v4").get("effects").get(0).get("planned_transactions")).hasSize(3);
    assertThat(n.get("protocol_v4").get("lineage").get("merged_parent_commit_id").asText())
        .isEqualTo("01JZ8Q3V80000000000000000S");
    // refused: a gap in the chain, no merge parent, a pointer slot without its pointer, a wrong pin
    List<RecoverySidecar.TransactionIdentity> gap = List.of(CHAIN.get(0), new RecoverySidecar.TransactionIdentity(14, "x"),
        new RecoverySidecar.TransactionIdentity(15, "y"));
    assertThatThrownBy(() -> CODEC.write(merge(gap, "01JZ8Q3V80000000000000000S", pointer)))
        .isInstanceOf(SidecarFormatException.class).hasMessageContaining("non-contiguously");
    assertThatThrownBy(() -> CODEC.write(merge(CHAIN, null, pointer))).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("merged_parent_commit_id");
    assertThatThrownBy(() -> CODEC.write(merge(CHAIN, "01JZ8Q3V80000000000000000S", null)))
        .isInstanceOf(SidecarFormatException.class).hasMessageContaining("without its pointer");
    ObjectNode bad = tree(s);
    ((ObjectNode) bad.get("tables").get(0)).put("post_commit_pin", 13);
    assertThatThrownBy(() -> parse(bad)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("chain of 3");
  }

  /** A GroupCommit sidecar: members m0 and m2 touch node:Person (a chain of two from 12), m1 touches edge:Knows. */
  static RecoverySidecar group(List<RecoverySidecar.GroupMember> members) {
    RecoverySidecar a = armed();
    RecoverySidecar.ProtocolV3 p = a.protocol();
    RecoverySidecar.TablePin pin = a.tables().get(0);
    var knows = new io.omnigraph.engine.manifest.TableIdentity(5, 6);
    RecoverySidecar.GroupMember last = members.get(members.size() - 1);
    var lineage = new RecoverySidecar.Lineage(last.graphCommitId(), null, last.actorId(), null, last.createdAtMicros(),
        last.message());
    List<RecoverySidecar.TransactionIdentity> person = List.of(CHAIN.get(0), CHAIN.get(1));
    List<RecoverySidecar.TransactionIdentity> edge = List.of(new RecoverySidecar.TransactionIdentity(3, "k0"));
    return new RecoverySidecar(a.operationId(), a.startedAtMicros(), null, last.actorId(),
        RecoverySidecar.WriterKind.GROUP_COMMIT,
        List.of(new RecoverySidecar.TablePin(PERSON, "node:Person", pin.tablePath(), 12, 14, null, null),
            new RecoverySidecar.TablePin(knows, "edge:Knows", ROOT + knows.canonicalPath("edge:Knows"), 3, 4, null, null)),
        new RecoverySidecar.ProtocolV3(p.authority(), lineage, p.rollbackGraphCommitId(), null,
            RecoverySidecar.EffectPhase.ARMED,
            List.of(new RecoverySidecar.TableEffect(PERSON, "node:Person", person.get(0), null, person),
                new RecoverySidecar.TableEffect(knows, "edge:Knows", edge.get(0), null, edge)),
            List.of(new RecoverySidecar.TableUpdateSlot(PERSON, "node:Person", 12, null, null),
                new RecoverySidecar.TableUpdateSlot(knows, "edge:Knows", 3, null, null))),
        null, members);
  }

  static RecoverySidecar.GroupMember member(String id, long at, String... tables) {
    return new RecoverySidecar.GroupMember(id, "svc", "m " + id, at, List.of(tables));
  }

  @Test
  void groupCommitSidecarsCarryChainsAndTheirMembers() throws Exception {
    List<RecoverySidecar.GroupMember> members = List.of(member("01JZ8Q3V80000000000000000A", 100, "node:Person"),
        member("01JZ8Q3V80000000000000000B", 101, "edge:Knows"),
        member("01JZ8Q3V80000000000000000C", 102, "node:Person"));
    RecoverySidecar s = group(members);
    assertThat(CODEC.parse(name(), CODEC.write(s))).isEqualTo(s);
    JsonNode n = tree(s);
    assertThat(n.get("writer_kind").asText()).isEqualTo("GroupCommit");
    assertThat(n.get("group_members")).hasSize(3);
    assertThat(n.get("protocol_v4").get("effects").get(0).get("planned_transactions")).hasSize(2);
    // refused: a chain that does not match the members touching it, members out of time order, a
    // lineage that is not the last member, one member, group_members on another writer
    assertThatThrownBy(() -> CODEC.write(group(List.of(members.get(0), members.get(1),
        member("01JZ8Q3V80000000000000000C", 102, "edge:Knows"))))).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("member(s) touching it");
    assertThatThrownBy(() -> CODEC.write(group(List.of(members.get(0), member("01JZ8Q3V80000000000000000B", 99,
        "edge:Knows"), members.get(2))))).isInstanceOf(SidecarFormatException.class).hasMessageContaining("time order");
    ObjectNode bad = tree(s);
    ((ObjectNode) bad.get("protocol_v4").get("lineage")).put("graph_commit_id", "01JZ8Q3V80000000000000000A");
    assertThatThrownBy(() -> parse(bad)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("last group member");
    ObjectNode foreign = tree(confirmed());
    foreign.set("group_members", n.get("group_members"));
    assertThatThrownBy(() -> parse(foreign)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("group_members");
  }

  @Test
  void ensureIndicesSidecarsCarryTheirPayloadAsProtocolV8() throws Exception {
    RecoverySidecar s = confirmed();
    RecoverySidecar ensure = new RecoverySidecar(s.operationId(), s.startedAtMicros(), s.branch(), s.actorId(),
        RecoverySidecar.WriterKind.ENSURE_INDICES, s.tables(), s.protocol());
    ObjectNode n = tree(ensure);
    assertThat(n.get("writer_kind").asText()).isEqualTo("EnsureIndices");
    assertThat(n.has("protocol_v8")).isTrue();
    assertThat(n.has("protocol_v3")).isFalse();
    assertThat(parse(n)).isEqualTo(ensure);
    // The payload name is bound to the writer: a v3 payload under EnsureIndices (or v8 under Mutation) is refused.
    n.set("protocol_v3", n.remove("protocol_v8"));
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("protocol_v3");
    ObjectNode m = tree(s);
    m.set("protocol_v8", m.remove("protocol_v3"));
    assertThatThrownBy(() -> parse(m)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("protocol_v8");
  }

  @Test
  void armedSidecarCarryingAConfirmationIsRefused() throws Exception {
    ObjectNode n = tree(armed());
    ((ObjectNode) n.get("tables").get(0)).put("confirmed_version", 13);
    assertThatThrownBy(() -> parse(n)).isInstanceOf(SidecarFormatException.class).hasMessageContaining("Armed");
  }

  @Test
  void fileNameMustBeTheOperationId() {
    assertThatThrownBy(() -> CODEC.parse(RecoverySidecar.path("01JZ8Q3V7K2M4N6P8R0T2W4Y6B"), CODEC.write(armed())))
        .isInstanceOf(SidecarFormatException.class).hasMessageContaining("is named");
  }

  @Test
  void notJsonIsRefused() {
    assertThatThrownBy(() -> CODEC.parse(name(), "{\"schema_version\": 9,")).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void writeRefusesWhatParseWouldRefuse() {
    RecoverySidecar a = armed();
    RecoverySidecar foreign = a.with(List.of(new TablePin(PERSON, "node:Person", "file:///elsewhere", 12, 13, null,
        null)), a.protocol());
    assertThatThrownBy(() -> CODEC.write(foreign)).isInstanceOf(SidecarFormatException.class);
  }

  /** An armed first-touch branch write: the pin names the ref, the effect the version it forks from. */
  static RecoverySidecar firstTouch(long sourceForkVersion) {
    RecoverySidecar a = armed();
    RecoverySidecar.ProtocolV3 p = a.protocol();
    TablePin pin = a.tables().get(0);
    RecoverySidecar.TableEffect e = p.effects().get(0);
    return new RecoverySidecar(a.operationId(), a.startedAtMicros(), "dev", a.actorId(), a.writerKind(),
        List.of(new TablePin(pin.identity(), pin.tableKey(), pin.tablePath(), 12, 13, null, "dev")),
        new RecoverySidecar.ProtocolV3(p.authority(), new RecoverySidecar.Lineage(p.lineage().graphCommitId(), "dev",
            p.lineage().actorId(), null, p.lineage().createdAtMicros(), p.lineage().message()),
            p.rollbackGraphCommitId(), null, p.effectPhase(),
            List.of(new RecoverySidecar.TableEffect(e.identity(), e.tableKey(), e.planned(), null, null,
                sourceForkVersion)),
            List.of(new RecoverySidecar.TableUpdateSlot(PERSON, "node:Person", 12, "dev", null))));
  }

  @Test
  void aFirstTouchEffectNamesItsSourceForkVersionAndRoundTrips() throws Exception {
    RecoverySidecar s = firstTouch(12);
    JsonNode n = tree(s);
    assertThat(n.get("tables").get(0).get("table_branch").asText()).isEqualTo("dev");
    assertThat(n.get("protocol_v3").get("effects").get(0).get("source_fork_version").asLong()).isEqualTo(12);
    assertThat(CODEC.parse(name(), CODEC.write(s))).isEqualTo(s);
    assertThat(parse(n).protocol().effects().get(0).firstTouch()).isTrue();
    // Only from exactly the expected version, and only on a named ref.
    assertThatThrownBy(() -> CODEC.write(firstTouch(11))).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("first-touch");
    ObjectNode onMain = tree(s);
    ((ObjectNode) onMain.get("tables").get(0)).remove("table_branch");
    assertThatThrownBy(() -> parse(onMain)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("first-touch");
  }

  /** {@link #firstTouch} confirmed, binding {@code ref} as the created ref's identifier ({@code null}: none). */
  static RecoverySidecar confirmedFirstTouch(String ref) {
    RecoverySidecar a = firstTouch(12);
    RecoverySidecar.ProtocolV3 p = a.protocol();
    RecoverySidecar.TableEffect e = p.effects().get(0);
    return a.with(List.of(a.tables().get(0).confirmed(13)), new RecoverySidecar.ProtocolV3(p.authority(),
        p.lineage(), p.rollbackGraphCommitId(), null, RecoverySidecar.EffectPhase.EFFECTS_CONFIRMED,
        List.of(new RecoverySidecar.TableEffect(e.identity(), e.tableKey(), e.planned(), e.planned(), null, 12L, ref)),
        List.of(new RecoverySidecar.TableUpdateSlot(PERSON, "node:Person", 12, "dev",
            new RecoverySidecar.ConfirmedUpdate(13, "dev", 7, "{\"manifest_path\":\"x\",\"naming_scheme\":\"V2\"}")))));
  }

  /**
   * A confirmed first-touch effect binds the native identifier of the ref it created
   * ({@code confirmed_branch_identifier}, docs/sidecar-format.md): it round-trips, and a confirmed
   * first-touch effect without it, an armed effect with it, or an effect that forked nothing with it is refused.
   */
  @Test
  void aConfirmedFirstTouchEffectBindsTheCreatedRefsIdentifierAndRoundTrips() throws Exception {
    String ref = "1:0b5e-uuid/3:77aa-uuid";
    RecoverySidecar s = confirmedFirstTouch(ref);
    JsonNode n = tree(s);
    assertThat(n.get("protocol_v3").get("effects").get(0).get("confirmed_branch_identifier").asText()).isEqualTo(ref);
    assertThat(CODEC.parse(name(), CODEC.write(s))).isEqualTo(s);
    assertThat(parse(n).protocol().effects().get(0).confirmedBranchIdentifier()).isEqualTo(ref);
    assertThatThrownBy(() -> CODEC.write(confirmedFirstTouch(null))).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("without the identifier of the ref it created");
    ObjectNode missing = tree(s);
    ((ObjectNode) missing.get("protocol_v3").get("effects").get(0)).remove("confirmed_branch_identifier");
    assertThatThrownBy(() -> parse(missing)).isInstanceOf(SidecarFormatException.class);
    ObjectNode armedWithRef = tree(firstTouch(12));
    ((ObjectNode) armedWithRef.get("protocol_v3").get("effects").get(0)).put("confirmed_branch_identifier", ref);
    assertThatThrownBy(() -> parse(armedWithRef)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("Armed but binds a ref identifier");
    ObjectNode notForked = tree(confirmed());
    ((ObjectNode) notForked.get("protocol_v3").get("effects").get(0)).put("confirmed_branch_identifier", ref);
    assertThatThrownBy(() -> parse(notForked)).isInstanceOf(SidecarFormatException.class)
        .hasMessageContaining("which it did not fork");
  }
}
