package io.omnigraph.api;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@link Graph#export(java.io.OutputStream, ExportOptions)} writes: which graph state (the head
 * of a branch, default {@code main}, or one commit) and, optionally, only some node and edge types.
 * Immutable; each {@code with...} returns a copy.
 */
public final class ExportOptions {
  private static final ExportOptions DEFAULTS = new ExportOptions(null, null, null);

  private final String branch;
  private final String commitId;
  private final Set<String> typeNames;

  private ExportOptions(String branch, String commitId, Set<String> typeNames) {
    this.branch = branch;
    this.commitId = commitId;
    this.typeNames = typeNames;
  }

  /** @return every table of {@code main}'s head */
  public static ExportOptions defaults() {
    return DEFAULTS;
  }

  /**
   * @param branch a graph branch name
   * @return export that branch's head
   */
  public static ExportOptions onBranch(String branch) {
    return new ExportOptions(Objects.requireNonNull(branch, "branch"), null, null);
  }

  /**
   * @param commitId a full graph commit id
   * @return export the graph as that commit left it
   */
  public static ExportOptions atCommit(String commitId) {
    return new ExportOptions(null, Objects.requireNonNull(commitId, "commitId"), null);
  }

  /**
   * @param names node and edge type names as the schema spells them; {@code null} or empty: every type
   * @return these options exporting only those types (the export still writes nodes first, then
   *     edges, in schema order); an unknown name fails the export before anything is written
   */
  public ExportOptions withTypes(Collection<String> names) {
    if (names == null || names.isEmpty()) {
      return new ExportOptions(branch, commitId, null);
    }
    Set<String> copy = new TreeSet<>();
    for (String n : names) {
      copy.add(Objects.requireNonNull(n, "type name"));
    }
    return new ExportOptions(branch, commitId, Set.copyOf(copy));
  }

  /** @return the branch whose head is exported; empty for a commit or {@code main} by default */
  public Optional<String> branch() {
    return Optional.ofNullable(branch);
  }

  /** @return the commit exported; empty when exporting a branch head */
  public Optional<String> commitId() {
    return Optional.ofNullable(commitId);
  }

  /** @return the type names to export; empty: every type */
  public Optional<Set<String>> typeNames() {
    return Optional.ofNullable(typeNames);
  }

  @Override
  public String toString() {
    return "ExportOptions[" + (commitId != null ? "commit=" + commitId : "branch=" + (branch == null ? "main" : branch))
        + (typeNames == null ? "" : ", types=" + typeNames) + "]";
  }
}
