package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.storage.CommitDurability;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On local disk, making a write durable lists the files of the table version it committed and of
 * the {@code __manifest} version it published (docs/write-protocol.md, "Durability"); that listing
 * uses the handles the write kept for the next write (table/KeptDatasets) and keeps them again, so
 * the next write stages and revalidates without opening either version again.
 */
class DurableKeptHandlesTest {
  @TempDir Path dir;

  @Test
  void aDurableWriteLeavesTheVersionsItCommittedAndPublishedKept() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA)) {
      LanceGraph lg = (LanceGraph) g;
      GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("warm", 1));
      long syncs = CommitDurability.totalSyncCalls();
      GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person("one", 2));
      assertThat(CommitDurability.totalSyncCalls()).as("the write was made durable (the path under test)")
          .isGreaterThan(syncs);
      TableReader reader = lg.tables().reader();
      LanceLocation manifest = lg.manifest().location();
      LanceLocation person;
      long personVersion;
      long manifestVersion;
      // Read the published state with a fresh open (openLatest never hands out a kept handle).
      try (TableSnapshot m = reader.openLatest(manifest)) {
        manifestVersion = m.version();
        ManifestState state = lg.manifest().read(m);
        TableEntry e = state.table("node:Person").orElseThrow();
        person = lg.root().lance(e.path());
        personVersion = e.version();
      }
      assertKept(reader, person, personVersion, "the node:Person version the write committed");
      assertKept(reader, manifest, manifestVersion, "the __manifest version the write published");
    }
  }

  private static void assertKept(TableReader reader, LanceLocation location, long version, String what) {
    Optional<TableSnapshot> kept = reader.takeKept(location);
    try {
      assertThat(kept).as(what + " is kept after it was made durable").isPresent();
      assertThat(kept.get().version()).as(what).isEqualTo(version);
    } finally {
      kept.ifPresent(TableSnapshot::close);
    }
  }
}
