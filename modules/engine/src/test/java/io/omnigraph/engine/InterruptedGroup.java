package io.omnigraph.engine;

import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.load.ArrowRows;
import io.omnigraph.engine.load.GraphLoader;
import io.omnigraph.engine.load.TableRows;
import io.omnigraph.engine.load.ValidatedLoad;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.WriteIntent;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.table.KeyedWriteMode;
import io.omnigraph.engine.table.StagedRebase;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.KeyedWrites;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Drives one group commit (docs/concurrency.md, "Group commit") through the real primitives — each
 * member validated and staged as a strict insert against the same published version, the
 * {@code GroupCommit} sidecar armed, every table's chain committed in member order
 * ({@link StagedRebase} for each link after the first), the sidecar confirmed, the chain of member
 * commits published — and stops where a crash would, leaving the root as a dead process would.
 */
final class InterruptedGroup {
  /** Where the batch stops. */
  enum StopAt {
    /** Phase A done, no table committed. */
    AFTER_ARM,
    /** After the k-th table commit (chains in table order), sidecar Armed. */
    AFTER_COMMITS,
    /** Every chain committed, sidecar still Armed. */
    AFTER_ALL_COMMITS,
    /** Confirmed, not published. */
    AFTER_CONFIRM,
    /** Published; the sidecar was not retired. */
    AFTER_PUBLISH
  }

  final RecoverySidecar sidecar;
  final List<String> commitIds;
  /** Table commits the batch makes in all. */
  final int totalCommits;

  private InterruptedGroup(RecoverySidecar sidecar, List<String> commitIds, int totalCommits) {
    this.sidecar = sidecar;
    this.commitIds = commitIds;
    this.totalCommits = totalCommits;
  }

  private record Link(int member, StagedWrite staged) {}

