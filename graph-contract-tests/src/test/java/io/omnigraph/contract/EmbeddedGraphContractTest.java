package io.omnigraph.contract;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.conformance.graph.GraphContract;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;

/** The graph contract bound to the embedded engine. */
class EmbeddedGraphContractTest extends GraphContract {
  private int n;

  @Override
  protected Graph createGraph(String schema) {
    return Omnigraph.init(tmp.resolve("g" + (n++)).toString(), schema);
  }

  @Override
  protected Graph createGraph(String schema, OpenOptions options) {
    return Omnigraph.init(tmp.resolve("g" + (n++)).toString(), schema, options);
  }

  @Override
  protected AutoCloseable failAutomaticMaintenance() {
    return Failpoints.arm(Failpoints.OPTIMIZE_POST_TABLE_EFFECT, new FailAction.Error());
  }

  @Override
  protected String actor() {
    return "alice";
  }
}
