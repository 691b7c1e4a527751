package io.omnigraph.contract;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.client.HttpGraph;
import io.omnigraph.conformance.graph.GraphContract;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.server.OmnigraphServer;
import io.omnigraph.server.Tokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/**
 * The graph contract bound to {@link HttpGraph} against a live server on 127.0.0.1 (one server per
 * graph, any free port, stopped after each test). The actor comes from the bearer token.
 */
class HttpGraphContractTest extends GraphContract {
  private final List<AutoCloseable> resources = new ArrayList<>();
  private int n;

  @Override
  protected Graph createGraph(String schema) {
    return createGraph(schema, OpenOptions.defaults());
  }

  @Override
  protected Graph createGraph(String schema, OpenOptions options) {
    Graph embedded = Omnigraph.init(tmp.resolve("g" + (n++)).toString(), schema, options);
    resources.add(embedded);
    OmnigraphServer server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("lib", embedded)
        .tokens(Tokens.of(Map.of(actor(), "token-of-alice", "bob", "token-of-bob"))).start();
    resources.add(server);
    return HttpGraph.connect(server.uri(), "lib", "token-of-alice");
  }

  /** The server runs in this JVM, so the engine's failpoint is armed here too. */
  @Override
  protected AutoCloseable failAutomaticMaintenance() {
    return Failpoints.arm(Failpoints.OPTIMIZE_POST_TABLE_EFFECT, new FailAction.Error());
  }

  @Override
  protected String actor() {
    return "alice";
  }

  @AfterEach
  void stopServers() throws Exception {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
    resources.clear();
  }
}
