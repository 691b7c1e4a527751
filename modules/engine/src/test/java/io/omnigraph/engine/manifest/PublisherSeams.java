package io.omnigraph.engine.manifest;

/** Test access to the publisher's pre-merge seam from other test packages. */
public final class PublisherSeams {
  private PublisherSeams() {}

  /** Runs {@code action} in every publish attempt right before its merge (after its checks). */
  public static void beforeMerge(ManifestPublisher publisher, Runnable action) {
    publisher.beforeMerge = action;
  }
}