  static InterruptedGroup run(LanceGraph graph, List<String> members, String actor, StopAt stop, int k) {
    TableStore tables = graph.tables();
    List<VectorSchemaRoot> open = new ArrayList<>();
    try (GraphSnapshot committed = graph.snapshots().resolve(GraphRef.main())) {
      ManifestState state = committed.manifest();
      Optional<String> head = Optional.ofNullable(state.graphHeads().get("main"));
      Map<String, List<Link>> chains = new LinkedHashMap<>();
      Map<String, TableSpec> specs = new TreeMap<>();
      List<RecoverySidecar.GroupMember> group = new ArrayList<>();
      long time = OmnigraphEngine.nowMicros();
      for (int i = 0; i < members.size(); i++) {
        ValidatedLoad validated;
        try {
          validated = new GraphLoader(committed.schema(), LoadMode.APPEND, committed)
              .load(new ByteArrayInputStream(members.get(i).getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        List<String> keys = new ArrayList<>();
        for (TableRows rows : validated.tables()) {
          TableSpec spec = rows.spec();
          List<VectorSchemaRoot> batches = ArrowRows.toBatches(rows, tables.allocator(), KeyedWrites.MAX_ROWS);
          open.addAll(batches);
          StagedWrite w = KeyedWrites.stage(tables.writer(), committed.table(spec.tableKey()), spec.tableKey(),
              batches.get(0), KeyedWriteMode.STRICT_INSERT);
          chains.computeIfAbsent(spec.tableKey(), x -> new ArrayList<>()).add(new Link(i, w));
          specs.put(spec.tableKey(), spec);
          keys.add(spec.tableKey());
        }
        group.add(new RecoverySidecar.GroupMember(Ulid.generate(), actor, "member " + i, time + i, keys));
      }
      // Pre-minted: link 0 of a chain commits the staged transaction as it is, every later link a re-based one.
      Map<String, List<String>> uuids = new LinkedHashMap<>();
      List<WriteIntent.PlannedChain> planned = new ArrayList<>();
      int total = 0;
      for (Map.Entry<String, List<Link>> c : chains.entrySet()) {
        List<String> ids = new ArrayList<>();
        for (int j = 0; j < c.getValue().size(); j++) {
          ids.add(j == 0 ? c.getValue().get(0).staged().uuid() : UUID.randomUUID().toString());
        }
        uuids.put(c.getKey(), ids);
        total += ids.size();
        TableSnapshot snap = committed.table(c.getKey());
        planned.add(new WriteIntent.PlannedChain(identity(specs.get(c.getKey())), c.getKey(), snap.location().uri(),
            committed.entry(c.getKey()).version(), ids, null));
      }
      List<String> commitIds = group.stream().map(RecoverySidecar.GroupMember::graphCommitId).toList();
      WriteIntent intent = WriteIntent.armGroup(graph.recovery().sidecars(), GraphBranch.MAIN, head,
          graph.recovery().schema(), group, planned);
      if (stop == StopAt.AFTER_ARM) {
        return new InterruptedGroup(intent.sidecar(), commitIds, total);
      }
      int done = 0;
      // Per table, per member touching it: the version and row count its link produced.
      Map<String, Map<Integer, long[]>> produced = new TreeMap<>();
      for (Map.Entry<String, List<Link>> c : chains.entrySet()) {
        TableSnapshot base = committed.table(c.getKey());
        TableSnapshot at = base;
        for (int j = 0; j < c.getValue().size(); j++) {
          Link link = c.getValue().get(j);
          StagedWrite w = j == 0 ? link.staged() : StagedRebase.rebase(link.staged(), at, uuids.get(c.getKey()).get(j));
          TableSnapshot next = tables.writer().commitStagedAndOpen(at, w);
          if (at != base) {
            at.close();
          }
          at = next;
          produced.computeIfAbsent(c.getKey(), x -> new TreeMap<>()).put(link.member(),
              new long[] {at.version(), tables.reader().countRows(at)});
          if (stop == StopAt.AFTER_COMMITS && ++done == k) {
            at.close();
            return new InterruptedGroup(intent.sidecar(), commitIds, total);
          }
        }
        at.close();
      }
      if (stop == StopAt.AFTER_ALL_COMMITS) {
        return new InterruptedGroup(intent.sidecar(), commitIds, total);
      }
      List<WriteIntent.ConfirmedTable> confirmed = new ArrayList<>();
      List<ManifestPublisher.TableUpdate> finals = new ArrayList<>();
      Map<String, Long> expected = new TreeMap<>();
      for (String key : chains.keySet()) {
        long[] last = ((TreeMap<Integer, long[]>) produced.get(key)).lastEntry().getValue();
        String uri = committed.table(key).location().uri();
        confirmed.add(new WriteIntent.ConfirmedTable(identity(specs.get(key)), last[0], last[1],
            ManifestStore.versionMetadata(uri, last[0])));
        finals.add(new ManifestPublisher.TableUpdate(identity(specs.get(key)), key, last[0], last[1], uri));
        expected.put(key, committed.entry(key).version());
      }
      intent.confirm(confirmed);
      if (stop == StopAt.AFTER_CONFIRM) {
        return new InterruptedGroup(intent.sidecar(), commitIds, total);
      }
      List<ManifestPublisher.GroupStep> steps = new ArrayList<>();
      for (int i = 0; i < group.size() - 1; i++) {
        RecoverySidecar.GroupMember m = group.get(i);
        List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
        for (String key : m.tableKeys()) {
          long[] v = produced.get(key).get(i);
          updates.add(new ManifestPublisher.TableUpdate(identity(specs.get(key)), key, v[0], v[1],
              committed.table(key).location().uri()));
        }
        steps.add(new ManifestPublisher.GroupStep(new ManifestPublisher.LineageIntent(m.graphCommitId(), m.actorId(),
            m.message(), m.createdAtMicros()), updates));
      }
      RecoverySidecar.GroupMember last = group.get(group.size() - 1);
      graph.publisher().publish(ManifestPublisher.PublishRequest.group(GraphBranch.MAIN, finals, expected, head, steps,
          new ManifestPublisher.LineageIntent(last.graphCommitId(), last.actorId(), last.message(),
              last.createdAtMicros())));
      return new InterruptedGroup(intent.sidecar(), commitIds, total);
    } finally {
      for (VectorSchemaRoot r : open) {
        r.close();
      }
    }
  }

  static TableIdentity identity(TableSpec spec) {
    return new TableIdentity(spec.stableTableId(), spec.tableIncarnationId());
  }
}
