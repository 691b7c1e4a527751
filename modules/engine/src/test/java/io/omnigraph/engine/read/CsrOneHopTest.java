package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The CSR's one-hop reader and an expansion's destination memo (docs/queries.md, "Traversal
 * strategies"): a node's destinations are its distinct neighbours in adjacency order (out before
 * in for an undirected edge), the node itself first when a same-type self-loop reaches it,
 * whether the node has a few edges (compared one by one) or many (the bitmap), with one reader
 * reused node after node; the memo answers exactly what was put, across growth and clearing.
 */
class CsrOneHopTest {
  @Test
  void destinationsAreTheDistinctNeighboursInAdjacencyOrderWhateverTheDegree() {
    Random r = new Random(20261205L);
    int nodes = 60;
    List<String> src = new ArrayList<>();
    List<String> dst = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      // degrees from 0 to 3 x OneHop.SMALL: parallel edges (few targets) and self-loops on both sides of the switch
      int degree = i % 7 == 0 ? 0 : r.nextInt(3 * Adjacency.OneHop.SMALL);
      int targets = 1 + r.nextInt(i % 2 == 0 ? 5 : nodes);
      for (int k = 0; k < degree; k++) {
        src.add("n" + i);
        dst.add(r.nextInt(10) == 0 ? "n" + i : "n" + r.nextInt(targets));
      }
    }
    Adjacency a = Adjacency.ofPairs(src, dst);
    int checked = 0;
    for (Op.Dir dir : Op.Dir.values()) {
      for (boolean sameType : new boolean[] {true, false}) {
        Adjacency.OneHop hop = a.new OneHop(dir, sameType);
        for (int round = 0; round < 2; round++) { // the reader's buffers and bitmap are reused
          for (int i = 0; i < nodes; i++) {
            String id = "n" + i;
            int d = a.indexOf(id);
            List<String> expected = expected(src, dst, id, dir, sameType);
            if (d < 0) {
              assertThat(expected).isEmpty();
              continue;
            }
            int n = hop.of(d);
            List<String> got = new ArrayList<>();
            for (int k = 0; k < n; k++) {
              got.add(a.id(hop.found[k]));
            }
            assertThat(got).as("%s %s sameType=%s", id, dir, sameType).isEqualTo(expected);
            checked++;
          }
        }
      }
    }
    assertThat(checked).isGreaterThan(500);
    long big = 0;
    for (int i = 0; i < nodes; i++) {
      int d = a.indexOf("n" + i);
      if (d >= 0 && expected(src, dst, "n" + i, Op.Dir.BOTH, false).size() > 0) {
        int[] count = {0};
        a.neighbors(d, Op.Dir.BOTH, new int[1], count);
        big += count[0] > Adjacency.OneHop.SMALL ? 1 : 0;
      }
    }
    assertThat(big).as("nodes with more edges than the comparing path takes").isGreaterThan(5);
  }

  /** The definition: every edge's other end in edge order (out first), distinct, a same-type self-loop as the node first. */
  private static List<String> expected(List<String> src, List<String> dst, String id, Op.Dir dir, boolean sameType) {
    List<String> ends = new ArrayList<>();
    if (dir != Op.Dir.IN) {
      for (int e = 0; e < src.size(); e++) {
        if (src.get(e).equals(id)) {
          ends.add(dst.get(e));
        }
      }
    }
    if (dir != Op.Dir.OUT) {
      for (int e = 0; e < src.size(); e++) {
        if (dst.get(e).equals(id)) {
          ends.add(src.get(e));
        }
      }
    }
    LinkedHashSet<String> out = new LinkedHashSet<>();
    boolean self = false;
    for (String w : ends) {
      if (sameType && w.equals(id)) {
        self = true;
      } else {
        out.add(w);
      }
    }
    List<String> l = new ArrayList<>();
    if (self) {
      l.add(id);
    }
    l.addAll(out);
    return l;
  }

  @Test
  void theMemoAnswersWhatWasPutAcrossGrowthAndClearing() {
    Random r = new Random(7);
    DestinationMemo memo = new DestinationMemo();
    Map<Integer, Entity> model = new HashMap<>();
    Entity[] rows = {Entity.idOnly("a"), Entity.idOnly("b"), Entity.idOnly("c")};
    for (int op = 0; op < 20_000; op++) {
      int k = r.nextInt(op < 10_000 ? 50 : 5_000);
      if (r.nextInt(1_000) == 0) {
        memo.clear();
        model.clear();
      } else if (r.nextBoolean()) {
        Entity v = rows[r.nextInt(rows.length)];
        memo.put(k, v);
        model.put(k, v);
      } else {
        assertThat(memo.get(k)).isSameAs(model.get(k));
      }
      assertThat(memo.size()).isEqualTo(model.size());
    }
    for (int k = 0; k < 5_000; k++) {
      assertThat(memo.get(k)).isSameAs(model.get(k));
    }
  }
}
