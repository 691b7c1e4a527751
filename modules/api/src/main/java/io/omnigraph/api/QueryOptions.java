package io.omnigraph.api;

import java.util.Objects;
import java.util.Optional;

/**
 * Which graph state a read query runs against: the head of a graph branch (default {@code main})
 * or one graph commit (a snapshot read that never moves). Immutable.
 *
 * <p>A query reads exactly one snapshot: the branch head is resolved once when the query starts,
 * and commits published while it runs are not seen.
 */
public final class QueryOptions {
  private static final QueryOptions DEFAULTS = new QueryOptions(null, null);

  private final String branch;
  private final String commitId;

  private QueryOptions(String branch, String commitId) {
    this.branch = branch;
    this.commitId = commitId;
  }

  /** @return read the head of {@code main} */
  public static QueryOptions defaults() {
    return DEFAULTS;
  }

  /**
   * @param branch a graph branch name
   * @return read the head of that branch
   */
  public static QueryOptions onBranch(String branch) {
    Objects.requireNonNull(branch, "branch");
    return new QueryOptions(branch, null);
  }

  /**
   * @param commitId a full graph commit id
   * @return read the graph as of that commit
   */
  public static QueryOptions atCommit(String commitId) {
    Objects.requireNonNull(commitId, "commitId");
    return new QueryOptions(null, commitId);
  }

  /** @return the branch whose head is read; empty when reading a commit or {@code main} by default */
  public Optional<String> branch() {
    return Optional.ofNullable(branch);
  }

  /** @return the commit read, when this is a snapshot read */
  public Optional<String> commitId() {
    return Optional.ofNullable(commitId);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryOptions q && Objects.equals(q.branch, branch) && Objects.equals(q.commitId, commitId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(branch, commitId);
  }

  @Override
  public String toString() {
    return commitId != null ? "QueryOptions[commit=" + commitId + "]" : "QueryOptions[branch=" + (branch == null ? "main" : branch) + "]";
  }
}
