package io.omnigraph.engine.recovery;

import io.omnigraph.engine.recovery.RecoverySidecar.GroupMember;
import io.omnigraph.engine.recovery.RecoverySidecar.Lineage;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The shape rules of a {@code GroupCommit} sidecar beyond the chain rules it shares with a branch
 * merge (docs/sidecar-format.md, "GroupCommit"): at least two members in chain order with distinct
 * pre-minted commits and strictly increasing times, the last member being the payload's lineage;
 * each member touches pinned tables only, and each table's chain has exactly one transaction per
 * member that touches it.
 */
final class GroupCommitShape {
  private GroupCommitShape() {}

  /** @throws SidecarCodec.SidecarFormatException the sidecar breaks a rule */
  static void validate(RecoverySidecar s) {
    List<GroupMember> members = s.groupMembers();
    ProtocolV3 p = s.protocol();
    Lineage l = p.lineage();
    fail(members.size() < 2, "is a GroupCommit sidecar with " + members.size() + " member(s)");
    fail(l.mergedParentCommitId() != null, "is a GroupCommit sidecar with merged_parent_commit_id");
    GroupMember last = members.get(members.size() - 1);
    fail(!last.graphCommitId().equals(l.graphCommitId()) || last.createdAtMicros() != l.createdAtMicros()
        || !Objects.equals(last.actorId(), l.actorId()) || !Objects.equals(last.message(), l.message()),
        "has a lineage that is not its last group member");
    fail(p.effects().size() != s.tables().size() || p.intendedDelta().size() != s.tables().size(),
        "has effects or delta slots for tables it does not pin");
    Map<String, Integer> touches = new HashMap<>();
    Set<String> ids = new HashSet<>();
    long time = Long.MIN_VALUE;
    for (GroupMember m : members) {
      fail(!ids.add(m.graphCommitId()) || m.graphCommitId().equals(p.rollbackGraphCommitId()),
          "repeats the group member commit " + m.graphCommitId());
      fail(m.createdAtMicros() <= time, "has group members out of time order at " + m.graphCommitId());
      time = m.createdAtMicros();
      fail(m.tableKeys().isEmpty() || new HashSet<>(m.tableKeys()).size() != m.tableKeys().size(),
          "has group member " + m.graphCommitId() + " with no or repeated tables");
      for (String key : m.tableKeys()) {
        fail(s.tables().stream().noneMatch(t -> t.tableKey().equals(key)), "has group member "
            + m.graphCommitId() + " touching the unpinned table " + key);
        touches.merge(key, 1, Integer::sum);
      }
    }
    for (TablePin pin : s.tables()) {
      int chain = p.effect(pin.identity()).orElseThrow().transactions().size();
      fail(touches.getOrDefault(pin.tableKey(), 0) != chain, "chains " + chain + " transaction(s) on "
          + pin.tableKey() + " for " + touches.getOrDefault(pin.tableKey(), 0) + " member(s) touching it");
    }
  }

  /**
   * @return the version member {@code index} (0-based) leaves {@code pin}'s table at: its expected
   *     version plus the members up to it that touch the table
   */
  static long versionAfter(RecoverySidecar s, int index, TablePin pin) {
    long v = pin.expectedVersion();
    for (int i = 0; i <= index; i++) {
      if (s.groupMembers().get(i).tableKeys().contains(pin.tableKey())) {
        v++;
      }
    }
    return v;
  }

  private static void fail(boolean condition, String message) {
    if (condition) {
      throw new SidecarCodec.SidecarFormatException(message);
    }
  }
}
