package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query reads exactly one snapshot while writers publish: every commit adds a person, a company
 * and the edge between them, so a query that mixed two commits would see a person without an
 * employer, or a person count that is not the count of the commit it reports.
 */
class SnapshotIsolationTest {
  static final int BASE = 3000;
  static final String CHECK = """
      query orphans() { match { $p: Person  not { $p worksAt $_ } } return { count($p) as n } }
      query employed() { match { $p: Person  $p worksAt $c } return { count($c) as n } }
      query people() { match { $p: Person } return { count($p) as n } }
      """;

  @TempDir Path dir;

  private Graph create() {
    Graph g = Omnigraph.init(dir.resolve("g").toString(), ReadFixture.SCHEMA);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < BASE; i++) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\"}}\n");
      b.append("{\"type\":\"Company\",\"data\":{\"name\":\"c").append(i).append("\"}}\n");
    }
    for (int i = 0; i < BASE; i++) {
      b.append("{\"edge\":\"WorksAt\",\"from\":\"p").append(i).append("\",\"to\":\"c").append(i).append("\",\"data\":{}}\n");
    }
    GraphIo.load(g, LoadMode.OVERWRITE, b.toString());
    return g;
  }

  private static long count(Graph g, String query, QueryOptions at, String[] commit) {
    try (QueryResult r = g.query(CHECK, query, QueryParams.none(), at)) {
      commit[0] = r.commitId();
      return (Long) r.rows().get(0).get("n");
    }
  }

  /** Runs queries until the writer is done; returns the commits the queries read. */
  private static Set<String> queryWhileWriting(Graph g, AtomicBoolean writing, Map<String, Long> expected) {
    Set<String> seen = new HashSet<>();
    String[] commit = new String[1];
    int rounds = 0;
    while (writing.get() || rounds < 3) {
      rounds++;
      assertThat(count(g, "orphans", QueryOptions.defaults(), commit)).as("a person without employer").isZero();
      long employed = count(g, "employed", QueryOptions.defaults(), commit);
      String employedAt = commit[0];
      seen.add(employedAt);
      // the count must be the one of the commit the result names
      long people = count(g, "people", QueryOptions.atCommit(employedAt), commit);
      assertThat(employed).as("employed at " + employedAt).isEqualTo(people);
      if (expected.containsKey(employedAt)) {
        assertThat(employed).isEqualTo(expected.get(employedAt));
      }
    }
    return seen;
  }

  @Test
  void aConcurrentWriterThreadNeverMixesCommitsIntoOneResult() throws Exception {
    try (Graph g = create(); Graph writer = Omnigraph.open(g.uri())) {
      Map<String, Long> expected = new ConcurrentHashMap<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Throwable> failures = new ArrayList<>();
      Thread t = new Thread(() -> {
        try {
          for (int i = 0; i < 12; i++) {
            MutationResult r = writer.mutate(SnapshotWriterMain.HIRE, "hire",
                QueryParams.of(Map.of("p", "tp" + i, "c", "tc" + i)), MutationOptions.defaults());
            expected.put(r.commitId(), (long) BASE + i + 1);
          }
        } catch (Throwable e) {
          failures.add(e);
        } finally {
          writing.set(false);
        }
      });
      t.start();
      Set<String> seen = queryWhileWriting(g, writing, expected);
      t.join();
      assertThat(failures).isEmpty();
      assertThat(seen).as("queries ran while commits were published").hasSizeGreaterThan(1);
      assertThat(seen).anyMatch(expected::containsKey);
    }
  }

  @Test
  void aWriterInAnotherProcessNeverMixesCommitsIntoOneResult() throws Exception {
    try (Graph g = create()) {
      AtomicBoolean writing = new AtomicBoolean(true);
      Process child = ChildJvm.main(SnapshotWriterMain.class, g.uri(), "12", "x").start();
      Thread waiter = new Thread(() -> {
        try {
          ChildJvm.output(child, ChildJvm.GUARD);
        } finally {
          writing.set(false);
        }
      });
      waiter.start();
      Set<String> seen = queryWhileWriting(g, writing, Map.of());
      waiter.join();
      assertThat(child.exitValue()).isZero();
      assertThat(seen).as("queries ran while the other process published").hasSizeGreaterThan(1);
      String[] commit = new String[1];
      assertThat(count(g, "people", QueryOptions.defaults(), commit)).isEqualTo(BASE + 12);
    }
  }
}
