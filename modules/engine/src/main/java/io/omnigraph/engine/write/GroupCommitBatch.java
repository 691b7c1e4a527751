package io.omnigraph.engine.write;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.table.RetryableCommitConflict;
import io.omnigraph.engine.table.StagedRebase;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One group commit inside the leader's effect window (docs/concurrency.md, "Group commit"): the
 * members, each prepared against the head the leader read, become one {@code GroupCommit} sidecar
 * (Phase A), one chain of table commits per table in member order, the first link the member's
 * staged transaction as is and every later link re-based on the one before
 * ({@link StagedRebase}), one sync group, one confirmation (Phase B), one {@code __manifest}
 * compare-and-set publishing every member as its own commit (Phase C; its files written ahead from
 * each link's predicted version and row count while the chains commit, {@link PublishAhead}), one
 * retirement (Phase D).
 *
 * <p>Failures, per member: a refusal of the very first table commit is effect-free for every member
 * (the sidecar is withdrawn and each member commits alone, as a single write would after a lost
 * race); a failure before any effect is every member's failure, the graph untouched; once a table
 * commit has landed, any failure is a {@link RecoveryRequiredException} naming the batch's sidecar
 * for every member, which recovery resolves for the whole batch (all members roll back or all roll
 * forward: a member is never lost or applied alone).
 */
final class GroupCommitBatch {
  /** What became of one member: its commit, its failure, or "commit alone". */
  record Result(GraphWrite.Outcome outcome, RuntimeException failure, boolean alone) {}

  private record Link(int member, GraphWrite.TableEffect effect) {}

  private GroupCommitBatch() {}

  /**
   * Chooses the batch among ready members, in queue order: an insertion-only mutation on main with
   * no head expectation and no first-touch table, whose ids are disjoint from every member chosen
   * before it on each table (a later member that shares an id commits alone after the batch, where
   * it sees the earlier one's row, as in serial order); at most {@value GroupCommitQueue#MAX_BATCH}.
   *
   * @return the chosen members' indices, at least one (the first ready member when fewer than two
   *     can be batched)
   */
  static List<Integer> select(List<GraphWrite.Member> ready) {
    List<Integer> chosen = new ArrayList<>();
    Map<String, Set<String>> ids = new HashMap<>();
    for (int i = 0; i < ready.size() && chosen.size() < GroupCommitQueue.MAX_BATCH; i++) {
      GraphWrite.Member m = ready.get(i);
      GraphWrite.Intent intent = m.intent();
      if (!m.groupable() || !batchable(intent)) {
        continue;
      }
      boolean disjoint = true;
      for (GraphWrite.TableEffect e : intent.effects()) {
        Set<String> seen = ids.getOrDefault(e.spec().tableKey(), Set.of());
        disjoint &= e.staged().ids().stream().noneMatch(seen::contains);
      }
      if (!disjoint) {
        continue;
      }
      for (GraphWrite.TableEffect e : intent.effects()) {
        ids.computeIfAbsent(e.spec().tableKey(), k -> new HashSet<>()).addAll(e.staged().ids());
      }
      chosen.add(i);
    }
    return chosen.size() < 2 ? List.of(0) : chosen;
  }

  private static boolean batchable(GraphWrite.Intent intent) {
    if (intent == null || intent.kind() != GraphWrite.WriterKind.MUTATION || intent.callerExpectedHead() != null
        || intent.onMovement() != GraphWrite.OnMovement.REPREPARE || !GraphBranch.MAIN.equals(intent.branch())
        || intent.effects().isEmpty()) {
      return false;
    }
    for (GraphWrite.TableEffect e : intent.effects()) {
      if (e.firstTouch() != null || e.published().branch() != null || !StagedRebase.rebaseable(e.staged())
          || e.staged().ids().isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Commits {@code members} (at least two, all prepared against the head of {@code fresh}) as one
   * batch. Never throws for a member's failure: each result carries it.
   */
  static List<Result> run(GraphWrite w, EffectWindow window, ManifestPublisher.Base fresh,
      List<GraphWrite.Intent> members) {
    try {
      return commit(w, window, fresh, members);
    } catch (RuntimeException e) {
      List<Result> out = new ArrayList<>();
      members.forEach(m -> out.add(new Result(null, e, false)));
      return out;
    }
  }

  private static List<Result> commit(GraphWrite w, EffectWindow window, ManifestPublisher.Base fresh,
      List<GraphWrite.Intent> members) {
    String branch = GraphBranch.MAIN;
    String tableBranch = GraphBranch.toColumn(branch);
    Optional<String> head = members.get(0).expectedHead();
    Map<String, List<Link>> chains = new LinkedHashMap<>();
    for (int i = 0; i < members.size(); i++) {
      for (GraphWrite.TableEffect e : members.get(i).effects()) {
        List<Link> chain = chains.computeIfAbsent(e.spec().tableKey(), k -> new ArrayList<>());
        if (!chain.isEmpty() && chain.get(0).effect().published().version() != e.published().version()) {
          throw new InternalErrorException("group commit members were prepared against different versions of "
              + e.spec().tableKey() + "; nothing was written", null);
        }
        chain.add(new Link(i, e));
      }
    }
    for (List<Link> chain : chains.values()) {
      w.requireHeadAtPin(chain.get(0).effect());
    }
    window.checkValid();
    // Pre-minted member commits, times strictly increasing in chain order.
    long time = GraphWrite.nowMicros();
    List<RecoverySidecar.GroupMember> group = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) {
      GraphWrite.Intent m = members.get(i);
      group.add(new RecoverySidecar.GroupMember(Ulid.generate(), m.actorId(), m.message(), time + i,
          m.effects().stream().map(e -> e.spec().tableKey()).toList()));
    }
    Map<String, List<String>> uuids = new LinkedHashMap<>();
    List<WriteIntent.PlannedChain> planned = new ArrayList<>();
    Map<String, Long> expected = new TreeMap<>();
    for (Map.Entry<String, List<Link>> c : chains.entrySet()) {
      GraphWrite.TableEffect first = c.getValue().get(0).effect();
      List<String> ids = new ArrayList<>();
      for (int j = 0; j < c.getValue().size(); j++) {
        ids.add(j == 0 ? first.staged().uuid() : UUID.randomUUID().toString());
      }
      uuids.put(c.getKey(), ids);
      expected.put(c.getKey(), first.published().version());
      planned.add(new WriteIntent.PlannedChain(identity(first), c.getKey(),
          TableReader.mainUri(first.snapshot().location(), tableBranch), first.published().version(), ids,
          tableBranch, false));
    }
    int manifestFragments = w.tables().reader().fragmentCount(fresh.snapshot()) + 1;
    // The publish's files are written on another thread while the sidecar is armed and the chains
    // are committed and confirmed, from each link's predicted version (one above the link before)
    // and row count (PublishAhead.rowsAfter); the publish commits them only when the batch's real
    // request is exactly the predicted one on this base, else they are discarded (a wrong
    // prediction, a withdrawn or failed batch) and nothing written ahead is ever referenced.
    List<Map<String, long[]>> predicted = predict(members, chains);
    try (PublishAhead ahead = predicted == null ? PublishAhead.NONE
        : PublishAhead.start(w.publisher(), request(members, predicted, chains, group, expected, head, tableBranch),
            fresh)) {
      Failpoints.hit(Failpoints.WRITE_POST_STAGE_PRE_EFFECT);
      long t0 = System.nanoTime();
      WriteIntent sidecar = WriteIntent.armGroup(w.sidecars(), branch, head, w.schema(), group, planned);
      String operation = sidecar.operationId();
      Failpoints.hit(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT);
      // Per member, per table it touches: the version and row count its link produced.
      List<Map<String, long[]>> produced = new ArrayList<>();
      members.forEach(m -> produced.add(new LinkedHashMap<>()));
      Map<String, Integer> fragments = new TreeMap<>();
      List<String> landed = new ArrayList<>();
      for (Map.Entry<String, List<Link>> c : chains.entrySet()) {
        String key = c.getKey();
        GraphWrite.TableEffect first = c.getValue().get(0).effect();
        TableSnapshot at = first.snapshot();
        for (int j = 0; j < c.getValue().size(); j++) {
          Link link = c.getValue().get(j);
          TableSnapshot next;
          try {
            Failpoints.hit(Failpoints.TABLE_COMMIT_BEFORE);
            StagedWrite staged = j == 0 ? link.effect().staged()
                : StagedRebase.rebase(link.effect().staged(), at, uuids.get(key).get(j));
            next = w.tables().writer().commitStagedAndOpen(at, staged);
          } catch (RetryableCommitConflict e) {
            if (landed.isEmpty()) {
              // Nothing of the batch landed: withdraw the intent; each member commits alone.
              sidecar.retire();
              List<Result> out = new ArrayList<>();
              members.forEach(m -> out.add(new Result(null, null, true)));
              return out;
            }
            throw GraphWrite.partial(operation, landed, key, e);
          } catch (RuntimeException e) {
            if (landed.isEmpty() && e instanceof OmnigraphException && unmoved(w, first)) {
              sidecar.retire();
              throw e;
            }
            if (e instanceof RecoveryRequiredException r) {
              throw r;
            }
            landed.add(key + "@" + (first.published().version() + j + 1) + "?");
            throw GraphWrite.partial(operation, landed, key, e);
          }
          // Handles the batch opened (not the member's own staged snapshot) are closed as it moves on.
          if (at != first.snapshot()) {
            at.close();
          }
          at = next;
          landed.add(key + "@" + next.version());
          try {
            Failpoints.hit(Failpoints.TABLE_COMMIT_AFTER);
            produced.get(link.member()).put(key, new long[] {next.version(), w.tables().reader().countRows(next)});
          } catch (RuntimeException e) {
            next.close();
            throw e instanceof RecoveryRequiredException r ? r : GraphWrite.partial(operation, landed, key, e);
          }
        }
        fragments.put(key, w.tables().reader().fragmentCount(at));
        w.tables().reader().keep(at); // main: the next write on this table stages against exactly this version
      }
      ManifestPublisher.PublishRequest request = request(members, produced, chains, group, expected, head,
          tableBranch);
      List<ManifestPublisher.TableUpdate> finals = request.updates();
      Map<String, Long> phases = new LinkedHashMap<>();
      long tSync = System.nanoTime();
      phases.put("commit", tSync - t0);
      try {
        w.publisher().makeDurable(finals, expected);
        sidecar.confirm(GraphWrite.confirmedTables(finals));
      } catch (OmnigraphException | IllegalArgumentException e) {
        throw GraphWrite.partial(operation, landed, "making the batch durable and confirming it", e);
      }
      long t1 = System.nanoTime();
      phases.put("sync", t1 - tSync);
      ManifestState state;
      try {
        Failpoints.hit(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH);
        state = w.publisher().publish(request, fresh, ahead.take());
      } catch (OmnigraphException e) {
        throw new RecoveryRequiredException("recovery required for operation " + operation + ": the group commit's"
            + " tables were committed but its " + members.size() + " commits were not published (" + e.getMessage()
            + "); the confirmed sidecar " + RecoverySidecar.path(operation) + " lets the next write or open publish them",
            new ErrorDetail.RecoveryRequired(operation), e);
      }
      phases.put("publish", System.nanoTime() - t1);
      sidecar.retirePublished();
      List<Result> out = new ArrayList<>();
      for (int i = 0; i < members.size(); i++) {
        Map<String, Long> versions = new LinkedHashMap<>();
        Map<String, Integer> frags = new TreeMap<>();
        for (Map.Entry<String, long[]> p : produced.get(i).entrySet()) {
          versions.put(p.getKey(), p.getValue()[0]);
          frags.put(p.getKey(), fragments.get(p.getKey()));
        }
        GraphWrite.Outcome outcome = new GraphWrite.Outcome(group.get(i).graphCommitId(), state, versions, phases,
            manifestFragments, frags);
        w.authority().published(members.get(i), outcome);
        out.add(new Result(outcome, null, false));
      }
      return out;
    }
  }

  /**
   * Each member's predicted version and row count per table it touches, as {@code produced} holds
   * the real ones: link j of a chain at the published version + j + 1, its rows predicted from the
   * link before.
   *
   * @return the prediction, or {@code null} when a link's row count is not predicted from its operation
   */
  private static List<Map<String, long[]>> predict(List<GraphWrite.Intent> members, Map<String, List<Link>> chains) {
    List<Map<String, long[]>> out = new ArrayList<>();
    members.forEach(m -> out.add(new LinkedHashMap<>()));
    for (Map.Entry<String, List<Link>> c : chains.entrySet()) {
      GraphWrite.TableEffect first = c.getValue().get(0).effect();
      long rows = first.published().rowCount();
      for (int j = 0; j < c.getValue().size(); j++) {
        Link link = c.getValue().get(j);
        OptionalLong after = PublishAhead.rowsAfter(link.effect().staged(), rows, first.snapshot());
        if (after.isEmpty()) {
          return null;
        }
        rows = after.getAsLong();
        out.get(link.member()).put(c.getKey(), new long[] {first.published().version() + j + 1, rows});
      }
    }
    return out;
  }

  /**
   * The batch's publish: each member before the last a {@link ManifestPublisher.GroupStep} of the
   * versions it produced, the last member's commit with every table's final version. Built the same
   * way from the predicted and from the real versions, so the two are equal exactly when every
   * prediction held.
   */
  private static ManifestPublisher.PublishRequest request(List<GraphWrite.Intent> members,
      List<Map<String, long[]>> produced, Map<String, List<Link>> chains, List<RecoverySidecar.GroupMember> group,
      Map<String, Long> expected, Optional<String> head, String tableBranch) {
    List<ManifestPublisher.TableUpdate> finals = new ArrayList<>();
    for (Map.Entry<String, List<Link>> c : chains.entrySet()) {
      GraphWrite.TableEffect first = c.getValue().get(0).effect();
      long[] last = produced.get(c.getValue().get(c.getValue().size() - 1).member()).get(c.getKey());
      finals.add(new ManifestPublisher.TableUpdate(identity(first), c.getKey(), last[0], last[1],
          first.snapshot().location().uri(), tableBranch));
    }
    List<ManifestPublisher.GroupStep> steps = new ArrayList<>();
    for (int i = 0; i < members.size() - 1; i++) {
      steps.add(new ManifestPublisher.GroupStep(lineage(group.get(i)), updates(members.get(i), produced.get(i),
          tableBranch)));
    }
    return ManifestPublisher.PublishRequest.group(GraphBranch.MAIN, finals, expected, head, steps,
        lineage(group.get(group.size() - 1)));
  }

  private static boolean unmoved(GraphWrite w, GraphWrite.TableEffect first) {
    try {
      return w.tables().reader().latestVersion(first.snapshot()) == first.published().version();
    } catch (OmnigraphException probe) {
      return false;
    }
  }

  private static List<ManifestPublisher.TableUpdate> updates(GraphWrite.Intent member, Map<String, long[]> produced,
      String tableBranch) {
    List<ManifestPublisher.TableUpdate> out = new ArrayList<>();
    for (GraphWrite.TableEffect e : member.effects()) {
      long[] v = produced.get(e.spec().tableKey());
      out.add(new ManifestPublisher.TableUpdate(identity(e), e.spec().tableKey(), v[0], v[1],
          e.snapshot().location().uri(), tableBranch));
    }
    return out;
  }

  private static ManifestPublisher.LineageIntent lineage(RecoverySidecar.GroupMember m) {
    return new ManifestPublisher.LineageIntent(m.graphCommitId(), m.actorId(), m.message(), m.createdAtMicros());
  }

  private static TableIdentity identity(GraphWrite.TableEffect e) {
    return new TableIdentity(e.spec().stableTableId(), e.spec().tableIncarnationId());
  }
}
