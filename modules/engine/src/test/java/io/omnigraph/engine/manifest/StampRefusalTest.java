package io.omnigraph.engine.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.UnsupportedStorageVersionException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.table.TableStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** A graph whose manifest carries another storage stamp is refused at open, naming found and expected. */
class StampRefusalTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "stamp {0}")
  @ValueSource(strings = {"5", "7"})
  void openRefusesAGraphStampedOtherThan6(String stamp) throws IOException {
    Path root = dir.resolve("g");
    Omnigraph.init(root.toString(), "node Person {\n  name: String @key\n}\n").close();
    // Forge the graph as an older/newer release would have written it: same tables, other stamp.
    List<ManifestStore.GenesisTable> tables;
    try (TableStore store = new TableStore()) {
      ManifestStore m = new ManifestStore(store, loc(root));
      ManifestState s;
      try (var snap = m.openLatest()) {
        s = m.read(snap);
      }
      tables = s.tables().values().stream().map(t -> new ManifestStore.GenesisTable(t.identity(), t.tableKey(),
          t.version(), root.resolve(t.path()).toUri().toString())).toList();
      deleteTree(root.resolve("__manifest"));
      m.writeGenesis(tables, "01JZ8Q3V7K2M4N6P8R0T2W4Y6A", 1, stamp);
    }
    assertThatThrownBy(() -> Omnigraph.open(root.toString()))
        .isInstanceOfSatisfying(UnsupportedStorageVersionException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED_STORAGE_VERSION);
          assertThat(e.detail()).contains(new ErrorDetail.UnsupportedStamp(stamp, 6));
          assertThat(e.getMessage()).contains("version " + stamp).contains("version 6");
          assertThat(e.getMessage()).contains(stamp.equals("5") ? "export" : "upgrade omnigraph");
        });
  }

  static LanceLocation loc(Path root) {
    return new LanceLocation(root.resolve("__manifest").toUri().toString(), Map.of());
  }

  static void deleteTree(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
