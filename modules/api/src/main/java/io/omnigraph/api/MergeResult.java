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
   * The one JSON form of a merge result: what {@code omnigraph branch merge --json} prints and the
   * server's {@code POST branches/merge} answers (which adds {@code actor_id}); docs/server.md.
   *
   * @return {@code {"source", "target", "outcome", "branch_deleted", "source_commit_id",
   *     "base_commit_id" (null when none), "commit_id", "tables": {key: {"route", "inserted",
   *     "updated", "deleted", "transactions"}}, "source_deleted"}}, tables sorted by key
   */
  public String toJson() {
    StringBuilder b = new StringBuilder("{");
    b.append("\"source\":");
    ErrorJson.string(b, source);
    b.append(",\"target\":");
    ErrorJson.string(b, target);
    b.append(",\"outcome\":");
    ErrorJson.string(b, outcome.code());
    b.append(",\"branch_deleted\":").append(sourceDeleted);
    b.append(",\"source_commit_id\":");
    ErrorJson.string(b, sourceCommitId);
    b.append(",\"base_commit_id\":");
    if (baseCommitId == null) {
      b.append("null");
    } else {
      ErrorJson.string(b, baseCommitId);
    }
    b.append(",\"commit_id\":");
    ErrorJson.string(b, commitId);
    b.append(",\"tables\":{");
    boolean first = true;
    for (Map.Entry<String, TableMerge> e : new TreeMap<>(tables).entrySet()) {
      if (!first) {
        b.append(',');
      }
      first = false;
      TableMerge t = e.getValue();
      ErrorJson.string(b, e.getKey());
      b.append(":{\"route\":");
      ErrorJson.string(b, t.route());
      b.append(",\"inserted\":").append(t.inserted()).append(",\"updated\":").append(t.updated())
          .append(",\"deleted\":").append(t.deleted()).append(",\"transactions\":").append(t.transactions())
          .append('}');
    }
    b.append("},\"source_deleted\":").append(sourceDeleted).append('}');
    return b.toString();
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
