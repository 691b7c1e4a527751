package io.omnigraph.testkit.gcs;

/**
 * The generation and metageneration preconditions of one request. {@code null} means "not given".
 * Generation 0 stands for "no live object", as on GCS.
 */
record Preconditions(Long ifGenerationMatch, Long ifGenerationNotMatch,
    Long ifMetagenerationMatch, Long ifMetagenerationNotMatch) {

  static final Preconditions NONE = new Preconditions(null, null, null, null);

  /**
   * Checks the preconditions against the live object ({@code null} when absent).
   *
   * @param read whether the request is a read: a failed "not match" answers 304 for reads and 412
   *     for mutations, as GCS does
   * @throws GcsError 412 or 304 when a precondition does not hold
   */
  void check(GcsStore.Blob live, boolean read) {
    long generation = live == null ? 0 : live.generation();
    long metageneration = live == null ? 0 : live.metageneration();
    if (ifGenerationMatch != null && ifGenerationMatch != generation) {
      throw GcsError.preconditionFailed("ifGenerationMatch=" + ifGenerationMatch + " but generation is " + generation);
    }
    if (ifMetagenerationMatch != null && ifMetagenerationMatch != metageneration) {
      throw GcsError.preconditionFailed(
          "ifMetagenerationMatch=" + ifMetagenerationMatch + " but metageneration is " + metageneration);
    }
    if (ifGenerationNotMatch != null && ifGenerationNotMatch == generation) {
      throw read ? GcsError.notModified() : GcsError.preconditionFailed("ifGenerationNotMatch=" + generation);
    }
    if (ifMetagenerationNotMatch != null && ifMetagenerationNotMatch == metageneration) {
      throw read ? GcsError.notModified() : GcsError.preconditionFailed("ifMetagenerationNotMatch=" + metageneration);
    }
  }

  boolean any() {
    return ifGenerationMatch != null || ifGenerationNotMatch != null
        || ifMetagenerationMatch != null || ifMetagenerationNotMatch != null;
  }
}
