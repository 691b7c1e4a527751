/**
 * The OmniGraph HTTP client: {@link io.omnigraph.client.HttpGraph} implements {@link io.omnigraph.api.Graph}
 * over the OmniGraph server (docs/server.md), so an application moves between an embedded graph and a
 * served one by changing the line that opens it. Uses {@code java.net.http}.
 */
module io.omnigraph.client {
  requires transitive io.omnigraph.api;
  requires java.net.http;
  requires com.fasterxml.jackson.databind;

  exports io.omnigraph.client;
}
