package io.omnigraph.api;

import java.util.Objects;

/**
 * One graph branch (docs/branches.md).
 *
 * @param name the branch name ({@code main} for the branch {@code init} creates)
 * @param head the branch's head commit: its newest commit, or for a branch without commits of its
 *     own the commit it was created from
 * @param parent the branch it was created from ({@code null} for {@code main})
 */
public record BranchInfo(String name, String head, String parent) {
  public BranchInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(head, "head");
  }
}
