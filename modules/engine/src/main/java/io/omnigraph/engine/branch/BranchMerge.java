package io.omnigraph.engine.branch;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeResult;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import java.util.Objects;

/**
 * {@code Graph.merge} (docs/branches.md, "Merge"). The API shape is in place; the merge writer is
 * being built, so every call that passes argument checks is refused with rule
 * {@code merge_not_implemented}.
 */
public final class BranchMerge {
  private BranchMerge() {}

  public static MergeResult run(SnapshotResolver snapshots, String source, String target, MergeOptions options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(options, "options");
    String into = target == null ? GraphBranch.MAIN : target;
    if (source.equals(into)) {
      throw new InvalidInputException("cannot merge branch '" + source + "' into itself",
          new ErrorDetail.Validation(null, null, "source", "merge_same_branch"));
    }
    snapshots.latest(source); // unknown branches are NotFoundException (unknown_branch)
    snapshots.latest(into);
    throw new InvalidInputException("merge is not implemented yet",
        new ErrorDetail.Validation(null, null, null, "merge_not_implemented"));
  }
}
