package io.omnigraph.engine.table;

import java.util.Locale;

/**
 * The one place that tells Lance failures apart. Lance's Java binding throws plain
 * {@link RuntimeException}s (and a few {@link IllegalArgumentException}s and {@link java.io.IOException}s)
 * distinguished only by message text; this class maps each known message to a {@link Failure}, and
 * {@code LanceErrorsTest} pins every message, so a Lance upgrade that rewords one fails a test
 * instead of silently changing behaviour (docs/errors.md, "storage.kind values").
 */
public final class LanceErrors {
  private LanceErrors() {}

  /** What a Lance failure means to the engine. */
  public enum Failure {
    /** Another writer committed first and Lance refused to rebase ({@code Retryable commit conflict}, {@code Too many concurrent writers}). */
    RETRYABLE_CONFLICT,
    /** A concurrent transaction made this one impossible ({@code Incompatible transaction}). */
    INCOMPATIBLE_CONFLICT,
    /** The dataset or the requested version does not exist. */
    NOT_FOUND,
    /** A create found an existing dataset. */
    ALREADY_EXISTS,
    /** A merge-insert with "fail when matched" met an existing key. */
    KEY_EXISTS,
    /** A native ref operation Lance refused ({@code Ref conflict error}: e.g. deleting a branch another branch was created from). */
    REF_CONFLICT,
    /** Input Lance refused (bad filter, schema mismatch, nulls in a non-null field). */
    INVALID_INPUT,
    /** The operating system or the object store refused access ({@code Permission denied (os error 13)}). */
    PERMISSION,
    /** An object-store I/O failure reported by Lance. */
    IO,
    /** Anything else. */
    OTHER
  }

  /**
   * Classifies a throwable raised by a Lance call.
   *
   * @param t the failure (its message is inspected; {@code null} messages are {@link Failure#OTHER})
   */
  public static Failure classify(Throwable t) {
    String m = t.getMessage();
    if (m == null) {
      return Failure.OTHER;
    }
    if (m.startsWith("Retryable commit conflict") || m.startsWith("Too many concurrent writers")
        || m.contains("TooMuchWriteContention")) {
      return Failure.RETRYABLE_CONFLICT;
    }
    if (m.startsWith("Incompatible transaction") || m.contains("CommitConflict")) {
      return Failure.INCOMPATIBLE_CONFLICT;
    }
    if (m.startsWith("Ref conflict error")) {
      return Failure.REF_CONFLICT;
    }
    if (m.startsWith("Dataset already exists")) {
      return Failure.ALREADY_EXISTS;
    }
    if (m.contains("Merge insert failed: found matching row")) {
      return Failure.KEY_EXISTS;
    }
    if ((m.startsWith("Dataset at path") && m.contains("was not found")) || m.startsWith("Version not found")
        || m.startsWith("Ref not found") || m.startsWith("Not found:")) {
      return Failure.NOT_FOUND;
    }
    if (m.startsWith("Invalid user input") || m.startsWith("Append with different schema")
        || m.contains("contained null values even though the field is marked non-null")) {
      return Failure.INVALID_INPUT;
    }
    if (m.contains("Permission denied") || m.contains("(os error 13)") || m.contains("Operation not permitted (os error 1)")
        || m.contains("Read-only file system (os error 30)")) {
      return Failure.PERMISSION;
    }
    if (m.contains("LanceError(IO)") || m.toLowerCase(Locale.ROOT).contains("object at location")) {
      return Failure.IO;
    }
    return Failure.OTHER;
  }

  /**
   * Maps a Lance failure caught outside a {@code TableReader}/{@code TableWriter} call (e.g. an
   * undeclared {@code IOException} from the native binding) to the engine's typed error.
   *
   * @param uri the graph or table the failing work was on
   * @param operation what it was doing ({@code write}, {@code read}), named in a permission error
   * @param cause the failure
   * @return the typed error to throw
   */
  public static RuntimeException asEngineError(String uri, String operation, Throwable cause) {
    return LanceCalls.mapped(uri, operation, cause);
  }

  /**
   * @param t a Lance failure
   * @return the path Lance names ({@code at path "..."}), if any
   */
  public static java.util.Optional<String> path(Throwable t) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("at path \"([^\"]+)\"").matcher(String.valueOf(t.getMessage()));
    return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
  }

  /** @return the message without Lance's trailing Rust source location ({@code , /path/file.rs:12:34}) */
  public static String clean(Throwable t) {
    String m = String.valueOf(t.getMessage());
    return m.replaceAll(",\\s*\\S+\\.rs:\\d+:\\d+\\s*$", "");
  }

  /** Throws the retryable conflict of a commit Lance refused outright (nothing landed). */
  static long refused(String tableKey, RuntimeException e) {
    throw new RetryableCommitConflict(tableKey, "concurrent incompatible commit to " + tableKey + ": "
        + LanceErrors.clean(e), e);
  }

  /** @return a failed commit as the engine reports it: a retryable or an incompatible conflict, else {@code e} */
  static RuntimeException commitFailure(String tableKey, RuntimeException e) {
    LanceErrors.Failure f = LanceErrors.classify(e);
    if (f == LanceErrors.Failure.RETRYABLE_CONFLICT) {
      return new RetryableCommitConflict(tableKey, "concurrent commit to " + tableKey + ": " + LanceErrors.clean(e), e);
    }
    if (f == LanceErrors.Failure.INCOMPATIBLE_CONFLICT) {
      return new io.omnigraph.api.ConflictException("concurrent incompatible commit to " + tableKey + ": " + LanceErrors.clean(e),
          new io.omnigraph.api.ErrorDetail.ReadSetConflict("table_head:" + tableKey, null, null), e);
    }
    return e;
  }
}
