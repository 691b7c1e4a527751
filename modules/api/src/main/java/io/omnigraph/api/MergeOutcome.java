package io.omnigraph.api;

/** What a {@link Graph#merge} did to the target branch (docs/branches.md, "Merge"). */
public enum MergeOutcome {
  /** The source's head is already in the target's history: nothing was written. */
  ALREADY_UP_TO_DATE("already_up_to_date"),
  /**
   * The target had no commit of its own since the merge base: the target now publishes the
   * source's table versions in one commit with one parent (no row was rewritten).
   */
  FAST_FORWARD("fast_forward"),
  /** Both sides changed since the merge base: one merge commit with two parents was published. */
  MERGED("merged");

  private final String code;

  MergeOutcome(String code) {
    this.code = code;
  }

  /** @return the stable wire name, e.g. {@code fast_forward} */
  public String code() {
    return code;
  }

  /**
   * @param code a wire name as {@link #code()} returns it
   * @return the outcome
   * @throws IllegalArgumentException for any other text
   */
  public static MergeOutcome fromCode(String code) {
    for (MergeOutcome o : values()) {
      if (o.code.equals(code)) {
        return o;
      }
    }
    throw new IllegalArgumentException("unknown merge outcome: " + code);
  }
}
