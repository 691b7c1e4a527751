package io.omnigraph.engine.snapshot;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.manifest.GraphBranch;
import java.util.Objects;

/**
 * What a {@link GraphSnapshot} is resolved from: the head of a graph branch (moves with every
 * commit on it) or one graph commit (never moves).
 */
public sealed interface GraphRef {
  /** @return the ref as a user writes it: a branch name or a commit id */
  String text();

  /**
   * The head of a graph branch.
   *
   * @param name the branch name
   */
  record Branch(String name) implements GraphRef {
    public Branch {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new InvalidInputException("a branch name must not be empty",
            new ErrorDetail.Validation(null, null, "ref", "invalid_ref"));
      }
    }

    @Override
    public String text() {
      return name;
    }
  }

  /**
   * One graph commit.
   *
   * @param commitId the commit id (a ULID)
   */
  record Commit(String commitId) implements GraphRef {
    public Commit {
      Objects.requireNonNull(commitId, "commitId");
      if (commitId.isBlank()) {
        throw new InvalidInputException("a commit id must not be empty",
            new ErrorDetail.Validation(null, null, "ref", "invalid_ref"));
      }
    }

    @Override
    public String text() {
      return commitId;
    }
  }

  /** @return the head of the branch {@code init} creates, the API's default ref */
  static GraphRef main() {
    return new Branch(GraphBranch.MAIN);
  }

  /** @return the head of branch {@code name} */
  static GraphRef branch(String name) {
    return new Branch(name);
  }

  /** @return the commit {@code commitId} */
  static GraphRef commit(String commitId) {
    return new Commit(commitId);
  }
}
