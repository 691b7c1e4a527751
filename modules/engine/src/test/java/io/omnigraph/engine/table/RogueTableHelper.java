package io.omnigraph.engine.table;

import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Transaction;

/** Deliberately violates the TableStore guard from inside table/: only TableWriter may write. Never called. */
final class RogueTableHelper {
  private RogueTableHelper() {}

  static Dataset commitBehindTheStoresBack(Dataset ds, Transaction tx) {
    return new CommitBuilder(ds).maxRetries(3).execute(tx);
  }
}
