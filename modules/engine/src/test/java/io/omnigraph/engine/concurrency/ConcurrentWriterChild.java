package io.omnigraph.engine.concurrency;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * One writer process: {@code <LOADS|MUTATIONS> <graph uri> <writer> <ops> [option=value ...]}
 * ({@link WriterWorkload}). Waits for a line on
 * stdin (so every process starts writing at once), runs the workload and prints one outcome line
 * per op, then {@code DONE}. An unexpected failure prints {@code FATAL} and exits 1.
 */
public final class ConcurrentWriterChild {
  private ConcurrentWriterChild() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    WriterWorkload workload = WriterWorkload.valueOf(args[0]);
    for (int i = 4; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    try (Graph g = Omnigraph.open(args[1], new OpenOptions(options))) {
      System.out.println("READY");
      System.out.flush();
      System.in.read();
      for (ConcurrentWorkload.Outcome o : workload.run(g, Integer.parseInt(args[2]), Integer.parseInt(args[3]))) {
        System.out.println(o.line());
      }
      System.out.println("DONE");
    } catch (Throwable t) {
      System.out.println("FATAL " + ConcurrentWorkload.describe(t).replace('\n', ' '));
      t.printStackTrace(System.out);
      System.out.flush();
      System.exit(1);
    }
  }
}
