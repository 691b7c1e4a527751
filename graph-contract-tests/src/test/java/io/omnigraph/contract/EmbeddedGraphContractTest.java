package io.omnigraph.contract;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.conformance.graph.GraphContract;

/** The graph contract bound to the embedded engine. */
class EmbeddedGraphContractTest extends GraphContract {
  private int n;

  @Override
  protected Graph createGraph(String schema) {
    return Omnigraph.init(tmp.resolve("g" + (n++)).toString(), schema);
  }

  @Override
  protected String actor() {
    return "alice";
  }
}
