package io.omnigraph.conformance;

import java.time.Duration;
import java.util.List;

/**
 * Injects faults into, and counts, the storage requests of a binding's adapters. The suite uses it
 * to check what a healthy backend never shows: failures of every operation, lost responses,
 * permission refusals, and races that a fast local run would rarely interleave.
 *
 * <p>Each armed fault fires at most once (for a client with retries: on every attempt of one
 * operation); the suite fails a test whose armed fault never fired, since an unfired fault proves
 * nothing. Faults must reach the adapter the way real failures do: for object stores through the
 * real SDK (an HTTP error answered by {@code FaultProxy} in front of the service), for adapters that
 * do their own I/O through {@link io.omnigraph.api.storage.StorageIoHook} (a real
 * {@code java.nio.file} exception at the real I/O step). Two implementations:
 * {@link IoHookFaultController} for adapters that accept an I/O hook (in the TCK), and
 * {@code io.omnigraph.testkit.tck.HttpFaultController} on the test kit's {@code FaultProxy} for HTTP
 * backends (in {@code io.omnigraph:omnigraph-testkit}; docs/tck.md, "Faults").
 */
public interface FaultController {

  /** The storage operations a fault or a request count selects. */
  enum Operation {
    /** Reading one object (GET of the object, a file read). */
    READ,
    /** Asking whether one object exists (HEAD or a metadata GET, a file stat). */
    EXISTS,
    /** Writing one object (PUT or upload, a file write). */
    PUT,
    /** Deleting one object. */
    DELETE,
    /** Fetching one page of a listing. */
    LIST_PAGE
  }

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

  /**
   * Makes the next request of {@code operation} be refused for lack of permission, as the backend
   * refuses it (HTTP 403 with the service's own error body; {@code AccessDeniedException} for a
   * file system). Nothing takes effect. For {@link Operation#LIST_PAGE} the next page request is
   * refused.
   */
  void denyNext(Operation operation);

  /**
   * Holds every object write (and every separate conditional check the backend makes, where it has
   * one) for {@code delay} before it proceeds, until {@link #reset()}: concurrent conditional
   * writers then overlap on every run instead of by luck. Counts as unfired if no write came.
   */
  void delayEveryPut(Duration delay);

  /**
   * @return how many storage requests the adapters opened by the binding made so far (every
   *     operation, every attempt; the binding's own direct writes, e.g. residue, are not counted)
   */
  long requests();

  /** @return how many of {@link #requests()} were requests of {@code operation} */
  long requests(Operation operation);

  /** @return a description of every armed fault that has not fired yet (empty when all fired) */
  List<String> unfired();

  /** Disarms every fault and delay (the request counters keep counting). */
  void reset();
}
