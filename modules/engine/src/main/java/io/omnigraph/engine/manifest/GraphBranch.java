package io.omnigraph.engine.manifest;

import java.util.Objects;

/**
 * How a graph branch name is written in {@code __manifest}: {@code graph_head:<branch>} rows carry
 * the name; {@code graph_commit} rows and recovery sidecars write {@code null} for the branch every
 * graph is created with ({@value #MAIN}) and the name for any other. Code takes the branch as a
 * parameter; this class is only the on-disk encoding.
 */
public final class GraphBranch {
  /** The branch {@code init} creates; the API's default target. */
  public static final String MAIN = "main";

  private GraphBranch() {}

  /**
   * @param branch a branch name
   * @return the value of a branch column ({@code null} for {@value #MAIN})
   */
  public static String toColumn(String branch) {
    Objects.requireNonNull(branch, "branch");
    return MAIN.equals(branch) ? null : branch;
  }

  /**
   * @param column the value of a branch column
   * @return the branch name it denotes
   */
  public static String fromColumn(String column) {
    return column == null ? MAIN : column;
  }
}
