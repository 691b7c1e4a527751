/**
 * The OmniGraph HTTP server (docs/server.md): graphs served by id under {@code /graphs/{id}}, bearer
 * tokens per actor, body and admission limits, typed JSON errors.
 *
 * <p>Requires only the public API; the engine and the storage adapters are found through
 * {@link java.util.ServiceLoader} by {@link io.omnigraph.api.Omnigraph}, as for any application.
 */
module io.omnigraph.server {
  requires transitive io.omnigraph.api;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires com.fasterxml.jackson.databind;

  exports io.omnigraph.server;
}
