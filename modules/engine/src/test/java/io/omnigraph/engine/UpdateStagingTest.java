package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update stages its rewrite of the rows it matched with the row addresses its match scan read
 * (docs/mutations.md, "How an update is staged"): no second scan of the table for those ids, and
 * every other id of the same upsert is still probed, so a keyed insert in the same mutation
 * replaces its committed row instead of duplicating it. An update matched by its key reads only the
 * fragments that may hold that key (those the id memory knows to hold none of it are skipped).
 */
class UpdateStagingTest {
  @TempDir Path dir;

  @Test
  void anUpdateRewritesTheRowsItMatchedWithoutProbingForThemAgain() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      long probes = TableReader.idProbes();
      MutationResult r = g.mutate("query older($n: String, $a: I32) { update Person set { age: $a } where name = $n }",
          "older", QueryParams.of(Map.of("n", "ada", "a", 37)), MutationOptions.defaults());
      assertThat(r.affectedNodes()).isEqualTo(1);
      assertThat(TableReader.idProbes() - probes).as("id probes of a pure update").isZero();
      assertThat(people((LanceGraph) g)).isEqualTo(Map.of("ada", 37, "bob", -1));
    }
  }

  @Test
  void theOtherIdsOfTheSameUpsertAreStillProbed() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      long probes = TableReader.idProbes();
      // bob is committed but not matched by the update: only the probe finds the row his upsert replaces.
      g.mutate("""
          query both() {
            update Person set { age: 40 } where name = "ada"
            insert Person { name: "bob", age: 7 }
          }
          """, "both", QueryParams.of(Map.of()), MutationOptions.defaults());
      assertThat(TableReader.idProbes() - probes).as("id probes: bob's only").isEqualTo(1);
      assertThat(people((LanceGraph) g)).isEqualTo(Map.of("ada", 40, "bob", 7));
    }
  }

  @Test
  void anUpdateByKeyReadsOnlyTheFragmentsThatMayHoldIt() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), PeopleGraph.SCHEMA)) {
      GraphIo.load(g, LoadMode.OVERWRITE, PeopleGraph.PEOPLE);
      for (String n : java.util.List.of("cy", "di", "eve")) { // three 1-row fragments whose ids this handle knows
        g.mutate("query add($n: String) { insert Person { name: $n, age: 1 } }", "add", QueryParams.of(Map.of("n", n)),
            MutationOptions.defaults());
      }
      String set = "query set($n: String, $a: I32) { update Person set { age: $a } where name = $n }";
      long skipped = TableReader.fragmentsSkippedByIds();
      assertThat(g.mutate(set, "set", QueryParams.of(Map.of("n", "ada", "a", 37)), MutationOptions.defaults())
          .affectedNodes()).isEqualTo(1);
      assertThat(TableReader.fragmentsSkippedByIds() - skipped).as("fragments of cy, di and eve, not read").isEqualTo(3);
      skipped = TableReader.fragmentsSkippedByIds();
      assertThat(g.mutate(set, "set", QueryParams.of(Map.of("n", "di", "a", 5)), MutationOptions.defaults())
          .affectedNodes()).isEqualTo(1);
      // The loaded fragment now has a deletion file (ada's old row): the id memory still answers for it
      // from its data files' ids (a superset of its live rows: ada, bob), so it is skipped as well.
      assertThat(TableReader.fragmentsSkippedByIds() - skipped)
          .as("fragments of cy, eve, ada's new row and the loaded one with its new deletion file, not read").isEqualTo(4);
      assertThat(g.mutate(set, "set", QueryParams.of(Map.of("n", "zed", "a", 5)), MutationOptions.defaults())
          .affectedNodes()).isZero();
      assertThat(people((LanceGraph) g)).isEqualTo(Map.of("ada", 37, "bob", -1, "cy", 1, "di", 5, "eve", 1));
    }
  }

  /** name → age (-1: null) of every Person row at the published version; a duplicated name fails. */
  private static Map<String, Integer> people(LanceGraph lg) {
    TableEntry e = lg.state().table("node:Person").orElseThrow();
    Map<String, Integer> out = new TreeMap<>();
    try (TableSnapshot s = lg.tables().reader().openLatest(lg.root().lance(e.path()))) {
      assertThat(s.version()).isEqualTo(e.version());
      lg.tables().reader().scan(s, java.util.List.of("name", "age"), null, batch -> {
        VarCharVector names = (VarCharVector) batch.getVector("name");
        IntVector ages = (IntVector) batch.getVector("age");
        for (int i = 0; i < batch.getRowCount(); i++) {
          String name = new String(names.get(i), StandardCharsets.UTF_8);
          assertThat(out.put(name, ages.isNull(i) ? -1 : ages.get(i))).as("second row of " + name).isNull();
        }
      });
    }
    assertThat(e.rowCount()).isEqualTo(out.size());
    return out;
  }
}
