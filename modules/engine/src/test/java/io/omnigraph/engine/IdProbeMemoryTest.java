package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The strict-insert id probe's memory of fragment ids (docs/maintenance.md, "Flat write cost") never
 * changes an answer: an id this handle wrote, one another handle wrote, one a delete removed, one an
 * update rewrote, one a compaction moved — each is found or not found exactly as a full probe finds
 * it, on local disk.
 */
class IdProbeMemoryTest {
  static final String INSERT = "query add($name: String, $age: I32) { insert Person { name: $name, age: $age } }";
  static final String UPDATE = "query older($name: String, $age: I32) { update Person set { age: $age } where name = $name }";
  static final String PURGE = "query purge($name: String) { delete Person where name = $name }";

  @TempDir Path dir;

  /** A keyed node insert is an upsert (docs/mutations.md): its row lookup goes through the same memory. */
  static MutationResult upsert(Graph g, String name, int age) {
    return g.mutate(INSERT, "add", QueryParams.of(Map.of("name", name, "age", age)), MutationOptions.defaults());
  }

  /** A {@code load --mode append} is a strict insert: its id probe goes through the memory. */
  static void append(Graph g, String name) {
    GraphIo.load(g, LoadMode.APPEND, PeopleGraph.person(name, 1));
  }

  static void refused(Graph g, String name) {
    assertThatThrownBy(() -> append(g, name)).as(name).isInstanceOf(ConflictException.class)
        .hasMessageContaining(name);
  }

  /** @return how many rows of Person the graph's export holds for {@code name}, and with which ages */
  static List<String> rows(Graph g, String name) {
    return GraphIo.export(g).lines().filter(l -> l.contains("\"name\":\"" + name + "\"")).toList();
  }

  static void oneRow(Graph g, String name, int age) {
    assertThat(rows(g, name)).as(name).hasSize(1).allMatch(l -> l.contains("\"age\":" + age));
  }

  @Test
  void everyProbeAnswersAsAFullProbeWould() {
    String uri = dir.resolve("g").toString();
    // Threshold 3: compaction moves the rows into new fragments every few writes.
    OpenOptions options = OpenOptions.defaults().withMaintenance(MaintenancePolicy.atFragments(3));
    try (Graph g = Omnigraph.init(uri, PeopleGraph.SCHEMA, options)) {
      for (int i = 0; i < 10; i++) {
        upsert(g, "p" + i, i);
      }
      // Ids this handle wrote (some still in their own 1-row fragment, some compacted): an upsert
      // replaces the row (one row, the new age), a strict insert is refused.
      for (int i = 0; i < 10; i++) {
        upsert(g, "p" + i, 100 + i);
        oneRow(g, "p" + i, 100 + i);
        refused(g, "p" + i);
      }
      append(g, "s1");
      refused(g, "s1");
      // A delete gives the fragment a new deletion file: the id is free again.
      g.mutate(PURGE, "purge", QueryParams.of(Map.of("name", "p9")), MutationOptions.defaults());
      g.mutate(PURGE, "purge", QueryParams.of(Map.of("name", "s1")), MutationOptions.defaults());
      append(g, "p9");
      append(g, "s1");
      refused(g, "p9");
      try (Graph other = Omnigraph.open(uri, options)) {
        // Another handle knows none of the fragments: it reads them, and finds the same.
        refused(other, "p3");
        append(other, "q1");
        upsert(other, "p4", 7);
        oneRow(other, "p4", 7);
        g.mutate(PURGE, "purge", QueryParams.of(Map.of("name", "p7")), MutationOptions.defaults());
      }
      refused(g, "q1"); // written by the other handle: a fragment this one never saw
      upsert(g, "p4", 8); // the row the other handle's upsert moved
      oneRow(g, "p4", 8);
      append(g, "p7"); // deleted by the other handle
      g.optimize();
      refused(g, "p7");
      refused(g, "q1");
      upsert(g, "q1", 9);
      oneRow(g, "q1", 9);
      append(g, "p10");
      assertThat(rows(g, "p")).isEmpty();
      assertThat(GraphIo.export(g).lines().filter(l -> l.contains("\"type\":\"Person\"")).count()).isEqualTo(13);
    }
  }
  /**
   * A delete (or an update) in a fragment the memory knows gives it a new deletion file; the memory
   * still answers for it from its data files' entry, a superset of its live ids (FragmentIdSets), so
   * neither maintenance nor the next probe reads the fragment again — and the deleted id is free.
   */
  @Test
  void aDeleteInAKnownFragmentDoesNotMakeTheMemoryReadItAgain() {
    try (Graph g = Omnigraph.init(dir.resolve("d").toString(), PeopleGraph.SCHEMA,
        OpenOptions.defaults().withMaintenance(MaintenancePolicy.off()))) {
      StringBuilder people = new StringBuilder();
      for (int i = 0; i < 20; i++) {
        people.append(PeopleGraph.person("p" + i, i));
      }
      GraphIo.load(g, LoadMode.APPEND, people.toString());
      append(g, "s1"); // the probe reads the 20-row fragment once and remembers its ids
      assertThat(learnIds(g)).as("every fragment known").isZero();
      g.mutate(PURGE, "purge", QueryParams.of(Map.of("name", "p3")), MutationOptions.defaults());
      assertThat(learnIds(g)).as("the 20-row fragment with its new deletion file").isZero();
      append(g, "p3"); // deleted: free again (a hash hit, so that fragment is scanned through the filter)
      refused(g, "p3");
      refused(g, "p4");
      upsert(g, "p5", 50);
      oneRow(g, "p5", 50);
      assertThat(GraphIo.export(g).lines().filter(l -> l.contains("\"type\":\"Person\"")).count()).isEqualTo(21);
    }
  }

  /** @return how many fragments of Person's published version maintenance would have to read to know them */
  static int learnIds(Graph g) {
    LanceGraph l = (LanceGraph) g;
    var e = l.state().table("node:Person").orElseThrow();
    try (var s = l.tables().reader().openAt(l.root().lance(e.path()), e.version())) {
      return l.tables().reader().learnIds(s);
    }
  }
}
