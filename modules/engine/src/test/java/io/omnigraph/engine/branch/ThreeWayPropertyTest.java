package io.omnigraph.engine.branch;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.manifest.GraphCommit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The per-row three-way truth table (docs/branches.md) against an independent model, over every
 * combination of base/source/target drawn from a small value domain (absence included), plus the
 * named cases the reference got wrong, and the merge base over both parent links.
 */
class ThreeWayPropertyTest {
  /** Absent, or one of three values: small enough that equal rows on both sides are common. */
  @Provide
  Arbitrary<Optional<String>> row() {
    return Arbitraries.of(Optional.empty(), Optional.of("a"), Optional.of("b"), Optional.of("c"));
  }

  /** The model: the same table written as a lookup, case by case. */
  static String model(Optional<String> b, Optional<String> s, Optional<String> t) {
    if (s.equals(b)) {
      return "keep";
    }
    if (t.equals(b)) {
      if (s.isPresent()) {
        return "take:" + s.get();
      }
      return t.isPresent() ? "delete" : "keep";
    }
    if (s.equals(t)) {
      return "keep";
    }
    if (b.isEmpty()) {
      return "conflict:DivergentInsert";
    }
    return s.isEmpty() || t.isEmpty() ? "conflict:DeleteVsUpdate" : "conflict:DivergentUpdate";
  }

  static String render(ThreeWay.Decision d) {
    if (d instanceof ThreeWay.TakeSource ts) {
      return "take:" + ts.row();
    }
    if (d instanceof ThreeWay.Delete) {
      return "delete";
    }
    if (d instanceof ThreeWay.Conflict c) {
      return "conflict:" + c.kind();
    }
    return "keep";
  }

  @Property(tries = 400)
  void decisionsMatchTheModel(@ForAll("row") Optional<String> base, @ForAll("row") Optional<String> source,
      @ForAll("row") Optional<String> target) {
    assertThat(render(ThreeWay.decide(base, source, target))).isEqualTo(model(base, source, target));
  }

  @Property(tries = 200)
  void identicalChangesOnBothSidesAreNeverAConflict(@ForAll("row") Optional<String> base,
      @ForAll("row") Optional<String> both) {
    assertThat(ThreeWay.decide(base, both, both)).isInstanceOf(ThreeWay.KeepTarget.class);
  }

  @Test
  void theNamedCases() {
    Optional<String> none = Optional.empty();
    Optional<String> a = Optional.of("a");
    Optional<String> b = Optional.of("b");
    Optional<String> c = Optional.of("c");
    assertThat(ThreeWay.decide(a, b, b)).isEqualTo(new ThreeWay.KeepTarget()); // the reference's false divergent_update
    assertThat(ThreeWay.decide(none, a, a)).isEqualTo(new ThreeWay.KeepTarget()); // same insert on both sides
    assertThat(ThreeWay.decide(a, none, none)).isEqualTo(new ThreeWay.KeepTarget()); // deleted on both sides
    assertThat(ThreeWay.decide(a, b, a)).isEqualTo(new ThreeWay.TakeSource("b"));
    assertThat(ThreeWay.decide(none, b, none)).isEqualTo(new ThreeWay.TakeSource("b"));
    assertThat(ThreeWay.decide(a, none, a)).isEqualTo(new ThreeWay.Delete());
    assertThat(ThreeWay.decide(a, a, c)).isEqualTo(new ThreeWay.KeepTarget());
    assertThat(ThreeWay.decide(none, a, b)).isEqualTo(new ThreeWay.Conflict(ThreeWay.Kind.DivergentInsert));
    assertThat(ThreeWay.decide(a, none, b)).isEqualTo(new ThreeWay.Conflict(ThreeWay.Kind.DeleteVsUpdate));
    assertThat(ThreeWay.decide(a, b, none)).isEqualTo(new ThreeWay.Conflict(ThreeWay.Kind.DeleteVsUpdate));
    assertThat(ThreeWay.decide(a, b, c)).isEqualTo(new ThreeWay.Conflict(ThreeWay.Kind.DivergentUpdate));
  }

  static GraphCommit commit(String id, long version, String parent, String merged) {
    return new GraphCommit(id, null, version, parent, merged, null, null, version, Map.of());
  }

  @Test
  void mergeBaseIsTheClosestThenNewestCommonAncestorOverBothParents() {
    // g - m1 - m2 (main)        g - d1 - d2 (dev, forked at g)
    GraphCommit g = commit("g", 1, null, null);
    GraphCommit m1 = commit("m1", 2, "g", null);
    GraphCommit m2 = commit("m2", 3, "m1", null);
    GraphCommit d1 = commit("d1", 2, "g", null);
    GraphCommit d2 = commit("d2", 3, "d1", null);
    assertThat(MergeBase.of(List.of(g, m1, m2, d1, d2), "d2", "m2")).contains(g);
    assertThat(MergeBase.of(List.of(g, m1, m2, d1, d2), "m1", "m2")).contains(m1); // already up to date
    // After merging dev into main (m3 has parents m2 and d2), the next merge of dev is based on d2.
    GraphCommit m3 = commit("m3", 4, "m2", "d2");
    GraphCommit d3 = commit("d3", 4, "d2", null);
    assertThat(MergeBase.of(List.of(g, m1, m2, d1, d2, d3, m3), "d3", "m3")).contains(d2);
    assertThat(MergeBase.of(List.of(g, m1), "x", "m1")).isEmpty();
  }
}
