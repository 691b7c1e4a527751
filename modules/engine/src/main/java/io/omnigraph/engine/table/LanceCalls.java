package io.omnigraph.engine.table;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.StorageFailureException;
import java.util.function.Supplier;

/**
 * Runs one Lance call and maps its failures to the engine's typed errors, using the message
 * classification of {@link LanceErrors}. Shared by {@link TableReader} and {@link TableWriter}.
 */
final class LanceCalls {
  private LanceCalls() {}

  /** Wraps a checked exception thrown inside a Lance call. */
  static final class LanceCallFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LanceCallFailure(Exception cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Runs one Lance call and maps its failures to the engine's typed errors. */
  static <T> T lance(String uri, Supplier<T> call) {
    try {
      return call.get();
    } catch (OmnigraphException | RetryableCommitConflict | KeyCollision | java.io.UncheckedIOException e) {
      // Engine errors and failures of caller callbacks (scan consumers) pass through unclassified.
      throw e;
    } catch (RuntimeException e) {
      Throwable cause = e instanceof LanceCallFailure ? e.getCause() : e;
      String msg = LanceErrors.clean(cause);
      switch (LanceErrors.classify(cause)) {
        case NOT_FOUND:
          throw new NotFoundException("no Lance dataset (or version) at " + uri + ": " + msg, null, cause);
        case INVALID_INPUT:
          throw new InvalidInputException("Lance refused the input for " + uri + ": " + msg,
              new ErrorDetail.Validation(null, null, null, "lance_input"), cause);
        case IO:
          throw new StorageFailureException("Lance I/O failure at " + uri + ": " + msg,
              new ErrorDetail.Storage("LANCE_IO", uri), cause);
        case RETRYABLE_CONFLICT:
          throw new RetryableCommitConflict(uri, msg, cause);
        case INCOMPATIBLE_CONFLICT:
        case ALREADY_EXISTS:
        case KEY_EXISTS:
        case REF_CONFLICT:
          throw new ConflictException("Lance conflict at " + uri + ": " + msg, null, cause);
        default:
          throw new StorageFailureException("Lance failure at " + uri + ": " + msg,
              new ErrorDetail.Storage("LANCE", uri), cause);
      }
    } catch (Error e) {
      throw e;
    }
  }
}
