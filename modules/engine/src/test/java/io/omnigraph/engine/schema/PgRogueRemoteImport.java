package io.omnigraph.engine.schema;

import java.net.URI;

/** Deliberately violates the front-end rule: a .pg front-end class opening a network address. Never called. */
public final class PgRogueRemoteImport {
  private PgRogueRemoteImport() {}

  static java.net.URL schemaAt(String address) throws java.net.MalformedURLException {
    return URI.create(address).toURL();
  }
}
