package io.omnigraph.bench;

import io.omnigraph.bench.ReadSystems.ReadSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * One child JVM of the read benchmark. {@code prepare <system> <persons> <dir>} builds the store
 * and prints {@code PREPARED system millis}. {@code measure <system> <persons> <dir> <iterations>}
 * opens it, runs each query {@code iterations / 5} (at least 3) times to warm up and then
 * {@code iterations} times measured (keyed queries ask about a fixed sequence of persons, the same
 * for every system), and prints per query {@code RESULT system query p50Nanos p90Nanos rows
 * checksum}: the checksum (CRC-32 of every measured execution's rows, sorted for set-valued
 * queries) must be equal across systems.
 */
public final class ReadBenchChild {
  private ReadBenchChild() {}

  record QueryStats(String query, long p50, long p90, long rows, long checksum) {}

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    String system = args[1];
    ReadBenchData data = new ReadBenchData(Integer.parseInt(args[2]));
    Path dir = Path.of(args[3]);
    if (mode.equals("prepare")) {
      long t0 = System.nanoTime();
      try (ReadSystem s = ReadSystems.create(system)) {
        s.prepare(data, dir);
      }
      System.out.println("PREPARED " + system + " " + (System.nanoTime() - t0) / 1_000_000);
      return;
    }
    int iterations = Integer.parseInt(args[4]);
    for (QueryStats q : measure(system, data, dir, iterations)) {
      System.out.println("RESULT " + system + " " + q.query() + " " + q.p50() + " " + q.p90() + " " + q.rows() + " "
          + q.checksum());
    }
    System.exit(0); // Neo4j and Kùzu may leave non-daemon threads behind
  }

  static List<QueryStats> measure(String system, ReadBenchData data, Path dir, int iterations) throws Exception {
    List<QueryStats> out = new ArrayList<>();
    try (ReadSystem s = ReadSystems.create(system)) {
      s.open(data, dir);
      int warmup = Math.max(3, iterations / 5);
      for (String q : ReadSystems.QUERIES) {
        for (int i = 0; i < warmup; i++) {
          s.run(q, data.key(1_000_000 + i));
        }
        long[] nanos = new long[iterations];
        CRC32 crc = new CRC32();
        long rows = 0;
        for (int i = 0; i < iterations; i++) {
          long t0 = System.nanoTime();
          List<String> result = s.run(q, data.key(i));
          nanos[i] = System.nanoTime() - t0;
          List<String> canonical = new ArrayList<>(result);
          if (ReadSystems.UNORDERED.contains(q)) {
            canonical.sort(null);
          }
          rows += canonical.size();
          crc.update(String.join("\n", canonical).getBytes(StandardCharsets.UTF_8));
          crc.update('#');
        }
        Arrays.sort(nanos);
        out.add(new QueryStats(q, nanos[(iterations - 1) / 2], nanos[(int) Math.ceil(iterations * 0.9) - 1], rows,
            crc.getValue()));
      }
    }
    return out;
  }
}
