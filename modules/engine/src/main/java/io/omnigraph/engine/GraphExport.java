package io.omnigraph.engine;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.manifest.ManifestState;
import java.io.OutputStream;

/** One {@link io.omnigraph.api.Graph#export} call. Wired to the NDJSON writer when it lands. */
final class GraphExport {
  private final LanceGraph graph;
  private final ManifestState state;

  GraphExport(LanceGraph graph, ManifestState state) {
    this.graph = graph;
    this.state = state;
  }

  void writeTo(OutputStream out) {
    throw new InternalErrorException("export is not available in this build yet: the NDJSON writer is not wired ("
        + graph.uri() + " at manifest version " + state.manifestVersion() + ")", null);
  }
}
