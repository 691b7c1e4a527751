package io.omnigraph.engine.branch;

import io.omnigraph.engine.write.WriteErrors;

/**
 * What one merge holds in memory (docs/branches.md, "Memory bound of the ordered merge"): a meter of
 * the rows and Arrow bytes buffered in chunks (the chunk being filled and the one being written) and
 * of the largest scanner batch a cursor handed out, and the two budgets a merge charges before its
 * sidecar is armed: the merged-graph validation delta ({@link BranchMerge#validationBytes}) and the
 * retained delete plan ({@link BranchMerge#deletePlanBytes}). A budget exceeded is
 * {@link io.omnigraph.api.ResourceLimitException} (413). Tests read the peaks through
 * {@link BranchMerge#lastMemory}. Not thread-safe: one merge, one thread.
 */
final class MergeMemory {
  private long heldRows;
  private long heldBytes;
  private long peakHeldRows;
  private long peakHeldBytes;
  private long peakBatchRows;
  private long peakBatchBytes;
  private long validation;
  private long deletePlan;

  /** A chunk buffer grew (or shrank, negative) by {@code rows} rows and {@code bytes} bytes. */
  void hold(long rows, long bytes) {
    heldRows += rows;
    heldBytes += bytes;
    peakHeldRows = Math.max(peakHeldRows, heldRows);
    peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
  }

  /** A cursor loaded a scanner batch. */
  void batch(long rows, long bytes) {
    peakBatchRows = Math.max(peakBatchRows, rows);
    peakBatchBytes = Math.max(peakBatchBytes, bytes);
  }

  /** Charges bytes the merged-graph checks retain (one budget for every table of the merge). */
  void chargeValidation(long bytes) {
    validation += bytes;
    if (validation > BranchMerge.validationBytes) {
      throw WriteErrors.resourceLimit("branch-merge validation bytes", BranchMerge.validationBytes, validation);
    }
  }

  /** Charges the filter bytes of a retained delete chunk (one budget for every table of the merge). */
  void chargeDeletePlan(long bytes) {
    deletePlan += bytes;
    if (deletePlan > BranchMerge.deletePlanBytes) {
      throw WriteErrors.resourceLimit("branch-merge delete plan bytes", BranchMerge.deletePlanBytes, deletePlan);
    }
  }

  /** @return a conservative heap size of one retained id string in a hash set */
  static long idCharge(String id) {
    return 64L + 2L * id.length();
  }

  /** The peaks of one merge, for tests. */
  record Peaks(long heldRows, long heldBytes, long batchRows, long batchBytes, long validationBytes,
      long deletePlanBytes) {}

  Peaks peaks() {
    return new Peaks(peakHeldRows, peakHeldBytes, peakBatchRows, peakBatchBytes, validation, deletePlan);
  }
}
