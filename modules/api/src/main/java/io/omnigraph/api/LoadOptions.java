package io.omnigraph.api;

import java.util.Objects;

/**
 * Options of one {@link Graph#load} call.
 *
 * @param actor who is writing; recorded in the commit ({@code null} for unauthored writes)
 * @param message a commit message ({@code null} for none)
 * @param progress receives progress reports; never {@code null} (use {@link LoadProgressListener#NONE})
 */
public record LoadOptions(String actor, String message, LoadProgressListener progress) {
  public LoadOptions {
    Objects.requireNonNull(progress, "progress");
  }

  /** @return no actor, no message, no progress reports */
  public static LoadOptions defaults() {
    return new LoadOptions(null, null, LoadProgressListener.NONE);
  }

  /** @return a copy with {@code actor} */
  public LoadOptions withActor(String actor) {
    return new LoadOptions(actor, message, progress);
  }

  /** @return a copy with {@code message} */
  public LoadOptions withMessage(String message) {
    return new LoadOptions(actor, message, progress);
  }

  /** @return a copy reporting to {@code progress} */
  public LoadOptions withProgress(LoadProgressListener progress) {
    return new LoadOptions(actor, message, progress);
  }
}
