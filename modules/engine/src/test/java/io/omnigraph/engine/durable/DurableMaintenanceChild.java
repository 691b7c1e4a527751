package io.omnigraph.engine.durable;

import io.omnigraph.api.Graph;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The traced writer of {@link DurableMaintenanceTraceTest}. Phase {@code create}: a branch create
 * (ack 1), a write on the branch that forks three tables (ack 2), a write on main (ack 3), the
 * merge of the branch into main (ack 4), optimize (ack 5). Phase {@code remove}: the branch delete
 * (ack 1), cleanup (ack 2). After each call returns it probes a unique marker path, which the
 * strace of this process records as the acknowledgement {@code omnigraph-ack-<n>}.
 */
public final class DurableMaintenanceChild {
  static final String GQ = """
      query hire($p: String, $c: String) {
        insert Person { name: $p, age: 30 }
        insert Company { title: $c }
        insert WorksAt { from: $p, to: $c, since: 2026 }
      }
      query add($n: String) { insert Person { name: $n, age: 50 } }
      """;

  private DurableMaintenanceChild() {}

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    Path ackDir = Path.of(args[1]);
    String phase = args[2];
    if (phase.equals("create")) {
      try (Graph g = Omnigraph.open(uri)) {
        g.createBranch("feat", null);
        ack(ackDir, 1);
        g.mutate(GQ, "hire", QueryParams.json("{\"p\":\"carol\",\"c\":\"initech\"}"),
            MutationOptions.defaults().withBranch("feat"));
        ack(ackDir, 2);
        g.mutate(GQ, "add", QueryParams.json("{\"n\":\"dave\"}"), MutationOptions.defaults());
        ack(ackDir, 3);
        g.merge("feat", null, MergeOptions.defaults());
        ack(ackDir, 4);
        g.optimize();
        ack(ackDir, 5);
      }
    } else {
      try (Graph g = Omnigraph.open(uri)) {
        g.deleteBranch("feat");
        ack(ackDir, 1);
      }
      Omnigraph.cleanup(uri, OpenOptions.defaults());
      ack(ackDir, 2);
    }
    System.out.println("done");
  }

  private static void ack(Path dir, int n) {
    // A stat of a path that exists nowhere: the trace's marker for "call n was acknowledged".
    Files.exists(dir.resolve("omnigraph-ack-" + n));
  }
}
