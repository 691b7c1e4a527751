package io.omnigraph.engine.branch;

import io.omnigraph.engine.manifest.GraphCommit;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The merge base of two commits (docs/branches.md, "Merge base"): over the union of both lineages,
 * the common ancestor — following both parent links of every commit (a merge's second parent too) —
 * with the smallest sum of distances from the two heads, and among those the newest (greatest
 * manifest version). Not wired into a merge writer yet.
 */
public final class MergeBase {
  private MergeBase() {}

  /**
   * @param commits every commit of both lineages (duplicates allowed)
   * @return the merge base, or empty when either head is unknown or they share no ancestor
   */
  public static Optional<GraphCommit> of(Collection<GraphCommit> commits, String sourceHead, String targetHead) {
    Map<String, GraphCommit> byId = new HashMap<>();
    commits.forEach(c -> byId.putIfAbsent(c.commitId(), c));
    if (!byId.containsKey(sourceHead) || !byId.containsKey(targetHead)) {
      return Optional.empty();
    }
    Map<String, Long> fromSource = distances(byId, sourceHead);
    Map<String, Long> fromTarget = distances(byId, targetHead);
    GraphCommit best = null;
    long bestSum = Long.MAX_VALUE;
    for (Map.Entry<String, Long> e : fromSource.entrySet()) {
      Long t = fromTarget.get(e.getKey());
      if (t == null) {
        continue;
      }
      long sum = e.getValue() + t;
      GraphCommit c = byId.get(e.getKey());
      if (c == null) {
        continue; // a parent outside both lineages (a merged branch's own commit): never a readable base
      }
      if (sum < bestSum || (sum == bestSum && c.manifestVersion() > best.manifestVersion())) {
        best = c;
        bestSum = sum;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Breadth-first minimal distances from {@code head} over both parent links. */
  private static Map<String, Long> distances(Map<String, GraphCommit> byId, String head) {
    Map<String, Long> d = new HashMap<>();
    ArrayDeque<String> queue = new ArrayDeque<>();
    d.put(head, 0L);
    queue.add(head);
    while (!queue.isEmpty()) {
      String id = queue.poll();
      GraphCommit c = byId.get(id);
      if (c == null) {
        continue; // a parent outside both lineages (e.g. on a deleted branch)
      }
      for (String p : new String[] {c.parentCommitId(), c.mergedParentCommitId()}) {
        if (p != null && !d.containsKey(p)) {
          d.put(p, d.get(id) + 1);
          queue.add(p);
        }
      }
    }
    return d;
  }
}
