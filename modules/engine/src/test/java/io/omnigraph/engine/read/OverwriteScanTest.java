package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filtered read after an overwrite load, by the handle that read the table before the overwrite
 * and by a fresh one. Lance's Overwrite renumbers fragments from 0 and its session caches row-id
 * data by fragment id, so before the fix every filtered scan of the new version failed with "all
 * columns in a record batch must have the same length" (docs/write-protocol.md, "Overwrite and
 * fragment ids").
 */
class OverwriteScanTest {
  @TempDir Path dir;

  @Test
  void filteredScanAfterAnOverwriteSeesTheNewRows() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), "node Na { k: String @key  p: I64? }")) {
      GraphIo.load(g, LoadMode.APPEND, "{\"type\":\"Na\",\"data\":{\"k\":\"a\",\"p\":1}}\n");
      assertThat(ReadFixture.rows(g, "query q() { match { $v: Na } return { $v.k } }")).containsExactly("{\"v.k\":\"a\"}");
      GraphIo.load(g, LoadMode.OVERWRITE, "{\"type\":\"Na\",\"data\":{\"k\":\"a\",\"p\":1}}\n{\"type\":\"Na\",\"data\":{\"k\":\"b\"}}\n");
      try (Graph fresh = Omnigraph.open(dir.resolve("g").toString())) {
        assertThat(ReadFixture.rows(fresh, "query q() { match { $v: Na { p: 1 } } return { $v.k } }")).containsExactly("{\"v.k\":\"a\"}");
      }
      assertThat(ReadFixture.rows(g, "query q() { match { $v: Na { p: 1 } } return { $v.k } }")).containsExactly("{\"v.k\":\"a\"}");
    }
  }
}
