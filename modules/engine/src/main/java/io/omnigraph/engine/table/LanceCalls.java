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
    return lance(uri, "access", call);
  }

  /**
   * Runs one Lance call and maps its failures to the engine's typed errors.
   *
   * @param operation what the call does ({@code read}, {@code write}), named in a permission error
   */
  static <T> T lance(String uri, String operation, Supplier<T> call) {
    try {
      return call.get();
    } catch (OmnigraphException | RetryableCommitConflict | KeyCollision | java.io.UncheckedIOException e) {
      // Engine errors and failures of caller callbacks (scan consumers) pass through unclassified.
      throw e;
    } catch (RuntimeException e) {
      throw mapped(uri, operation, e instanceof LanceCallFailure ? e.getCause() : e);
    } catch (Exception e) {
      // The native binding throws some checked exceptions (IOException) without declaring them;
      // unmapped, they escaped as if they were the caller's own I/O (e.g. reading a load's input).
      throw mapped(uri, operation, e);
    }
  }

  static RuntimeException mapped(String uri, String operation, Throwable cause) {
    String msg = LanceErrors.clean(cause);
    return switch (LanceErrors.classify(cause)) {
      case NOT_FOUND -> new NotFoundException("no Lance dataset (or version) at " + uri + ": " + msg, null, cause);
      case INVALID_INPUT -> new InvalidInputException("Lance refused the input for " + uri + ": " + msg,
          new ErrorDetail.Validation(null, null, null, "lance_input"), cause);
      case PERMISSION -> {
        String path = LanceErrors.path(cause).orElse(uri);
        yield new StorageFailureException("permission denied: cannot " + operation + " " + path + " (graph table at " + uri
            + "); the graph's files must be writable by this user for a write and readable for a read",
            new ErrorDetail.Storage("PERMISSION", path), cause);
      }
      case IO -> new StorageFailureException("Lance I/O failure at " + uri + ": " + msg,
          new ErrorDetail.Storage("LANCE_IO", uri), cause);
      case RETRYABLE_CONFLICT -> new RetryableCommitConflict(uri, msg, cause);
      case INCOMPATIBLE_CONFLICT, ALREADY_EXISTS, KEY_EXISTS, REF_CONFLICT ->
          new ConflictException("Lance conflict at " + uri + ": " + msg, null, cause);
      default -> new StorageFailureException("Lance failure at " + uri + ": " + msg,
          new ErrorDetail.Storage("LANCE", uri), cause);
    };
  }
}
