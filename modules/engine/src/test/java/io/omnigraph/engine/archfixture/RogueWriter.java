package io.omnigraph.engine.archfixture;

import org.lance.Dataset;

/** Deliberately violates the TableStore guard: a non-table class writing through Lance. Never called. */
public final class RogueWriter {
  private RogueWriter() {}

  static void deleteEverything(Dataset ds) {
    ds.delete("true");
  }
}
