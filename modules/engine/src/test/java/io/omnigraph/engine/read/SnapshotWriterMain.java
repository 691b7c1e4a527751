package io.omnigraph.engine.read;

import io.omnigraph.api.Graph;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import java.util.Map;

/**
 * A writer process for {@link SnapshotIsolationTest}: publishes {@code count} commits, each adding
 * one person, one company and the edge between them, and prints {@code COMMIT <id>} per commit.
 */
public final class SnapshotWriterMain {
  static final String HIRE = """
      query hire($p: String, $c: String) {
        insert Person { name: $p }
        insert Company { name: $c }
        insert WorksAt { from: $p, to: $c }
      }
      """;

  private SnapshotWriterMain() {}

  public static void main(String[] args) {
    String uri = args[0];
    int count = Integer.parseInt(args[1]);
    String prefix = args[2];
    try (Graph g = Omnigraph.open(uri)) {
      for (int i = 0; i < count; i++) {
        MutationResult r = g.mutate(HIRE, "hire", QueryParams.of(Map.of("p", prefix + "p" + i, "c", prefix + "c" + i)),
            MutationOptions.defaults());
        System.out.println("COMMIT " + r.commitId());
        System.out.flush();
      }
    }
  }
}
