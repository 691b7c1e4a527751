package io.omnigraph.engine.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.UnsupportedStorageVersionException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher.LineageIntent;
import io.omnigraph.engine.manifest.ManifestPublisher.PublishRequest;
import io.omnigraph.engine.manifest.ManifestPublisher.TableUpdate;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestPublisherTest {
  static final TableIdentity PERSON = new TableIdentity(1, 2);
  static final TableIdentity KNOWS = new TableIdentity(3, 4);

  @TempDir Path dir;
  TableStore tables;
  ManifestStore store;

  @BeforeEach
  void setUp() {
    tables = new TableStore();
    store = new ManifestStore(tables, new LanceLocation(dir.resolve("__manifest").toUri().toString(), Map.of()));
  }

  @AfterEach
  void tearDown() {
    tables.close();
  }

  ManifestState genesis() {
    return store.createGenesis(List.of(
        new ManifestStore.GenesisTable(PERSON, "node:Person", 1, "file:///x/nodes/p"),
        new ManifestStore.GenesisTable(KNOWS, "edge:Knows", 1, "file:///x/edges/k")), "GENESIS", 10);
  }

  /** A full scan of the latest manifest version, never served from the store's cache. */
  ManifestState read() {
    try (TableSnapshot s = store.openLatest()) {
      return store.scan(s);
    }
  }

  static PublishRequest personTo(long from, long to, Optional<String> head, String commit) {
    return new PublishRequest(GraphBranch.MAIN, List.of(new TableUpdate(PERSON, "node:Person", to, 7, "file:///x/nodes/p")),
        Map.of("node:Person", from), head, new LineageIntent(commit, "alice", "load people", 20));
  }

  @Test
  void genesisRegistersEveryTableAndTheGenesisCommitAtManifestVersion1() {
    ManifestState s = genesis();
    assertThat(s.manifestVersion()).isEqualTo(1);
    assertThat(s.tables()).containsOnlyKeys("edge:Knows", "node:Person");
    assertThat(s.tables().get("node:Person").path()).isEqualTo("nodes/0000000000000001-0000000000000002");
    assertThat(s.graphHeads()).containsExactlyEntriesOf(Map.of("main", "GENESIS"));
    assertThat(s.head(GraphBranch.MAIN).orElseThrow().parentCommitId()).isNull();
    assertThat(read()).isEqualTo(s);
  }

  @Test
  void publishRecordsOneCommitWithParentActorMessageAndPins() {
    genesis();
    ManifestState after = new ManifestPublisher(tables, store).publish(personTo(1, 2, Optional.of("GENESIS"), "C1"));
    assertThat(after.manifestVersion()).isEqualTo(2);
    ManifestState reread = read();
    assertThat(reread).isEqualTo(after);
    GraphCommit c = reread.head(GraphBranch.MAIN).orElseThrow();
    assertThat(c.commitId()).isEqualTo("C1");
    assertThat(c.parentCommitId()).isEqualTo("GENESIS");
    assertThat(c.actorId()).isEqualTo("alice");
    assertThat(c.message()).isEqualTo("load people");
    assertThat(c.manifestVersion()).isEqualTo(2);
    assertThat(c.tableVersions()).containsExactlyInAnyOrderEntriesOf(Map.of("node:Person", 2L, "edge:Knows", 1L));
    assertThat(reread.table("node:Person").orElseThrow().version()).isEqualTo(2);
    assertThat(reread.table("node:Person").orElseThrow().rowCount()).isEqualTo(7);
  }

  static TableUpdate person(long v, long rows) {
    return new TableUpdate(PERSON, "node:Person", v, rows, "file:///x/nodes/p");
  }

  static TableUpdate knows(long v, long rows) {
    return new TableUpdate(KNOWS, "edge:Knows", v, rows, "file:///x/edges/k");
  }

  @Test
  void aGroupPublishRecordsOneCommitPerMemberEachPinningTheTablesAsOfThatMember() {
    genesis();
    PublishRequest group = PublishRequest.group(GraphBranch.MAIN, List.of(person(3, 9), knows(2, 4)),
        Map.of("node:Person", 1L, "edge:Knows", 1L), Optional.of("GENESIS"), List.of(
            new ManifestPublisher.GroupStep(new LineageIntent("M1", "a", "first", 21), List.of(person(2, 8))),
            new ManifestPublisher.GroupStep(new LineageIntent("M2", "b", "second", 22), List.of(knows(2, 4)))),
        new LineageIntent("M3", "c", "third", 23));
    ManifestState after = new ManifestPublisher(tables, store).publish(group);
    ManifestState reread = read();
    assertThat(reread).isEqualTo(after);
    assertThat(reread.manifestVersion()).isEqualTo(2);
    assertThat(reread.graphHeads()).containsEntry("main", "M3");
    GraphCommit m1 = reread.commit("M1").orElseThrow();
    GraphCommit m2 = reread.commit("M2").orElseThrow();
    GraphCommit m3 = reread.commit("M3").orElseThrow();
    assertThat(List.of(m1.parentCommitId(), m2.parentCommitId(), m3.parentCommitId()))
        .containsExactly("GENESIS", "M1", "M2");
    assertThat(m1.tableVersions()).containsExactlyInAnyOrderEntriesOf(Map.of("node:Person", 2L, "edge:Knows", 1L));
    assertThat(m2.tableVersions()).containsExactlyInAnyOrderEntriesOf(Map.of("node:Person", 2L, "edge:Knows", 2L));
    assertThat(m3.tableVersions()).containsExactlyInAnyOrderEntriesOf(Map.of("node:Person", 3L, "edge:Knows", 2L));
    assertThat(List.of(m1.actorId(), m2.message(), m3.actorId())).containsExactly("a", "second", "c");
    assertThat(reread.head(GraphBranch.MAIN).orElseThrow().commitId()).isEqualTo("M3");
    assertThat(reread.table("node:Person").orElseThrow().version()).isEqualTo(3);
    assertThat(reread.table("node:Person").orElseThrow().rowCount()).isEqualTo(9);
    assertThat(reread.supersededAtItsVersion(m1)).isTrue();
    assertThat(reread.supersededAtItsVersion(m2)).isTrue();
    assertThat(reread.supersededAtItsVersion(m3)).isFalse();
    // As of M1: Person at its version 2 with that version's row count, Knows untouched, M2/M3 not yet there.
    ManifestState asOfM1 = store.readAsOf(GraphBranch.MAIN, 2, m1);
    assertThat(asOfM1.table("node:Person").orElseThrow().version()).isEqualTo(2);
    assertThat(asOfM1.table("node:Person").orElseThrow().rowCount()).isEqualTo(8);
    assertThat(asOfM1.table("edge:Knows").orElseThrow().version()).isEqualTo(1);
    assertThat(asOfM1.graphHeads()).containsEntry("main", "M1");
    assertThat(asOfM1.commit("M2")).isEmpty();
    assertThat(asOfM1.head(GraphBranch.MAIN).orElseThrow().commitId()).isEqualTo("M1");
    ManifestState asOfM2 = store.readAsOf(GraphBranch.MAIN, 2, m2);
    assertThat(asOfM2.table("edge:Knows").orElseThrow().version()).isEqualTo(2);
    assertThat(asOfM2.table("node:Person").orElseThrow().version()).isEqualTo(2);
    assertThat(asOfM2.commit("M3")).isEmpty();
    // The next ordinary publish parents on the group's last member.
    ManifestState next = new ManifestPublisher(tables, store).publish(personTo(3, 4, Optional.of("M3"), "C4"));
    assertThat(next.head(GraphBranch.MAIN).orElseThrow().parentCommitId()).isEqualTo("M3");
  }

  @Test
  void aGroupPublishRefusesAChainOutOfOrder() {
    assertThatThrownBy(() -> PublishRequest.group(GraphBranch.MAIN, List.of(person(2, 9)),
        Map.of("node:Person", 1L), Optional.empty(), List.of(
            new ManifestPublisher.GroupStep(new LineageIntent("M1", null, null, 21), List.of(person(3, 8)))),
        new LineageIntent("M2", null, null, 22))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PublishRequest.group(GraphBranch.MAIN, List.of(person(3, 9)),
        Map.of("node:Person", 1L), Optional.empty(), List.of(
            new ManifestPublisher.GroupStep(new LineageIntent("M1", null, null, 22), List.of(person(2, 8)))),
        new LineageIntent("M2", null, null, 22))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aMovedTableVersionIsAPublishedVersionConflict() {
    genesis();
    new ManifestPublisher(tables, store).publish(personTo(1, 2, Optional.empty(), "C1"));
    assertThatThrownBy(() -> new ManifestPublisher(tables, store).publish(personTo(1, 3, Optional.empty(), "C2")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.PublishedVersionConflict("node", "Person", 1, 2)));
    assertThat(read().manifestVersion()).isEqualTo(2);
  }

  @Test
  void aMovedHeadIsAReadSetConflict() {
    genesis();
    new ManifestPublisher(tables, store).publish(personTo(1, 2, Optional.of("GENESIS"), "C1"));
    assertThatThrownBy(() -> new ManifestPublisher(tables, store).publish(
        new PublishRequest(GraphBranch.MAIN, List.of(), Map.of(), Optional.of("GENESIS"), new LineageIntent("C2", null, null, 30))))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.ReadSetConflict("graph_head:main", "GENESIS", "C1")));
  }

  @Test
  void aLostRaceRescansAndRetriesWhenNothingItCheckedMoved() {
    genesis();
    ManifestPublisher racer = new ManifestPublisher(tables, store);
    AtomicInteger attempts = new AtomicInteger();
    racer.beforeMerge = () -> {
      if (attempts.getAndIncrement() == 0) {
        // Another writer publishes an unrelated commit between this attempt's scan and its merge.
        new ManifestPublisher(tables, store).publish(new PublishRequest(GraphBranch.MAIN, List.of(), Map.of(), Optional.empty(),
            new LineageIntent("OTHER", null, null, 15)));
      }
    };
    ManifestState after = racer.publish(personTo(1, 2, Optional.empty(), "C1"));
    assertThat(attempts.get()).isEqualTo(2);
    assertThat(after.manifestVersion()).isEqualTo(3);
    assertThat(read().head(GraphBranch.MAIN).orElseThrow().parentCommitId()).isEqualTo("OTHER");
  }

  @Test
  void aLostRaceWithAnExpectedHeadIsTerminalOnTheRescan() {
    genesis();
    ManifestPublisher racer = new ManifestPublisher(tables, store);
    AtomicInteger attempts = new AtomicInteger();
    racer.beforeMerge = () -> {
      if (attempts.getAndIncrement() == 0) {
        new ManifestPublisher(tables, store).publish(new PublishRequest(GraphBranch.MAIN, List.of(), Map.of(), Optional.empty(),
            new LineageIntent("OTHER", null, null, 15)));
      }
    };
    assertThatThrownBy(() -> racer.publish(personTo(1, 2, Optional.of("GENESIS"), "C1")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.ReadSetConflict("graph_head:main", "GENESIS", "OTHER")));
    assertThat(attempts.get()).isEqualTo(1);
  }

  @Test
  void theRetryBudgetIsFiveRetries() {
    genesis();
    ManifestPublisher racer = new ManifestPublisher(tables, store);
    AtomicInteger attempts = new AtomicInteger();
    racer.beforeMerge = () -> new ManifestPublisher(tables, store).publish(new PublishRequest(GraphBranch.MAIN, List.of(), Map.of(),
        Optional.empty(), new LineageIntent("OTHER" + attempts.incrementAndGet(), null, null, 15)));
    assertThatThrownBy(() -> racer.publish(personTo(1, 2, Optional.empty(), "C1")))
        .isInstanceOf(ConflictException.class).hasMessageContaining("exhausted 5 retries");
    assertThat(attempts.get()).isEqualTo(6);
  }

  @Test
  void stampsOtherThan6AreRefusedNamingFoundAndExpected() {
    for (String stamp : List.of("5", "7", "six")) {
      LanceLocation loc = new LanceLocation(dir.resolve("m" + stamp).toUri().toString(), Map.of());
      ManifestStore forged = new ManifestStore(tables, loc);
      forged.writeGenesis(List.of(), "G", 1, stamp);
      assertThatThrownBy(forged::openLatest)
          .isInstanceOfSatisfying(UnsupportedStorageVersionException.class, e -> {
            assertThat(e.detail()).contains(new ErrorDetail.UnsupportedStamp(stamp, 6));
            assertThat(e.getMessage()).contains(stamp).contains("6");
          });
    }
    assertThatThrownBy(() -> ManifestStore.guardStamp(Map.of("omnigraph:internal_schema_version", "5")))
        .hasMessageContaining("rebuild").hasMessageContaining("export");
    assertThatThrownBy(() -> ManifestStore.guardStamp(Map.of("omnigraph:internal_schema_version", "7")))
        .hasMessageContaining("upgrade omnigraph");
    assertThatThrownBy(() -> ManifestStore.guardStamp(Map.of())).isInstanceOf(UnsupportedStorageVersionException.class)
        .hasMessageContaining("no internal storage version stamp");
  }

  @Test
  void aMissingManifestIsNotFound() {
    assertThatThrownBy(() -> store.openLatest()).isInstanceOf(NotFoundException.class);
  }

  @Test
  void versionMetadataUsesV2ManifestNaming() {
    assertThat(ManifestStore.versionMetadata("file:///t", 1)).contains("/_versions/18446744073709551614.manifest");
  }

  @Test
  void everyPublishedFoldEqualsAScanOfTheVersionItLandedAt() {
    genesis();
    ManifestPublisher publisher = new ManifestPublisher(tables, store);
    ManifestState a = publisher.publish(personTo(1, 2, Optional.of("GENESIS"), "C1"));
    assertThat(read()).isEqualTo(a);
    ManifestState b = publisher.publish(new PublishRequest(GraphBranch.MAIN, List.of(
        new TableUpdate(PERSON, "node:Person", 3, 9, "file:///x/nodes/p"),
        new TableUpdate(KNOWS, "edge:Knows", 2, 4, "file:///x/edges/k")),
        Map.of("node:Person", 2L, "edge:Knows", 1L), Optional.of("C1"), new LineageIntent("C2", null, "two tables", 30)));
    assertThat(read()).isEqualTo(b);
    ManifestState c = publisher.publish(new PublishRequest(GraphBranch.MAIN, List.of(), Map.of(), Optional.of("C2"),
        new LineageIntent("C3", "bob", null, 40)));
    assertThat(read()).isEqualTo(c);
    assertThat(c.commits()).extracting(GraphCommit::commitId).containsExactly("GENESIS", "C1", "C2", "C3");
  }

  @Test
  void aVersionPublishedThroughAnotherStoreIsScannedNotServedFromTheCache() {
    genesis();
    ManifestStore other = new ManifestStore(tables, store.location());
    try (TableSnapshot s = store.openLatest()) {
      assertThat(store.read(s).manifestVersion()).isEqualTo(1);
    }
    new ManifestPublisher(tables, other).publish(personTo(1, 2, Optional.of("GENESIS"), "C1"));
    try (TableSnapshot s = store.openLatest()) {
      ManifestState seen = store.read(s);
      assertThat(seen.manifestVersion()).isEqualTo(2);
      assertThat(seen.graphHeads()).containsEntry("main", "C1");
      assertThat(seen).isEqualTo(store.scan(s));
    }
  }

  @Test
  void aManifestRecreatedAtTheSameLocationIsNotMistakenForTheCachedOneOfTheSameVersion() throws Exception {
    genesis();
    try (TableSnapshot s = store.openLatest()) {
      assertThat(store.read(s).graphHeads()).containsEntry("main", "GENESIS");
    }
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir.resolve("__manifest"))) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(f);
      }
    }
    new ManifestStore(tables, store.location()).createGenesis(List.of(
        new ManifestStore.GenesisTable(PERSON, "node:Person", 1, "file:///x/nodes/p")), "REBORN", 11);
    try (TableSnapshot s = store.openLatest()) {
      assertThat(s.version()).isEqualTo(1);
      ManifestState seen = store.read(s);
      assertThat(seen.graphHeads()).containsEntry("main", "REBORN");
      assertThat(seen.tables()).containsOnlyKeys("node:Person");
    }
  }

  @Test
  void aFirstBaseThatWentStaleLosesItsMergeAndTheRetryChecksTheLatestVersion() {
    genesis();
    ManifestPublisher publisher = new ManifestPublisher(tables, store);
    try (ManifestPublisher.Base base = publisher.openBase()) {
      assertThat(base.state().graphHeads()).containsEntry("main", "GENESIS");
      new ManifestPublisher(tables, store).publish(personTo(1, 2, Optional.of("GENESIS"), "C1"));
      assertThatThrownBy(() -> publisher.publish(new PublishRequest(GraphBranch.MAIN, List.of(), Map.of(), Optional.of("GENESIS"),
          new LineageIntent("C2", null, null, 30)), base))
          .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
              new ErrorDetail.ReadSetConflict("graph_head:main", "GENESIS", "C1")));
    }
    assertThat(read().graphHeads()).containsEntry("main", "C1");
    assertThat(read().manifestVersion()).isEqualTo(2);
  }

  @Test
  void aCurrentFirstBaseIsPublishedOnWithoutReopening() {
    genesis();
    ManifestPublisher publisher = new ManifestPublisher(tables, store);
    try (ManifestPublisher.Base base = publisher.openBase()) {
      ManifestState after = publisher.publish(personTo(1, 2, Optional.of("GENESIS"), "C1"), base);
      assertThat(after.manifestVersion()).isEqualTo(base.snapshot().version() + 1);
      assertThat(read()).isEqualTo(after);
    }
  }
}
