package io.omnigraph.engine.table;

/**
 * Internal signal: Lance refused a commit because another writer committed first, and nothing of
 * this transaction landed. Callers that may safely re-prepare (the manifest publisher, upserts)
 * catch it; it must never escape the engine (it is mapped to a public conflict first).
 */
public final class RetryableCommitConflict extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String tableKey;

  RetryableCommitConflict(String tableKey, String message, Throwable cause) {
    super(message, cause);
    this.tableKey = tableKey;
  }

  /** @return the table the refused commit targeted */
  public String tableKey() {
    return tableKey;
  }
}
