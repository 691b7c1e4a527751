package io.omnigraph.api;

/**
 * Options of one {@link Graph#mutate} call.
 *
 * @param actor who is writing; recorded in the commit ({@code null} for unauthored writes)
 * @param message a commit message ({@code null} for none)
 * @param expectedHead the commit id the caller expects main's head to be ({@code null}: no
 *     expectation); when the head is another commit the mutation fails with {@link
 *     PreconditionFailedException} and writes nothing
 * @param branch the graph branch written ({@code null} or {@code main}: main); an unknown branch is
 *     {@link NotFoundException} (docs/branches.md)
 */
public record MutationOptions(String actor, String message, String expectedHead, String branch) {

  /** Options writing main. */
  public MutationOptions(String actor, String message, String expectedHead) {
    this(actor, message, expectedHead, null);
  }

  /** @return no actor, no message, no expected head */
  public static MutationOptions defaults() {
    return new MutationOptions(null, null, null);
  }

  /** @return a copy with {@code actor} */
  public MutationOptions withActor(String actor) {
    return new MutationOptions(actor, message, expectedHead, branch);
  }

  /** @return a copy with {@code message} */
  public MutationOptions withMessage(String message) {
    return new MutationOptions(actor, message, expectedHead, branch);
  }

  /** @return a copy expecting main's head to be {@code commitId} */
  public MutationOptions withExpectedHead(String commitId) {
    return new MutationOptions(actor, message, commitId, branch);
  }

  /** @return a copy writing {@code branch} ({@code null}: main) */
  public MutationOptions withBranch(String branch) {
    return new MutationOptions(actor, message, expectedHead, branch);
  }

  /** @return the branch written ({@code main} when none is set) */
  public String branchOrMain() {
    return branch == null ? "main" : branch;
  }
}
