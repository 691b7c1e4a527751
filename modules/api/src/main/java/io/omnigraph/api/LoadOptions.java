package io.omnigraph.api;

import java.util.Objects;

/**
 * Options of one {@link Graph#load} call.
 *
 * @param actor who is writing; recorded in the commit ({@code null} for unauthored writes)
 * @param message a commit message ({@code null} for none)
 * @param progress receives progress reports; never {@code null} (use {@link LoadProgressListener#NONE})
 * @param expectedHead the commit id the caller expects to be the head of main, or {@code null}
 *     for no expectation; when the head is anything else (at the start or when the load's effects
 *     would begin) the load fails with {@link PreconditionFailedException} and writes nothing
 */
public record LoadOptions(String actor, String message, LoadProgressListener progress, String expectedHead) {
  public LoadOptions {
    Objects.requireNonNull(progress, "progress");
  }

  /** Options without a head expectation. */
  public LoadOptions(String actor, String message, LoadProgressListener progress) {
    this(actor, message, progress, null);
  }

  /** @return no actor, no message, no progress reports, no head expectation */
  public static LoadOptions defaults() {
    return new LoadOptions(null, null, LoadProgressListener.NONE, null);
  }

  /** @return a copy with {@code actor} */
  public LoadOptions withActor(String actor) {
    return new LoadOptions(actor, message, progress, expectedHead);
  }

  /** @return a copy with {@code message} */
  public LoadOptions withMessage(String message) {
    return new LoadOptions(actor, message, progress, expectedHead);
  }

  /** @return a copy reporting to {@code progress} */
  public LoadOptions withProgress(LoadProgressListener progress) {
    return new LoadOptions(actor, message, progress, expectedHead);
  }

  /** @return a copy that requires main's head to be {@code commitId} ({@code null}: no expectation) */
  public LoadOptions withExpectedHead(String commitId) {
    return new LoadOptions(actor, message, progress, commitId);
  }
}
