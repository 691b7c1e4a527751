package io.omnigraph.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.lance.LanceSmoke;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lance writes and reads a dataset on local disk using only what {@link StorageAdapter#lanceLocation}
 * returns: the {@code file:} URI of the path under the root and no storage options. The root's
 * name has a space and a literal {@code %41}, so the URI is percent-encoded ({@code %20},
 * {@code %2541}) and Lance must decode it exactly once to reach the directory the adapter uses. Runs on the class path (its own Surefire execution):
 * Lance's jars are not modules.
 */
class FsLanceSmokeTest {
  static {
    LanceSmoke.tmpDir(); // @TempDir lives in java.io.tmpdir, a folder under target/ that may not exist yet
  }

  @TempDir Path dir;

  @Test
  void lanceWritesReopensAndReadsBackAThousandRowsThroughTheAdaptersLocation() throws Exception {
    Path root = Files.createDirectory(dir.resolve("graph root %41"));
    try (StorageAdapter adapter = StorageAdapters.open(root.toUri(), Map.of())) {
      LanceLocation loc = adapter.lanceLocation("tables/person.lance");
      assertThat(loc.uri()).isEqualTo(root.resolve("tables/person.lance").toUri().toString()).contains("graph%20root%20%2541");
      assertThat(loc.storageOptions()).isEmpty();

      assertThat(LanceSmoke.write(loc)).isEqualTo(LanceSmoke.ROWS);

      // Lance's files are in the adapter's directory, visible through the adapter.
      assertThat(root.resolve("tables/person.lance/_versions")).isDirectory();
      assertThat(adapter.list("tables/person.lance/_versions").toList()).isNotEmpty();
      assertThat(adapter.list("tables/person.lance/data").toList()).isNotEmpty();

      LanceSmoke.ReadBack back = LanceSmoke.reopenAndRead(loc);
      assertThat(back.version()).isEqualTo(1);
      assertThat(back.countRows()).isEqualTo(LanceSmoke.ROWS);
      assertThat(back.rows()).containsExactlyInAnyOrderElementsOf(LanceSmoke.expectedRows());
    }
  }
}
