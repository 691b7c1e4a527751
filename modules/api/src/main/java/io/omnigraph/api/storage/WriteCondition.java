package io.omnigraph.api.storage;

import java.util.Objects;

/**
 * The condition under which {@link StorageAdapter#put} may replace an object. A closed set: every
 * adapter implements all three, atomically with respect to other writers.
 */
public sealed interface WriteCondition {

  /** Write unconditionally, replacing any existing object. */
  record Overwrite() implements WriteCondition {}

  /**
   * Write only if no object exists at the path. Of any number of concurrent {@code IfAbsent}
   * writers of one path, in any processes, exactly one succeeds; the others get
   * {@link StorageException.Kind#PRECONDITION_FAILED} and the object is the winner's.
   */
  record IfAbsent() implements WriteCondition {}

  /**
   * Write only if the object exists and its current version token equals {@code version} (a
   * token returned by {@link StorageAdapter#put} or {@link StorageAdapter#readIfExists}). A stale
   * token, or an absent object, fails with {@link StorageException.Kind#PRECONDITION_FAILED}.
   * Of concurrent writers holding the same token, at most one succeeds (no lost update).
   *
   * @param version an opaque token, sent back to the backend exactly as received
   */
  record IfMatch(String version) implements WriteCondition {
    public IfMatch {
      Objects.requireNonNull(version, "version");
      if (version.isEmpty()) {
        throw new IllegalArgumentException("IfMatch version token must not be empty");
      }
    }
  }

  /** @return the {@link Overwrite} condition */
  static WriteCondition overwrite() {
    return new Overwrite();
  }

  /** @return the {@link IfAbsent} condition */
  static WriteCondition ifAbsent() {
    return new IfAbsent();
  }

  /** @return an {@link IfMatch} condition on {@code version} */
  static WriteCondition ifMatch(String version) {
    return new IfMatch(version);
  }
}
