package io.omnigraph.engine.durable;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The traced writer of {@link DurableCommitTraceTest}: opens a graph and runs three writes, and
 * after each write call returns (the acknowledgement) probes a unique marker path, which the
 * strace of this process records as the ack point {@code omnigraph-ack-<n>}.
 */
public final class DurableWriteChild {
  static final String GQ = """
      query add($n: String, $a: I32) { insert Person { name: $n, age: $a } }
      query drop($n: String) { delete Person where name = $n }
      """;

  private DurableWriteChild() {}

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    Path ackDir = Path.of(args[1]);
    try (Graph g = Omnigraph.open(uri)) {
      // 1: a 1-row insert (a strict/keyed insert: new data file in the table)
      g.mutate(GQ, "add", QueryParams.json("{\"n\":\"carol\",\"a\":41}"), MutationOptions.defaults());
      ack(ackDir, 1);
      // 2: a merge load that updates an existing row (new data file and a deletion file)
      g.load(LoadMode.MERGE, new ByteArrayInputStream(
          "{\"type\":\"Person\",\"data\":{\"name\":\"ada\",\"age\":37}}\n".getBytes(StandardCharsets.UTF_8)),
          LoadOptions.defaults());
      ack(ackDir, 2);
      // 3: a delete (a deletion file only)
      g.mutate(GQ, "drop", QueryParams.json("{\"n\":\"bob\"}"), MutationOptions.defaults());
      ack(ackDir, 3);
    }
    System.out.println("done");
  }

  private static void ack(Path dir, int n) {
    // A stat of a path that exists nowhere: the trace's marker for "write n was acknowledged".
    Files.exists(dir.resolve("omnigraph-ack-" + n));
  }
}
