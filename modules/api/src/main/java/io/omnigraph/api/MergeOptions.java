package io.omnigraph.api;

/**
 * Options of one {@link Graph#merge} call (docs/branches.md, "Merge").
 *
 * @param actor who is merging; recorded in the merge commit ({@code null} for unauthored merges)
 * @param message the merge commit's message ({@code null}: {@code merge <source> into <target>})
 * @param deleteSourceBranch after a successful merge (any outcome), delete the source branch; never
 *     {@code main}. A failed delete after a published merge is reported, the merge stays.
 */
public record MergeOptions(String actor, String message, boolean deleteSourceBranch) {

  /** @return no actor, the default message, keep the source branch */
  public static MergeOptions defaults() {
    return new MergeOptions(null, null, false);
  }

  /** @return a copy with {@code actor} */
  public MergeOptions withActor(String actor) {
    return new MergeOptions(actor, message, deleteSourceBranch);
  }

  /** @return a copy with {@code message} */
  public MergeOptions withMessage(String message) {
    return new MergeOptions(actor, message, deleteSourceBranch);
  }

  /** @return a copy that deletes (or keeps) the source branch after the merge */
  public MergeOptions withDeleteSourceBranch(boolean delete) {
    return new MergeOptions(actor, message, delete);
  }
}
