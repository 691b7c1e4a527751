package io.omnigraph.engine;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import java.io.InputStream;

/** One {@link io.omnigraph.api.Graph#load} call. Wired to the NDJSON loader when it lands. */
final class GraphLoad {
  private final LanceGraph graph;
  private final LoadMode mode;
  private final LoadOptions options;

  GraphLoad(LanceGraph graph, LoadMode mode, LoadOptions options) {
    this.graph = graph;
    this.mode = mode;
    this.options = options;
  }

  LoadResult run(InputStream in) {
    throw new InternalErrorException("load is not available in this build yet: the NDJSON loader is not wired ("
        + mode.wireName() + " into " + graph.uri() + ", actor " + options.actor() + ")", null);
  }
}
