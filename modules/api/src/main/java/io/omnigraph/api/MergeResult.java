package io.omnigraph.api;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one successful {@link Graph#merge} did (docs/branches.md, "Merge").
 *
 * @param outcome already up to date, fast-forward, or a merge commit
 * @param source the branch merged from
 * @param target the branch merged into
 * @param sourceCommitId the source head the merge captured and merged (a source that moves later
 *     does not change what was merged)
 * @param baseCommitId the merge base, or {@code null} when the outcome needed none
 * @param commitId the target's head after the merge: unchanged for {@link
 *     MergeOutcome#ALREADY_UP_TO_DATE}, otherwise the commit the merge published
 * @param tables per table the merge wrote or repointed, by table key ({@code node:Person}), sorted;
 *     empty for {@link MergeOutcome#ALREADY_UP_TO_DATE}
 * @param sourceDeleted whether the source branch was deleted ({@link MergeOptions#deleteSourceBranch()})
 */
public record MergeResult(MergeOutcome outcome, String source, String target, String sourceCommitId,
    String baseCommitId, String commitId, Map<String, TableMerge> tables, boolean sourceDeleted) {
  public MergeResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(sourceCommitId, "sourceCommitId");
    Objects.requireNonNull(commitId, "commitId");
    tables = Map.copyOf(new TreeMap<>(tables));
  }

  /**
   * What the merge did to one table.
   *
   * @param route how the table was merged: {@code pointer} (the target adopted the source's table
   *     version without rewriting rows), {@code ordered} (the general ordered merge) or
   *     {@code proven_insert} (the source's all-new rows adopted without probing the target)
   * @param inserted rows new to the target
   * @param updated target rows replaced by the source's version
   * @param deleted target rows the source deleted
   * @param transactions the Lance transactions the merge committed on this table (0 for {@code pointer})
   */
  public record TableMerge(String route, long inserted, long updated, long deleted, long transactions) {
    public TableMerge {
      Objects.requireNonNull(route, "route");
    }
  }
}
