package io.omnigraph.engine.concurrency;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * One writer process: {@code <graph uri> <writer> <ops> [option=value ...]}. Waits for a line on
 * stdin (so every process starts writing at once), runs the workload and prints one outcome line
 * per op, then {@code DONE}. An unexpected failure prints {@code FATAL} and exits 1.
 */
public final class ConcurrentWriterChild {
  private ConcurrentWriterChild() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    try (Graph g = Omnigraph.open(args[0], new OpenOptions(options))) {
      System.out.println("READY");
      System.out.flush();
      System.in.read();
      for (ConcurrentWorkload.Outcome o : ConcurrentWorkload.run(g, Integer.parseInt(args[1]), Integer.parseInt(args[2]))) {
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
