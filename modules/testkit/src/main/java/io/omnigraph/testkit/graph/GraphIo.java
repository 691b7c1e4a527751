package io.omnigraph.testkit.graph;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Loads and exports through the public {@link Graph} API with NDJSON held in strings: the helpers
 * every graph test uses to put data in and read it back.
 */
public final class GraphIo {
  private GraphIo() {}

  /** Loads {@code ndjson} in {@code mode} with the default options. */
  public static LoadResult load(Graph g, LoadMode mode, String ndjson) {
    return load(g, mode, ndjson, LoadOptions.defaults());
  }

  /** Loads {@code ndjson} in {@code mode} with {@code options}. */
  public static LoadResult load(Graph g, LoadMode mode, String ndjson, LoadOptions options) {
    return g.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)), options);
  }

  /** @return the graph's export (NDJSON, UTF-8) */
  public static String export(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** @return the non-blank lines of {@code ndjson}, sorted (an export compared without its order) */
  public static List<String> sortedLines(String ndjson) {
    return Arrays.stream(ndjson.split("\n")).filter(l -> !l.isBlank()).sorted().toList();
  }

  /** @return the ids of the graph's commits, newest first */
  public static List<String> commitIds(Graph g) {
    return g.commits().stream().map(CommitInfo::id).toList();
  }
}
