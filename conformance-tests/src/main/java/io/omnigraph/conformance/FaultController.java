package io.omnigraph.conformance;

import java.util.List;

/**
 * Arms one-shot faults on the storage requests of a binding's adapters. Each armed fault fires at
 * most once; the suite fails a test whose armed fault never fired (an unfired fault proves
 * nothing). For object stores this is built on the test kit's {@code FaultProxy}, so the fault
 * passes through the real SDK's retry and error-mapping paths.
 */
public interface FaultController {

  /**
   * Makes the {@code n}-th listing page request (1-based, counted from now) fail. For object
   * stores: a non-retryable failure of the HTTP request for that page.
   */
  void failListPage(int n);

  /** Makes the next object write fail before it takes effect. */
  void failNextPut();

  /** Makes the next object delete fail before it takes effect. */
  void failNextDelete();

  /**
   * Lets the next object write take effect, then reports it as failed to the adapter (the
   * response is lost): the adapter must surface {@code OUTCOME_UNKNOWN}.
   */
  void applyNextPutThenFail();

  /** @return a description of every armed fault that has not fired yet (empty when all fired) */
  List<String> unfired();

  /** Disarms every fault. */
  void reset();
}
