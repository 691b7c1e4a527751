package io.omnigraph.engine.archfixture;

import org.lance.ipc.ScanOptions;

/** Deliberately violates the one-filter-renderer rule: it hands Lance a hand-built filter string. Never called. */
public final class RogueFilterScan {
  private RogueFilterScan() {}

  static ScanOptions byId(String id) {
    return new ScanOptions.Builder().filter("id = '" + id + "'").build();
  }
}
