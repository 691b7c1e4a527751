package io.omnigraph.engine.branch;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.manifest.GraphCommit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A merge commit's second parent is the merged branch's head, whose {@code graph_commit} row lives on
 * that branch's manifest only: a later merge between two branches that both descend from the merge
 * commit sees that id as a common ancestor although neither lineage lists it. It is never the base
 * (its snapshot is not readable from either side). Found by the server's SIGKILL-during-merge test
 * as a 500 (NullPointerException in {@link MergeBase#of}) on the third of three merges.
 */
class MergeBaseUnknownParentTest {
  private static GraphCommit commit(String id, String branch, long version, String parent, String merged) {
    return new GraphCommit(id, branch, version, parent, merged, null, null, version, Map.of());
  }

  @Test
  void aCommonParentThatNeitherLineageListsIsSkipped() {
    GraphCommit genesis = commit("A", null, 1, null, null);
    GraphCommit p = commit("P", null, 2, "A", null);
    // both heads are merges of the same unlisted branch head U into P: P and U tie at distance 1 + 1
    GraphCommit source = commit("S", "f", 3, "P", "U");
    GraphCommit target = commit("T", null, 4, "P", "U");

    assertThat(MergeBase.of(List.of(genesis, p, source, genesis, p, target), "S", "T")).contains(p);
  }
}
