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
 * @param branch the graph branch loaded into ({@code null} or {@code main}: main); an unknown branch
 *     is {@link NotFoundException} (docs/branches.md)
 */
public record LoadOptions(String actor, String message, LoadProgressListener progress, String expectedHead,
    String branch) {
  public LoadOptions {
    Objects.requireNonNull(progress, "progress");
  }

  /** Options without a head expectation. */
  public LoadOptions(String actor, String message, LoadProgressListener progress) {
    this(actor, message, progress, null, null);
  }

  /** Options loading into main. */
  public LoadOptions(String actor, String message, LoadProgressListener progress, String expectedHead) {
    this(actor, message, progress, expectedHead, null);
  }

  /** @return no actor, no message, no progress reports, no head expectation */
  public static LoadOptions defaults() {
    return new LoadOptions(null, null, LoadProgressListener.NONE, null, null);
  }

  /** @return a copy with {@code actor} */
  public LoadOptions withActor(String actor) {
    return new LoadOptions(actor, message, progress, expectedHead, branch);
  }

  /** @return a copy with {@code message} */
  public LoadOptions withMessage(String message) {
    return new LoadOptions(actor, message, progress, expectedHead, branch);
  }

  /** @return a copy reporting to {@code progress} */
  public LoadOptions withProgress(LoadProgressListener progress) {
    return new LoadOptions(actor, message, progress, expectedHead, branch);
  }

  /** @return a copy that requires main's head to be {@code commitId} ({@code null}: no expectation) */
  public LoadOptions withExpectedHead(String commitId) {
    return new LoadOptions(actor, message, progress, commitId, branch);
  }

  /** @return a copy loading into {@code branch} ({@code null}: main) */
  public LoadOptions withBranch(String branch) {
    return new LoadOptions(actor, message, progress, expectedHead, branch);
  }

  /** @return the branch loaded into ({@code main} when none is set) */
  public String branchOrMain() {
    return branch == null ? "main" : branch;
  }
}
